package code

import (
	"bytes"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/highlight"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/themes"
)

// tabWidth is how far tabs in source files expand.
const tabWidth = 4

// Highlighting works on chunks of chunkLines lines, each tokenised with
// the contextLines before it so that a string or comment opened just above
// the chunk is coloured as one: a screen needs one or two chunks, so the
// first frame and each step cost the same on a 100-line file and a
// 50,000-line one.
const (
	chunkLines   = 64
	contextLines = 48
)

// highlighter turns files into syntax-highlighted lines, chunk by chunk as
// they come into view, and keeps them: stepping only changes the gutter.
type highlighter struct {
	style *themes.Syntax
	sgr   [themes.NumSyntaxClasses]string
	files map[string]*hlFile
}

// hlFile is one file's lines: the raw lines, made safe to display chunk by
// chunk (plain), then highlighted chunk by chunk (lines) as they are
// shown. Lines of chunks not shown yet are "".
type hlFile struct {
	content           []byte // what it was made of
	raw, plain, lines []string
	widths            []int
	ready, done       []bool // by chunk: plain text made, highlighted
	lexer             *highlight.Lexer
}

// newHighlighter highlights with a theme's syntax style; nil shows code
// plain.
func newHighlighter(style *themes.Syntax) *highlighter {
	h := &highlighter{style: style, files: map[string]*hlFile{}}
	if style != nil {
		for c, st := range style {
			h.sgr[c] = sgr(st)
		}
	}
	return h
}

// lines returns a file's display lines (index 0 is line 1) and their
// widths, with lines from..to (1-based, inclusive; clamped) ready and
// highlighted; other lines may be plain or still empty. The slices are the
// highlighter's own and fill in as more of the file is shown.
func (h *highlighter) lines(path string, content []byte, from, to int) ([]string, []int) {
	f := h.files[path]
	if f == nil || !sameContent(f.content, content) {
		// A followed run's file changes when a reading shows more of it
		// (no repository): highlighted again where it changed.
		nf := h.open(path, content)
		if f != nil {
			nf.keep(f)
		}
		f = nf
		h.files[path] = f
	}
	for c := max(from-1, 0) / chunkLines; c < len(f.ready) && c*chunkLines < to; c++ {
		h.show(f, c)
	}
	return f.lines, f.widths
}

// show makes chunk c ready and, when the file has a lexer, highlighted.
func (h *highlighter) show(f *hlFile, c int) {
	f.prepare(c)
	if f.lexer != nil && !f.done[c] {
		if c > 0 {
			f.prepare(c - 1) // its last lines are the context
		}
		h.chunk(f, c)
		f.done[c] = true
	}
}

// prepare makes chunk c's plain text: tabs expanded and control characters
// made visible, with its widths.
func (f *hlFile) prepare(c int) {
	if f.ready[c] {
		return
	}
	f.ready[c] = true
	for i := c * chunkLines; i < min((c+1)*chunkLines, len(f.raw)); i++ {
		l := strings.TrimSuffix(f.raw[i], "\r") // CRLF files: the CR is not content
		f.plain[i] = termsafe.Line(expandTabs(l, tabWidth))
		f.lines[i] = f.plain[i]
		f.widths[i] = ansi.StringWidth(f.plain[i])
	}
}

// ahead highlights (or, without a lexer, prepares) the next chunk of path
// not done yet, and reports whether any is left.
func (h *highlighter) ahead(path string) bool {
	f := h.files[path]
	if f == nil {
		return false
	}
	for c := range f.ready {
		if !f.ready[c] || f.lexer != nil && !f.done[c] {
			h.show(f, c)
			return c+1 < len(f.ready)
		}
	}
	return false
}

// open splits a file into lines and finds its lexer.
func (h *highlighter) open(path string, content []byte) *hlFile {
	f := &hlFile{content: content, raw: splitLines(content)}
	n := len(f.raw)
	f.plain, f.lines, f.widths = make([]string, n), make([]string, n), make([]int, n)
	chunks := (n + chunkLines - 1) / chunkLines
	f.ready, f.done = make([]bool, chunks), make([]bool, chunks)
	if h.style == nil || len(content) > 4<<20 {
		return f // no colours (NO_COLOR), or too big to be worth tokenising
	}
	f.lexer = highlight.For(path, string(content[:min(len(content), 64<<10)]))
	return f
}

// keep takes from old, the file as it was, the chunks whose lines are the
// same: made plain, and highlighted when the context lines read with them
// are the same too, by a lexer of the same language (a chunk's colours are
// made of those lines alone).
func (f *hlFile) keep(old *hlFile) {
	sameLexer := f.lexer.Name() == old.lexer.Name()
	for c := range min(len(f.ready), len(old.ready)) {
		start, end := c*chunkLines, min((c+1)*chunkLines, len(f.raw))
		if !old.ready[c] || end > len(old.raw) || end < min((c+1)*chunkLines, len(old.raw)) || !slices.Equal(f.raw[start:end], old.raw[start:end]) {
			continue
		}
		f.ready[c] = true
		copy(f.plain[start:end], old.plain[start:end])
		copy(f.widths[start:end], old.widths[start:end])
		ctx := max(start-contextLines, 0)
		if f.done[c] = old.done[c] && sameLexer && f.lexer != nil && slices.Equal(f.raw[ctx:start], old.raw[ctx:start]); f.done[c] {
			copy(f.lines[start:end], old.lines[start:end])
		} else {
			copy(f.lines[start:end], f.plain[start:end])
		}
	}
}

// chunk highlights chunk c of f in place. A lexer that loses or adds a
// line leaves the chunk plain rather than show marks on the wrong lines.
func (h *highlighter) chunk(f *hlFile, c int) {
	start := c * chunkLines
	end := min(start+chunkLines, len(f.lines))
	ctx := max(start-contextLines, 0)
	// Tokenise the cleaned text, so offsets match what is displayed.
	spans, ok := f.lexer.Lines(strings.Join(f.plain[ctx:end], "\n") + "\n")
	if !ok || len(spans) != end-ctx {
		return
	}
	var b strings.Builder
	for i := start; i < end; i++ {
		b.Reset()
		for _, sp := range spans[i-ctx] {
			if seq := h.sgr[sp.Class]; seq != "" {
				b.WriteString(seq)
				b.WriteString(sp.Text)
				b.WriteString(ansi.ResetStyle)
			} else {
				b.WriteString(sp.Text)
			}
		}
		f.lines[i] = b.String()
	}
}

// sameContent reports whether a and b hold the same bytes: the same
// slice, most often (the files of a repository, or of a rebuilt tree that
// did not change, are read once).
func sameContent(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || bytes.Equal(a, b)
}

// splitLines splits content into editor lines, a final newline ending the
// last line rather than starting another.
func splitLines(content []byte) []string {
	text := strings.TrimSuffix(string(content), "\n")
	if text == "" {
		return []string{""}
	}
	return strings.Split(text, "\n")
}

// sgr is the SGR sequence of a syntax style; the background is left to
// the terminal.
func sgr(st themes.SyntaxStyle) string {
	var a ansi.Style
	if st.Fg != nil {
		a = a.ForegroundColor(st.Fg)
	}
	if st.Bold {
		a = a.Bold()
	}
	if st.Italic {
		a = a.Italic(true)
	}
	if st.Underline {
		a = a.Underline(true)
	}
	if len(a) == 0 {
		return ""
	}
	return a.String()
}

// expandTabs replaces tabs with spaces to the next multiple of width,
// because terminals and width counting disagree about tabs.
func expandTabs(s string, width int) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := width - col%width
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}
