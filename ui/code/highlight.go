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

// highlighter turns files into syntax-highlighted lines, once per file: the
// cache is what keeps stepping cheap, since a step only changes the gutter.
type highlighter struct {
	style  *chroma.Style
	sgr    map[chroma.TokenType]string
	cache  map[string][]string
	widths map[string][]int
}

func newHighlighter(style *chroma.Style) *highlighter {
	return &highlighter{style: style, sgr: map[chroma.TokenType]string{}, cache: map[string][]string{}, widths: map[string][]int{}}
}

// lines returns a file's highlighted lines (index 0 is line 1) and their
// display widths, measured once with the highlighting.
func (h *highlighter) lines(path string, content []byte) ([]string, []int) {
	if ls, ok := h.cache[path]; ok {
		return ls, h.widths[path]
	}
	ls := h.render(path, content)
	ws := make([]int, len(ls))
	for i, l := range ls {
		ws[i] = ansi.StringWidth(l)
	}
	h.cache[path], h.widths[path] = ls, ws
	return ls, ws
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

func (h *highlighter) render(path string, content []byte) []string {
	plain := plainLines(content)
	if h.style == nil || len(content) > 4<<20 {
		// No colours (NO_COLOR), or too big to be worth tokenising.
		return plain
	}
	lexer := lexers.Match(path)
	if lexer == nil {
		lexer = lexers.Analyse(string(content))
	}
	if lexer == nil {
		return plain
	}
	// Tokenise the cleaned text, so offsets match what is displayed.
	it, err := chroma.Coalesce(lexer).Tokenise(nil, strings.Join(plain, "\n")+"\n")
	if err != nil {
		return plain
	}
	out := make([]string, 0, len(plain))
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
	// A lexer that dropped or added a line would shift every mark: fall
	// back to plain text rather than show marks on the wrong lines.
	if len(out) != len(plain) {
		return plain
	}
	return out
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
