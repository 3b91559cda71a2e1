package code

import (
	"image/color"
	"strings"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/termsafe"
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
	style *chroma.Style
	sgr   map[chroma.TokenType]string
	files map[string]*hlFile
}

// hlFile is one file's lines: plain (safe) text for every line, then each
// chunk's highlighted text in place once it has been shown.
type hlFile struct {
	plain, lines []string
	widths       []int
	done         []bool // by chunk
	lexer        chroma.Lexer
}

func newHighlighter(style *chroma.Style) *highlighter {
	return &highlighter{style: style, sgr: map[chroma.TokenType]string{}, files: map[string]*hlFile{}}
}

// lines returns a file's display lines (index 0 is line 1) and their
// widths, with lines from..to (1-based, inclusive; clamped) highlighted;
// the others may still be plain. The slices are the highlighter's own and
// fill in as more of the file is shown.
func (h *highlighter) lines(path string, content []byte, from, to int) ([]string, []int) {
	f := h.files[path]
	if f == nil {
		f = h.open(path, content)
		h.files[path] = f
	}
	if f.lexer != nil {
		for c := max(from-1, 0) / chunkLines; c < len(f.done) && c*chunkLines < to; c++ {
			if !f.done[c] {
				h.chunk(f, c)
				f.done[c] = true
			}
		}
	}
	return f.lines, f.widths
}

// ahead highlights the next chunk of path not highlighted yet, and reports
// whether any chunk is left.
func (h *highlighter) ahead(path string) bool {
	f := h.files[path]
	if f == nil || f.lexer == nil {
		return false
	}
	for c, done := range f.done {
		if !done {
			h.chunk(f, c)
			f.done[c] = true
			return c+1 < len(f.done)
		}
	}
	return false
}

// open splits a file into plain lines and finds its lexer.
func (h *highlighter) open(path string, content []byte) *hlFile {
	f := &hlFile{plain: plainLines(content)}
	f.lines = append([]string(nil), f.plain...)
	f.widths = make([]int, len(f.lines))
	for i, l := range f.lines {
		f.widths[i] = ansi.StringWidth(l)
	}
	if h.style == nil || len(content) > 4<<20 {
		return f // no colours (NO_COLOR), or too big to be worth tokenising
	}
	f.lexer = lexers.Match(path)
	if f.lexer == nil {
		f.lexer = lexers.Analyse(string(content[:min(len(content), 64<<10)]))
	}
	if f.lexer != nil {
		f.lexer = chroma.Coalesce(f.lexer)
		f.done = make([]bool, (len(f.lines)+chunkLines-1)/chunkLines)
	}
	return f
}

// chunk highlights chunk c of f in place. A lexer that loses or adds a
// line leaves the chunk plain rather than show marks on the wrong lines.
func (h *highlighter) chunk(f *hlFile, c int) {
	start := c * chunkLines
	end := min(start+chunkLines, len(f.lines))
	ctx := max(start-contextLines, 0)
	// Tokenise the cleaned text, so offsets match what is displayed.
	it, err := f.lexer.Tokenise(nil, strings.Join(f.plain[ctx:end], "\n")+"\n")
	if err != nil {
		return
	}
	out := make([]string, 0, end-ctx)
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		sgr := h.seq(tok.Type)
		parts := strings.Split(tok.Value, "\n")
		for k, p := range parts {
			if k > 0 {
				out = append(out, b.String())
				b.Reset()
			}
			if p == "" {
				continue
			}
			if sgr != "" {
				b.WriteString(sgr)
				b.WriteString(p)
				b.WriteString(ansi.ResetStyle)
			} else {
				b.WriteString(p)
			}
		}
	}
	if b.Len() > 0 {
		out = append(out, b.String())
	}
	if len(out) != end-ctx {
		return
	}
	copy(f.lines[start:end], out[start-ctx:])
}

// plainLines splits content into safe display lines: tabs expanded and
// control characters made visible, one entry per editor line.
func plainLines(content []byte) []string {
	text := string(content)
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return []string{""}
	}
	raw := strings.Split(text, "\n")
	for i, l := range raw {
		l = strings.TrimSuffix(l, "\r") // CRLF files: the CR is not content
		raw[i] = termsafe.Line(expandTabs(l, tabWidth))
	}
	return raw
}

// seq is the SGR sequence of a token type under the chroma style; the
// background is left to the terminal.
func (h *highlighter) seq(tt chroma.TokenType) string {
	if s, ok := h.sgr[tt]; ok {
		return s
	}
	e := h.style.Get(tt)
	var st ansi.Style
	if e.Colour.IsSet() {
		st = st.ForegroundColor(color.RGBA{R: e.Colour.Red(), G: e.Colour.Green(), B: e.Colour.Blue(), A: 0xff})
	}
	if e.Bold == chroma.Yes {
		st = st.Bold()
	}
	if e.Italic == chroma.Yes {
		st = st.Italic(true)
	}
	if e.Underline == chroma.Yes {
		st = st.Underline(true)
	}
	s := ""
	if len(st) > 0 {
		s = st.String()
	}
	h.sgr[tt] = s
	return s
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
