package code

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/themes"
)

func TestHighlighter(t *testing.T) {
	h := newHighlighter(syntaxOf("dark"))
	src := []byte("def f(x):\r\n\treturn x  # \x1b[2J\n\nclass A:\n    pass\n")
	lines, _ := h.lines("a.py", src, 1, 5)
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
	// Cached: the same content (here a copy of it) gives the same slice
	// back without tokenising again; other content (a followed run's
	// file that grew) is highlighted anew.
	again, _ := h.lines("a.py", append([]byte(nil), src...), 1, 5)
	if &again[0] != &lines[0] {
		t.Error("the second call re-highlighted the file")
	}
	grown, _ := h.lines("a.py", append(append([]byte(nil), src...), "x = 1\n"...), 1, 6)
	if len(grown) != 6 || ansi.Strip(grown[5]) != "x = 1" || &grown[0] == &lines[0] {
		t.Errorf("a grown file shows %q", grown)
	}
	// No style (NO_COLOR) or no lexer: plain, safe lines.
	plain, _ := newHighlighter(nil).lines("a.py", src, 1, 5)
	if plain[1] != "    return x  # \\e[2J" {
		t.Errorf("plain line = %q", plain[1])
	}
	if got, _ := newHighlighter(syntaxOf("light")).lines("notes.unknownext", []byte("x\ny"), 1, 2); len(got) != 2 || ansi.Strip(got[1]) != "y" {
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

// Only the chunks a screen shows are highlighted; a chunk highlighted later
// is coloured as it would be with the whole file tokenised, when nothing
// spans more than the context lines before it.
func TestHighlightWindow(t *testing.T) {
	var src strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&src, "def f%d(x):  # line %d\n    return x\n", i, i)
	}
	h := newHighlighter(syntaxOf("dark"))
	lines, _ := h.lines("big.py", []byte(src.String()), 900, 960)
	if len(lines) != 2000 {
		t.Fatalf("%d lines", len(lines))
	}
	coloured := func(l int) bool { return strings.Contains(lines[l-1], "\x1b[") }
	for _, c := range []struct {
		line int
		want bool
	}{{1, false}, {896, false}, {897, true}, {960, true}, {961, false}, {2000, false}} {
		if coloured(c.line) != c.want {
			t.Errorf("line %d highlighted: %v, want %v", c.line, !c.want, c.want)
		}
	}
	whole := newHighlighter(syntaxOf("dark"))
	for from := 1; from <= 2000; from += chunkLines {
		whole.lines("big.py", []byte(src.String()), from, from)
	}
	all, _ := whole.lines("big.py", nil, 1, 2000)
	lines, _ = h.lines("big.py", nil, 1, 2000)
	for i := range all {
		if all[i] != lines[i] {
			t.Fatalf("line %d differs by highlighting order: %q vs %q", i+1, all[i], lines[i])
		}
	}
	// A docstring opened in the context lines is coloured as a string.
	doc := "x = 1\n\"\"\"\n" + strings.Repeat("not code\n", chunkLines) + "\"\"\"\n"
	h = newHighlighter(syntaxOf("dark"))
	got, _ := h.lines("doc.py", []byte(doc), chunkLines+1, chunkLines+2)
	first, _ := newHighlighter(syntaxOf("dark")).lines("doc.py", []byte(doc), 1, chunkLines+2)
	if got[chunkLines] != first[chunkLines] {
		t.Errorf("a chunk inside a docstring: %q, whole-file %q", got[chunkLines], first[chunkLines])
	}
}

// plainLines is every line of content as the pane shows it without
// colours: tabs expanded and control characters made visible.
func plainLines(content []byte) []string {
	f := &hlFile{raw: splitLines(content)}
	n := len(f.raw)
	f.plain, f.lines, f.widths = make([]string, n), make([]string, n), make([]int, n)
	f.ready = make([]bool, (n+chunkLines-1)/chunkLines)
	for c := range f.ready {
		f.prepare(c)
	}
	return f.plain
}

// syntaxOf is a theme's syntax style.
func syntaxOf(name string) *themes.Syntax {
	th, _ := themes.Get(name, name == "dark", false)
	return th.Syntax
}

// A followed run's rebuilt file changes where a reading shows more of it:
// the chunks whose lines and context lines did not change are kept as
// highlighted, the others made again, and the file then shows what a
// highlighter that never saw the old content shows.
func TestHighlightKeepsUnchangedChunks(t *testing.T) {
	var lines []string
	for i := 1; i <= 1000; i++ {
		lines = append(lines, fmt.Sprintf("def f%d(x):  # line %d", i, i), "    return x")
	}
	old := []byte(strings.Join(lines, "\n") + "\n")
	lines[1000] = `"""` // in chunk 15; the docstring runs on through chunk 16's context
	now := []byte(strings.Join(lines, "\n") + "\n")
	h := newHighlighter(syntaxOf("dark"))
	for from := 1; from <= 2000; from += chunkLines {
		h.lines("big.py", old, from, from)
	}
	h.lines("big.py", now, 1, 1)
	f := h.files["big.py"]
	for c, done := range f.done {
		if want := c != 15 && c != 16; done != want {
			t.Errorf("chunk %d kept highlighted: %v, want %v", c, done, want)
		}
	}
	fresh := newHighlighter(syntaxOf("dark"))
	for from := 1; from <= 2000; from += chunkLines {
		h.lines("big.py", now, from, from)
		fresh.lines("big.py", now, from, from)
	}
	got, _ := h.lines("big.py", now, 1, 2000)
	want, _ := fresh.lines("big.py", now, 1, 2000)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("line %d: %q, highlighted from nothing %q", i+1, got[i], want[i])
		}
	}
}
