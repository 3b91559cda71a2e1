package runtext

import (
	"testing"

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
