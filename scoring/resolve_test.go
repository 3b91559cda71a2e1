package scoring_test

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// resolveFiles is the repository used by the Resolve tables: it holds the
// targets of path shapes seen in upstream runs.
var resolveFiles = map[string]string{
	"pkg/util.py":                          "u",
	"pkg/mod.py":                           "m",
	"django/db/migrations/autodetector.py": "d",
	"test.py":                              "t",
	"setup.py":                             "s",
	"src/a b.py":                           "space",
	".github/x.yml":                        "y",
	"link.py":                              "symlink:pkg/mod.py",
	"esc.py":                               "symlink:../outside.py",
	"pkg/esc.py":                           "symlink:../../setup.py",
	"abs.py":                               "symlink:/etc/passwd",
}

var resolveCases = []struct {
	in, want string
}{
	// Path shapes from upstream runs.
	{"/testbed/pkg/util.py", "pkg/util.py"},
	{"usr/lib/python3/site-packages/pkg/mod.py", "pkg/mod.py"},
	{"lib/python3.x/site-packages/django/db/migrations/autodetector.py", "django/db/migrations/autodetector.py"},
	{"workspace/repo__0.1/pkg/mod.py", "pkg/mod.py"},
	{"--include=*.py", ""},
	// Hazards of suffix resolution.
	{"test.py", "test.py"},
	{"/tmp/x/setup.py", "setup.py"},
	// Normalisation steps.
	{"pkg/mod.py", "pkg/mod.py"},
	{"./pkg/mod.py", "pkg/mod.py"},
	{"././pkg/mod.py", "pkg/mod.py"},
	{".//pkg/mod.py", "pkg/mod.py"},
	{"///pkg//mod.py", "pkg/mod.py"},
	{`pkg\mod.py`, "pkg/mod.py"},
	{`C:\work\pkg\mod.py`, "pkg/mod.py"},
	{"  pkg/mod.py\n", "pkg/mod.py"},
	{"\u00a0\u3000pkg/mod.py\u2029", "pkg/mod.py"}, // Unicode spaces
	{"\x1cpkg/mod.py\x1f", "pkg/mod.py"},           // Python strip() also drops U+001C..U+001F
	{`"pkg/mod.py"`, "pkg/mod.py"},
	{`'"pkg/mod.py"'`, "pkg/mod.py"},
	{`"pkg/mod.py',`, ""}, // "," is not stripped
	{"src/a b.py", "src/a b.py"},
	{".github/x.yml", ".github/x.yml"},
	{"/./pkg/mod.py", "./pkg/mod.py"}, // lstrip("/") happens after the "./" loop
	// Upstream re-strips a candidate only to check it, and returns it as is.
	{"' pkg/mod.py'", " pkg/mod.py"},
	{"'pkg/mod.py '", "pkg/mod.py "},
	{"", ""},
	{"   ", ""},
	{"''", ""},
	{"/", ""},
	{"./", ""},
	{"pkg", ""}, // a directory
	{"nope.py", ""},
	// Symlinks: followed inside, refused when escaping.
	{"link.py", "link.py"},
	{"a/b/link.py", "link.py"},
	{"esc.py", ""},
	{"pkg/esc.py", ""},
	{"abs.py", ""},
	// ".." never escapes, and a candidate containing ".." is refused even
	// when it stays inside; a later suffix without ".." may still match.
	{"../setup.py", "setup.py"},
	{"../../etc/passwd", ""},
	{"pkg/../setup.py", "setup.py"},
	{"pkg/../../outside.py", ""},
	{"x/../pkg/mod.py", "pkg/mod.py"},
}

func TestResolve(t *testing.T) {
	dir, commit := testkit.GitRepo(t, resolveFiles)
	g, err := source.Open(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := source.OpenDir(dir) // the checked-out worktree: same files on disk
	if err != nil {
		t.Fatal(err)
	}
	mfs := fstest.MapFS{}
	for p, c := range resolveFiles {
		if !strings.HasPrefix(c, testkit.SymlinkPrefix) {
			mfs[p] = &fstest.MapFile{Data: []byte(c)}
		}
	}
	for _, tr := range []struct {
		name string
		tree model.Tree
	}{{"git", g}, {"dir", d}, {"fs", source.NewFS(mfs)}} {
		for _, tc := range resolveCases {
			want := tc.want
			if tr.name == "fs" && strings.Contains(tc.in, "link.py") {
				want = "" // MapFS has no symlinks
			}
			if got := scoring.Resolve(tr.tree, tc.in); got != want {
				t.Errorf("%s: scoring.Resolve(%q) = %q, want %q", tr.name, tc.in, got, want)
			}
		}
	}
	if got := scoring.Resolve(nil, "pkg/mod.py"); got != "" {
		t.Errorf("scoring.Resolve(nil tree) = %q", got)
	}
}

func FuzzResolve(f *testing.F) {
	for _, tc := range resolveCases {
		f.Add(tc.in)
	}
	f.Add("a/../../b")
	f.Add("\\\\server\\share\\pkg\\util.py")
	dir, commit := testkit.GitRepo(f, resolveFiles)
	g, err := source.Open(dir, commit, nil)
	if err != nil {
		f.Fatal(err)
	}
	d, err := source.OpenDir(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		defer testkit.FuzzBudget(t)()
		for _, tree := range []model.Tree{g, d} {
			got := scoring.Resolve(tree, in)
			if got == "" {
				continue
			}
			// Upstream returns the candidate unstripped; the file it names is
			// the stripped one.
			c := python.StripSpace(got)
			if strings.HasPrefix(c, "/") || slices.Contains(strings.Split(c, "/"), "..") || strings.Contains(got, "//") {
				t.Fatalf("scoring.Resolve(%q) = %q: not a relative path free of ..", in, got)
			}
			if !tree.IsFile(c) {
				t.Fatalf("scoring.Resolve(%q) = %q: not a file in the tree", in, got)
			}
		}
	})
}
