package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// `e` hands the editor only a regular file inside the repository: gold
// that climbs out with "..", a symlink out of the root and a gold file the
// repository lacks are refused with a status line, and nothing is created.
func TestEditStaysInRepository(t *testing.T) {
	base := t.TempDir()
	root, outside := filepath.Join(base, "repo"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "pkg"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite(filepath.Join(root, "pkg", "mod.py"), "a = 1\nb = 2\n")
	mustWrite(filepath.Join(outside, "secret.py"), "SECRET = 1\n")
	if err := os.Symlink("../../outside/secret.py", filepath.Join(root, "pkg", "leak.py")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	dir, err := source.OpenDir(root)
	if err != nil {
		t.Fatal(err)
	}
	g := &model.Gold{ID: "o__r-1", Init: []model.GoldSpan{
		{File: "pkg/mod.py", Start: 1, End: 2}, {File: "pkg/../../outside/secret.py", Start: 1, End: 1},
		{File: "pkg/leak.py", Start: 1, End: 1}, {File: "pkg/missing.py", Start: 1, End: 1},
	}}
	run := &model.Run{InstanceID: "o__r-1", Actions: []model.Action{{Command: "ls"}}}
	local := func(p string) string { l, _ := dir.Local(p); return l }
	m := newModel(t, scoring.Analyze(run, g, scoring.NewFileCache(dir), model.ContextBench), Options{LocalPath: local}, 80, 24)

	real, _ := filepath.EvalSymlinks(filepath.Join(root, "pkg", "mod.py"))
	if path, tmp, refused := m.editPath("pkg/mod.py"); path != real || tmp != "" || refused != "" {
		t.Errorf("pkg/mod.py: path %q tmp %q refused %q, want the repository's file %q", path, tmp, refused, real)
	}
	for _, f := range []string{"pkg/../../outside/secret.py", "../outside/secret.py", "pkg/leak.py", "pkg/missing.py", "/etc/passwd", ".."} {
		path, _, refused := m.editPath(f)
		if path != "" || !strings.HasPrefix(refused, "not a file of the repository: ") {
			t.Errorf("%q: path %q, status %q; want it refused", f, path, refused)
		}
		// Through the key, too: no editor runs, the status says why.
		if cmd := m.edit(f, 1); cmd != nil || m.status != refused {
			t.Errorf("%q: e ran the editor or said %q", f, m.status)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "pkg", "missing.py")); err == nil {
		t.Error("pkg/missing.py was created")
	}

	// A git tree (no LocalPath) gets a read-only copy of the repository's
	// bytes; without a repository there is nothing to open.
	m = newModel(t, scoring.Analyze(run, g, scoring.NewFileCache(dir), model.ContextBench), Options{}, 80, 24)
	path, tmp, refused := m.editPath("pkg/mod.py")
	if b, _ := os.ReadFile(path); refused != "" || tmp == "" || string(b) != "a = 1\nb = 2\n" || filepath.Dir(path) != tmp {
		t.Errorf("copy: path %q tmp %q refused %q content %q", path, tmp, refused, b)
	}
	os.RemoveAll(tmp)
	run2 := &model.Run{InstanceID: "o__r-1", Actions: []model.Action{{Command: "ls"}}}
	bare := scoring.Analyze(run2, g, scoring.NewFileCache(observed.Build(run2, scoring.GoldPaths(g, model.ContextBench), "test", nil)), model.ContextBench)
	m = newModel(t, bare, Options{LocalPath: local}, 80, 24)
	if path, _, refused := m.editPath("pkg/mod.py"); path != "" || !strings.HasPrefix(refused, "no repository to open pkg/mod.py") {
		t.Errorf("without a repository: path %q status %q", path, refused)
	}
}
