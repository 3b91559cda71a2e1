package scoring

import (
	"maps"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
	"github.com/trajscope/trajscope/source"
)

func TestDeletedLines(t *testing.T) {
	// The first three diffs are the upstream extractor vectors
	// (diff_deletions_only); Fixed expectations are worked out by hand.
	devnull := "diff --git a/pkg/util.py b/pkg/util.py\n--- a/pkg/util.py\n+++ b/pkg/util.py\n@@ -1,2 +1,2 @@\n-X = 1\n+X = 10\n Y = 2\ndiff --git a/test.py b/test.py\ndeleted file mode 100644\n--- a/test.py\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-def top():\n-    pass\n"
	dashes := "--- a/q.sql\n+++ b/q.sql\n@@ -1,4 +1,3 @@\n SELECT 1;\n---- old comment\n-SELECT 2;\n SELECT 3;\n"
	blank := "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -1,4 +1,4 @@\n import os\n\n\n-def alpha(x):\n+def alpha(y):\n"
	tv3 := "diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,2 +4,2 @@\n def alpha(x):\n-    return x + 1\n+    return x + 2\n@@ -9,2 +9,3 @@\n-    def gamma(self):\n-        return 2\n+    def gamma(self):\n+        return 20\n+    # added\n@@ -13,0 +14,1 @@\n+# tail\n"
	switchFile := "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-x\n+++ b/b.py\n@@ -5,1 +5,0 @@\n-y\n"
	cases := []struct {
		name string
		diff string
		sem  model.Semantics
		want []DiffFile
	}{
		{"devnull upstream charges the previous file", devnull, model.ContextBench, []DiffFile{{"pkg/util.py", []model.Interval{{Start: 1, End: 2}}}}},
		{"devnull fixed", devnull, model.Fixed, []DiffFile{{"pkg/util.py", []model.Interval{{Start: 1, End: 1}}}, {"test.py", []model.Interval{{Start: 1, End: 2}}}}},
		{"dashes upstream end the hunk", dashes, model.ContextBench, []DiffFile{}},
		{"dashes fixed", dashes, model.Fixed, []DiffFile{{"q.sql", []model.Interval{{Start: 2, End: 3}}}}},
		{"blank context upstream does not count", blank, model.ContextBench, []DiffFile{{"pkg/mod.py", []model.Interval{{Start: 2, End: 2}}}}},
		{"blank context fixed counts", blank, model.Fixed, []DiffFile{{"pkg/mod.py", []model.Interval{{Start: 4, End: 4}}}}},
		{"tv3 upstream", tv3, model.ContextBench, []DiffFile{{"pkg/mod.py", []model.Interval{{Start: 5, End: 5}, {Start: 9, End: 10}}}}},
		{"tv3 fixed", tv3, model.Fixed, []DiffFile{{"pkg/mod.py", []model.Interval{{Start: 5, End: 5}, {Start: 9, End: 10}}}}},
		{"added +++ b/ line switches file upstream", switchFile, model.ContextBench, []DiffFile{{"a.py", []model.Interval{{Start: 1, End: 1}}}, {"b.py", []model.Interval{{Start: 5, End: 5}}}}},
		{"empty", "", model.ContextBench, []DiffFile{}},
		{"hunk before any file", "@@ -1,1 +1,1 @@\n-x\n", model.ContextBench, []DiffFile{}},
	}
	for _, c := range cases {
		if got := DeletedLines(c.diff, c.sem); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestNormalizeGoldPath(t *testing.T) {
	cases := []struct{ in, upstream, fixed string }{
		{"/testbed/pkg/mod.py", "pkg/mod.py", "pkg/mod.py"},
		{"/workspace/cli__cli__0.1/pkg/a.go", "pkg/a.go", "pkg/a.go"},
		{"/workspace/run_svelte_test.js", "run_svelte_test.js", "run_svelte_test.js"},
		{"/abs/x.py", "abs/x.py", "abs/x.py"},
		{".github/x.yml", "github/x.yml", ".github/x.yml"},
		{".size-limit.js", "size-limit.js", ".size-limit.js"},
		{"./././a.py", "a.py", "a.py"},
		{`pkg\win\a.py`, "pkg/win/a.py", "pkg/win/a.py"},
		{"", "", ""},
	}
	for _, c := range cases {
		if got := NormalizeGoldPath(c.in, model.ContextBench); got != c.upstream {
			t.Errorf("upstream(%q) = %q, want %q", c.in, got, c.upstream)
		}
		if got := NormalizeGoldPath(c.in, model.Fixed); got != c.fixed {
			t.Errorf("fixed(%q) = %q, want %q", c.in, got, c.fixed)
		}
	}
}

func TestIntervals(t *testing.T) {
	cases := []struct {
		in     []model.Interval
		merged []model.Interval
		length int
	}{
		{nil, nil, 0},
		{[]model.Interval{{Start: 5, End: 9}, {Start: 1, End: 2}, {Start: 3, End: 4}}, []model.Interval{{Start: 1, End: 9}}, 9}, // adjacent merge
		{[]model.Interval{{Start: 1, End: 2}, {Start: 4, End: 5}}, []model.Interval{{Start: 1, End: 2}, {Start: 4, End: 5}}, 4},
		{[]model.Interval{{Start: 10, End: 4}}, []model.Interval{{Start: 10, End: 4}}, -5}, // upstream's negative length
		{[]model.Interval{{Start: 1, End: 10}, {Start: 2, End: 3}}, []model.Interval{{Start: 1, End: 10}}, 10},
	}
	for _, c := range cases {
		got := model.MergeIntervals(append([]model.Interval(nil), c.in...))
		if !reflect.DeepEqual(got, c.merged) || model.TotalLength(got) != c.length {
			t.Errorf("merge(%v) = %v (len %d), want %v (len %d)", c.in, got, model.TotalLength(got), c.merged, c.length)
		}
	}
	if n := model.IntersectLength([]model.Interval{{Start: 1, End: 5}, {Start: 8, End: 12}}, []model.Interval{{Start: 4, End: 9}, {Start: 12, End: 20}}); n != 5 {
		t.Errorf("intersect = %d, want 5", n)
	}
}

func TestLineToByte(t *testing.T) {
	tree := source.NewFS(fstest.MapFS{
		"lf.txt":    {Data: []byte("ab\ncd\n")}, // offsets 0 3 6
		"nolf.txt":  {Data: []byte("ab\ncd")},
		"empty.txt": {Data: nil},
	})
	f := NewFileCache(tree)
	cases := []struct {
		file       string
		start, end int
		fixed      bool
		want       model.Interval
		ok         bool
	}{
		{"lf.txt", 1, 1, false, model.Interval{Start: 0, End: 2}, true},
		{"lf.txt", 1, 2, false, model.Interval{Start: 0, End: 5}, true},
		{"lf.txt", 2, 100, false, model.Interval{Start: 3, End: 5}, true},
		{"lf.txt", 3, 3, false, model.Interval{Start: 6, End: 6}, true}, // phantom line after the final \n
		{"lf.txt", 3, 3, true, model.Interval{}, false},
		{"lf.txt", 4, 4, false, model.Interval{}, false},
		{"lf.txt", 0, -3, false, model.Interval{Start: 0, End: 2}, true}, // start clamps to 1, end to start
		{"lf.txt", 2, 1, false, model.Interval{Start: 3, End: 5}, true},  // reversed collapses to start
		{"nolf.txt", 2, 2, false, model.Interval{Start: 3, End: 4}, true},
		{"nolf.txt", 3, 3, false, model.Interval{}, false},
		{"empty.txt", 5, 9, false, model.Interval{Start: 0, End: 0}, true}, // upstream: 1 byte
		{"missing.txt", 1, 1, false, model.Interval{}, false},
	}
	for _, c := range cases {
		got, ok := f.lineToByte(c.file, c.start, c.end, c.fixed)
		if ok != c.ok || got != c.want {
			t.Errorf("%s %d-%d fixed=%v: got %v %v, want %v %v", c.file, c.start, c.end, c.fixed, got, ok, c.want, c.ok)
		}
	}
	if n := f.LineCount("nolf.txt"); n != 2 {
		t.Errorf("LineCount(nolf) = %d", n)
	}
	if n := f.LineCount("lf.txt"); n != 2 {
		t.Errorf("LineCount(lf) = %d", n)
	}
}

// TestSymbolOverlapBoundary: upstream counts a definition whose exclusive
// end equals a span's first byte; Fixed needs a shared byte.
func TestSymbolOverlapBoundary(t *testing.T) {
	f := NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte("0123456789\n")}}))
	fi := f.info("a.py")
	fs := fi.syms()
	fs.defsOnce.Do(func() { fs.defs = []symbols.Def{{Type: "function_definition", Start: 0, End: 5}} })
	spans := FileIntervals{"a.py": {{Start: 5, End: 9}}}
	if n := len((scorer{f, model.ContextBench}).defsInSpans(maps.All(spans))); n != 1 {
		t.Errorf("upstream: %d defs, want 1", n)
	}
	if n := len((scorer{f, model.Fixed}).defsInSpans(maps.All(spans))); n != 0 {
		t.Errorf("fixed: %d defs, want 0", n)
	}
}
