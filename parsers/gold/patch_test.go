package gold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// A patch given as the gold is every run's target: its hunks' changes,
// under the run's id; a file that is no patch stays gold rows.
func TestPatchAsGold(t *testing.T) {
	dir := t.TempDir()
	diff := "diff --git a/pkg/mod.py b/pkg/mod.py\n--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,2 +4,2 @@\n def alpha(x):\n-    return x + 1\n+    return x + 2\n"
	for _, c := range []struct {
		name, text string
		patch      bool
		err        string
	}{
		{"fix.diff", diff, true, ""},
		{"fix.txt", diff, true, ""},
		{"plain.patch", strings.TrimPrefix(diff, "diff --git a/pkg/mod.py b/pkg/mod.py\n"), true, ""},
		{"empty.diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n", false, "a patch with no hunks"},
		{"gold.jsonl", `{"inst_id": "a__b-1", "gold_ctx": [{"file": "x.py", "start_line": 1, "end_line": 2}]}` + "\n", false, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.name)
			os.WriteFile(p, []byte(c.text), 0o644)
			set, err := Load(p)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if set.IsPatch() != c.patch {
				t.Fatalf("IsPatch %v", set.IsPatch())
			}
			if !c.patch {
				return
			}
			g, ok := set.Get("any__id-7")
			if !ok || g.ID != "any__id-7" || g.From != model.GoldFromPatch || len(g.Changes) != 1 || len(g.Init) != 0 {
				t.Fatalf("gold %+v", g)
			}
			if ch := g.Changes[0]; ch.File != "pkg/mod.py" || !strings.Contains(ch.Old, "x + 1") || !strings.Contains(ch.New, "x + 2") {
				t.Errorf("change %+v", ch)
			}
		})
	}
}

// A .diff whose hunks have no file header is named for what it lacks (it
// was "invalid JSON"), and a patch of more hunks than a gold may have is
// refused as soon as that is known, before they are all built (issue 48
// #15, #16).
func TestPatchRefusals(t *testing.T) {
	dir := t.TempDir()
	headless := filepath.Join(dir, "x.diff")
	os.WriteFile(headless, []byte("@@ -1,1 +1,1 @@\n-a\n+b\n"), 0o644)
	if _, err := Load(headless); err == nil || !strings.Contains(err.Error(), "hunks without a file header") {
		t.Errorf("headless hunks: %v", err)
	}
	var b strings.Builder
	for i := 0; i <= model.MaxGoldSpans; i++ {
		fmt.Fprintf(&b, "--- a/f%d.py\n+++ b/f%d.py\n@@ -1,1 +1,1 @@\n-a\n+b\n", i, i)
	}
	many := filepath.Join(dir, "many.diff")
	os.WriteFile(many, []byte(b.String()), 0o644)
	if _, err := Load(many); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("more than %d hunks", model.MaxGoldSpans)) {
		t.Errorf("too many hunks: %v", err)
	}
}
