package observation

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

func TestVisible(t *testing.T) {
	th, _ := themes.Get("dark", true, true) // mono: escapes in reverse video
	cases := []struct {
		in   string
		want []string
	}{
		{"plain", []string{"plain"}},
		{"a\tb", []string{"a       b"}},
		{"12\tx", []string{"12      x"}},
		{"two\nlines", []string{"two", "lines"}},
		{"\x1b[31mred", []string{`\e[31mred`}},
		{"\x1b]52;c;QQ==\x07", []string{`\e]52;c;QQ==\x07`}},
		{"over\rwrite\b", []string{`over\rwrite\x08`}},
		{"c1 \u009b1m", []string{`c1 \x9b1m`}},
		{"bidi \u202eabc", []string{`bidi \u202eabc`}},
		{"bad \xff byte", []string{`bad \xff byte`}},
		{"ünïcödé ok", []string{"ünïcödé ok"}},
	}
	for _, c := range cases {
		got := Visible(c.in, th)
		if len(got) != len(c.want) {
			t.Errorf("%q: %d lines, want %d", c.in, len(got), len(c.want))
			continue
		}
		for k := range got {
			if s := ansi.Strip(got[k]); s != c.want[k] {
				t.Errorf("%q line %d: %q, want %q", c.in, k, s, c.want[k])
			}
		}
	}
	// The escape itself is styled so it stands out from real text.
	if got := Visible("\x1b", th)[0]; got == `\e` {
		t.Error("escape not styled")
	}
}

// Thoughts and output wrap within the pane: no line is cut off.
func TestWrapFitsWidth(t *testing.T) {
	run := &model.Run{InstanceID: "x", Actions: []model.Action{{
		Command: "grep -rn 'SECURE_REFERRER_POLICY' /testbed --include=*.py && echo done",
	}},
		Thoughts:     model.TextList{"THOUGHT: It appears that the line containing `SECURE_REFERRER_POLICY` is not within the range of lines 100-110. I'll need a broader range: supercalifragilisticexpialidocious-hyphenated-words-everywhere."},
		Observations: model.TextList{strings.Repeat("x", 300) + "\n\tshort\n" + strings.Repeat("日本", 80)},
	}
	a := scoring.Analyze(run, &model.Gold{}, scoring.NewFileCache(nil), model.ContextBench)
	th, _ := themes.Get("dark", true, false)
	ctx := &pane.Context{Data: viewdata.New(story.Tell(a)), Theme: th}
	for w := 10; w <= 120; w += 7 {
		m := New(ctx)
		m.SetSize(w, 200)
		m.build()
		for i, l := range m.lines {
			if got := ansi.StringWidth(l); got > w {
				t.Fatalf("width %d: line %d is %d wide: %q", w, i, got, ansi.Strip(l))
			}
		}
	}
}

func TestClipLongLines(t *testing.T) {
	long := strings.Repeat("é", 40)
	for _, c := range []struct{ in, want string }{
		{"short\nlines", "short\nlines"},
		{"ab\n" + long + "\ncd", "ab\n" + strings.Repeat("é", 5) + " … (70 more bytes of this line not shown)\ncd"},
		{long, strings.Repeat("é", 5) + " … (70 more bytes of this line not shown)"},
		{long + "\n", strings.Repeat("é", 5) + " … (70 more bytes of this line not shown)\n"},
	} {
		if got := clipLongLines(c.in, 11); got != c.want {
			t.Errorf("clipLongLines(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
