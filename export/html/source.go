package html

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/highlight"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/themes"
)

// maxHighlight is the largest file worth tokenising; a larger one is shown
// plain, as in the explorer.
const maxHighlight = 4 << 20

// maxEmbed is the largest file a page carries: its markup is some twice the
// file, and a page of hundreds of megabytes no browser opens.
const maxEmbed = 16 << 20

// tabWidth is how far tabs expand, as in the explorer's source pane.
const tabWidth = 4

// sourceHTML renders a file's source as HTML, one span of class "line" per
// editor line holding its number (class "ln") and its code (class "cl"),
// each token in a span whose class names its syntax class ("s-k" for a
// keyword); the page's gutter marks are classes on the line spans. Lines
// are shown as the explorer shows them (control characters as visible
// escapes, tabs expanded), so numbers and marks line up with it; every
// piece of text is escaped.
func sourceHTML(path string, content []byte) string {
	plain := plainLines(content)
	text := strings.Join(plain, "\n") + "\n"
	var spans [][]highlight.Span
	if len(content) <= maxHighlight {
		// A lexer that dropped or added a line would put every mark on the
		// wrong line: Lines refuses such output and the file shows plain.
		if s, ok := highlight.For(path, text[:min(len(text), 64<<10)]).Lines(text); ok && len(s) == len(plain) {
			spans = s
		}
	}
	var b strings.Builder
	b.Grow(len(text) * 2)
	b.WriteString(`<pre class="src"><code>`)
	digits := len(strconv.Itoa(len(plain)))
	for i, l := range plain {
		fmt.Fprintf(&b, `<span class="line"><span class="ln">%*d</span><span class="cl">`, digits, i+1)
		if spans == nil {
			b.WriteString(html.EscapeString(l))
		} else {
			for _, sp := range spans[i] {
				if sp.Class == themes.Plain {
					b.WriteString(html.EscapeString(sp.Text))
					continue
				}
				b.WriteString(`<span class="s-`)
				b.WriteString(sp.Class.Name())
				b.WriteString(`">`)
				b.WriteString(html.EscapeString(sp.Text))
				b.WriteString(`</span>`)
			}
		}
		b.WriteString("\n</span></span>")
	}
	b.WriteString("</code></pre>")
	return b.String()
}

// syntaxCSS colours the syntax classes: one rule per class, naming a
// custom property each theme block of the page sets (syntaxVars).
func syntaxCSS() string {
	var b strings.Builder
	for c := themes.SyntaxClass(1); c < themes.NumSyntaxClasses; c++ {
		fmt.Fprintf(&b, "#files .src .s-%s { color: var(--s-%s, inherit);", c.Name(), c.Name())
		fmt.Fprintf(&b, " font-weight: var(--s-%s-w, inherit); font-style: var(--s-%s-i, inherit); text-decoration: var(--s-%s-u, inherit); }\n",
			c.Name(), c.Name(), c.Name())
	}
	return b.String()
}

// syntaxVars is one theme's syntax style as the custom properties
// syntaxCSS reads.
func syntaxVars(th *themes.Theme) string {
	if th.Syntax == nil {
		return ""
	}
	var b strings.Builder
	for c, st := range th.Syntax {
		if c == int(themes.Plain) {
			continue
		}
		n := themes.SyntaxClass(c).Name()
		if st.Fg != nil {
			r, g, bl := themes.RGB(st.Fg)
			fmt.Fprintf(&b, " --s-%s: #%02x%02x%02x;", n, r, g, bl)
		}
		if st.Bold {
			fmt.Fprintf(&b, " --s-%s-w: bold;", n)
		}
		if st.Italic {
			fmt.Fprintf(&b, " --s-%s-i: italic;", n)
		}
		if st.Underline {
			fmt.Fprintf(&b, " --s-%s-u: underline;", n)
		}
	}
	return b.String()
}

// plainLines splits content into display lines: one per editor line, the CR
// of a CRLF dropped, tabs expanded, control characters made visible.
func plainLines(content []byte) []string {
	text := strings.TrimSuffix(string(content), "\n")
	if text == "" {
		return []string{""}
	}
	raw := strings.Split(text, "\n")
	for i, l := range raw {
		raw[i] = termsafe.Line(expandTabs(strings.TrimSuffix(l, "\r")))
	}
	return raw
}

func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := tabWidth - col%tabWidth
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}
