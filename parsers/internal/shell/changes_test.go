package shell

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// A patch's hunks become replacements of their context and removed lines by
// their context and added lines; an added file is its whole content; a
// deleted file changes nothing that can be replayed.
func TestPatchChanges(t *testing.T) {
	cases := []struct {
		name, patch string
		want        []model.Change
	}{
		{"apply_patch envelope", "*** Begin Patch\n*** Update File: pkg/a.py\n@@ def f():\n     x = 1\n-    y = 2\n+    y = 3\n*** Add File: pkg/new.py\n+print(1)\n+print(2)\n*** Delete File: old.py\n*** End Patch\n",
			[]model.Change{
				{File: "pkg/a.py", Kind: model.ChangeReplace, Old: "    x = 1\n    y = 2", New: "    x = 1\n    y = 3"},
				{File: "pkg/new.py", Kind: model.ChangeWhole, New: "print(1)\nprint(2)"},
			}},
		{"unified diff, two hunks", "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n a\n-b\n+B\n@@ -9 +9 @@\n-z\n+Z\n",
			[]model.Change{
				{File: "a.py", Kind: model.ChangeReplace, Old: "a\nb", New: "a\nB"},
				{File: "a.py", Kind: model.ChangeReplace, Old: "z", New: "Z"},
			}},
		{"a heredoc around the envelope", "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: x.go\n@@\n-a\n+b\n*** End Patch\nEOF", []model.Change{{File: "x.go", Kind: model.ChangeReplace, Old: "a", New: "b"}}},
		{"no hunks", "*** Begin Patch\n*** Delete File: x.go\n*** End Patch", nil},
	}
	for _, c := range cases {
		if got := PatchChanges(c.patch); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// A recorded edit keeps at most maxChangeBytes, cut at a line's end.
func TestClip(t *testing.T) {
	line := "0123456789abcdef\n"
	big := ""
	for len(big) < maxChangeBytes+100 {
		big += line
	}
	got := Clip(big)
	if len(got) > maxChangeBytes || len(got) < maxChangeBytes-len(line) || got[len(got)-1] != 'f' {
		t.Errorf("Clip: %d bytes ending %q", len(got), got[len(got)-3:])
	}
	if Clip("short") != "short" {
		t.Error("a short text changed")
	}
}
