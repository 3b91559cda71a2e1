package code

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/x/ansi"
)

func TestHighlighter(t *testing.T) {
	h := newHighlighter(styles.Get("github-dark"))
	src := []byte("def f(x):\r\n\treturn x  # \x1b[2J\n\nclass A:\n    pass\n")
	lines, _ := h.lines("a.py", src)
	want := []string{"def f(x):", "    return x  # \\e[2J", "", "class A:", "    pass"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d: %q", len(lines), len(want), lines)
	}
	for i := range want {
		if got := ansi.Strip(lines[i]); got != want[i] {
			t.Errorf("line %d = %q, want %q", i+1, got, want[i])
		}
	}
	if !strings.Contains(lines[0], "\x1b[") {
		t.Error("a Python keyword was not highlighted")
	}
	// Cached: the same slice comes back without tokenising again.
	again, _ := h.lines("a.py", []byte("different content"))
	if &again[0] != &lines[0] {
		t.Error("the second call re-highlighted the file")
	}
	// No style (NO_COLOR) or no lexer: plain, safe lines.
	plain, _ := newHighlighter(nil).lines("a.py", src)
	if plain[1] != "    return x  # \\e[2J" {
		t.Errorf("plain line = %q", plain[1])
	}
	if got, _ := newHighlighter(styles.Get("github")).lines("notes.unknownext", []byte("x\ny")); len(got) != 2 || ansi.Strip(got[1]) != "y" {
		t.Errorf("unknown language = %q", got)
	}
	if got := plainLines(nil); len(got) != 1 || got[0] != "" {
		t.Errorf("empty file = %q", got)
	}
}

func TestExpandTabs(t *testing.T) {
	if got := expandTabs("a\tb\n\tc", 4); got != "a   b\n    c" {
		t.Errorf("expandTabs = %q", got)
	}
}
