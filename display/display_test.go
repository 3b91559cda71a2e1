package display

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
)

func TestShortCommand(t *testing.T) {
	for _, c := range []struct {
		act  model.Action
		want string
	}{
		{model.Action{Command: "cd /testbed && grep -rn  x /testbed/pkg"}, "grep -rn x pkg"},
		{model.Action{Command: "cat <<'EOF' > a.py\nprint(1)\nEOF"}, "cat <<'EOF' > a.py …"},
		{model.Action{Tool: "str_replace_editor"}, "str_replace_editor"},
		{model.Action{Command: "echo \x1b[2J"}, `echo \e[2J`},
	} {
		if got := ShortCommand(&c.act); got != c.want {
			t.Errorf("ShortCommand(%q) = %q, want %q", c.act.Command, got, c.want)
		}
	}
	if got := Category(&model.Action{}); got != model.CategoryOther {
		t.Errorf("empty category = %q", got)
	}
}

func TestTruncateAndRatio(t *testing.T) {
	if got := Truncate("discounts.py:41-75", 10); got != "discounts…" {
		t.Errorf("Truncate = %q", got)
	}
	if got := Truncate("日本語", 6); got != "日本語" {
		t.Errorf("Truncate kept width 6 = %q", got)
	}
	if Ratio(1, 4) != "0.25" || Ratio(3, 0) != "-" {
		t.Errorf("Ratio: %s %s", Ratio(1, 4), Ratio(3, 0))
	}
}

func TestMiddle(t *testing.T) {
	const a = "openlibrary/catalog/marc/tests/test_marc_binary.py"
	const b = "openlibrary/catalog/marc/tests/test_parse.py"
	for _, c := range []struct {
		s    string
		w    int
		want string
	}{
		{a, 60, a},
		{a, len(a), a},
		{a, 40, "openlibrar…arc/tests/test_marc_binary.py"},
		{b, 40, "openlibrary/c…g/marc/tests/test_parse.py"},
		{a, 30, "openl…ests/test_marc_binary.py"},
		{b, 30, "openlibr…c/tests/test_parse.py"},
		{a, 21, "…/test_marc_binary.py"},
		// The name alone no longer fits: both ends, the end longer.
		{a, 12, "openl…ary.py"},
		{"django__django-12419", 12, "djang…-12419"},
		{"日本語/ファイル.py", 10, "日本…ル.py"},
		{a, 1, "…"},
		{a, 0, ""},
		{"dir/", 3, "d…/"},
	} {
		got := Middle(c.s, c.w)
		if got != c.want {
			t.Errorf("Middle(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
		if w := ansi.StringWidth(got); w > max(c.w, 0) {
			t.Errorf("Middle(%q, %d) is %d cells wide", c.s, c.w, w)
		}
	}
	// The two paths the gold panel once showed alike stay apart at every
	// width that leaves room for a few letters of each name.
	for w := 8; w <= len(a); w++ {
		if Middle(a, w) == Middle(b, w) {
			t.Errorf("width %d: %q for both", w, Middle(a, w))
		}
	}
}

// A read's ranges are shown merged: lines named one by one (Agentless) read
// as the ranges they make, and the input is left as it was.
func TestCompactReadMerges(t *testing.T) {
	spans := []model.Interval{{Start: 207, End: 207}, {Start: 199, End: 199}, {Start: 200, End: 200}}
	got := compactRead([]model.FileSpans{{File: "pkg/a.py", Spans: spans}})
	if got != "a.py:199-200,207-207" || spans[0].Start != 207 {
		t.Errorf("compactRead = %q (spans now %v)", got, spans)
	}
}
