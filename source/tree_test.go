package source

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// writeFiles writes files (slash paths) under root.
func writeFiles(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestDirTree(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "repo")
	writeFiles(t, root, map[string]string{"a.txt": "A", "pkg/b.go": "B"})
	writeFiles(t, base, map[string]string{"secret.txt": "S"})
	links := map[string]string{
		"link":        "a.txt",
		"pkg/up":      "../a.txt",
		"alias":       "pkg",
		"esc-rel":     "../secret.txt",
		"esc-abs":     filepath.Join(base, "secret.txt"),
		"in-abs":      filepath.Join(root, "a.txt"), // absolute but inside: upstream's realpath accepts it
		"esc-dir":     base,
		"dangling":    "nope",
		"pkg/esc-two": "../../secret.txt",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	// Opening through a symlinked root still confines to the real root.
	rootLink := filepath.Join(base, "rootlink")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	for _, r := range []string{root, rootLink} {
		d, err := OpenDir(r)
		if err != nil {
			t.Fatal(err)
		}
		tests := []struct{ path, want string }{
			{"a.txt", "A"},
			{"pkg/b.go", "B"},
			{"pkg/./b.go", "B"},
			{"pkg/../a.txt", "A"}, // cleans to a.txt: no ".." left
			{"link", "A"},
			{"pkg/up", "A"},
			{"alias/b.go", "B"},
			{"in-abs", "A"},
			{"../secret.txt", ""},
			{"../repo/a.txt", ""},
			{"pkg/../../secret.txt", ""},
			{"/a.txt", ""},
			{"esc-rel", ""},
			{"esc-abs", ""},
			{"esc-dir/secret.txt", ""},
			{"pkg/esc-two", ""},
			{"dangling", ""},
			{"pkg", ""},
			{".", ""},
			{"", ""},
			{"a\x00.txt", ""},
		}
		for _, tc := range tests {
			got, err := d.ReadFile(tc.path)
			if tc.want == "" {
				if err == nil || d.IsFile(tc.path) {
					t.Errorf("root %s: %q: read %q; want not a file", r, tc.path, got)
				} else if !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("root %s: %q: error %v should wrap fs.ErrNotExist", r, tc.path, err)
				}
				// The editor path follows the same rules: nothing outside
				// the root, nothing missing (an editor would create it).
				if local, ok := d.Local(tc.path); ok {
					t.Errorf("root %s: %q: Local = %q; want refused", r, tc.path, local)
				}
				continue
			}
			if err != nil || string(got) != tc.want || !d.IsFile(tc.path) {
				t.Errorf("root %s: %q: got %q, %v; want %q", r, tc.path, got, err, tc.want)
			}
			local, ok := d.Local(tc.path)
			if b, err := os.ReadFile(local); !ok || !filepath.IsAbs(local) || err != nil || string(b) != tc.want {
				t.Errorf("root %s: %q: Local = %q, %v; want an absolute path to the file", r, tc.path, local, ok)
			}
		}
	}
}

func TestOpenDirErrors(t *testing.T) {
	base := t.TempDir()
	writeFiles(t, base, map[string]string{"f": "x"})
	tests := []struct {
		root, mention string
	}{
		{filepath.Join(base, "missing"), "no such directory"},
		{filepath.Join(base, "f"), "not a directory"},
	}
	for _, tc := range tests {
		_, err := OpenDir(tc.root)
		if err == nil || !strings.Contains(err.Error(), tc.mention) || !strings.Contains(err.Error(), tc.root) {
			t.Errorf("OpenDir(%s) error %v; want it to name the dir and say %q", tc.root, err, tc.mention)
		}
	}
}

func TestFSTree(t *testing.T) {
	f := NewFS(fstest.MapFS{
		"a.txt":       {Data: []byte("A")},
		"pkg/b.go":    {Data: []byte("B")},
		"pkg/sub/dir": {Mode: fs.ModeDir},
	})
	tests := []struct{ path, want string }{
		{"a.txt", "A"},
		{"pkg/b.go", "B"},
		{"./pkg/b.go", "B"},
		{"pkg//b.go", "B"},
		{"pkg", ""},
		{"pkg/sub/dir", ""},
		{"../a.txt", ""},
		{"/a.txt", ""},
		{"missing", ""},
		{"", ""},
	}
	for _, tc := range tests {
		got, err := f.ReadFile(tc.path)
		if tc.want == "" {
			if err == nil || f.IsFile(tc.path) {
				t.Errorf("%q: read %q; want not a file", tc.path, got)
			}
			continue
		}
		if err != nil || string(got) != tc.want || !f.IsFile(tc.path) {
			t.Errorf("%q: got %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
	var nilFS *FSTree
	if nilFS.IsFile("a.txt") {
		t.Error("nil FSTree reports a file")
	}
}
