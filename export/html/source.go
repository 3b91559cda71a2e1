package html

import (
	"bytes"
	"strings"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"

	"github.com/trajscope/trajscope/internal/syntax"
	"github.com/trajscope/trajscope/internal/syntax/lexers"
	"github.com/trajscope/trajscope/internal/termsafe"
)

// maxHighlight is the largest file worth tokenising; a larger one is shown
// plain, as in the explorer.
const maxHighlight = 4 << 20

// maxEmbed is the largest file a page carries: its markup is some twice the
// file, and a page of hundreds of megabytes no browser opens.
const maxEmbed = 16 << 20

// tabWidth is how far tabs expand, as in the explorer's source pane.
const tabWidth = 4

// formatter writes one span of class "line" per source line, each holding
// the line number (class "ln") and the code (class "cl"); the page's gutter
// marks are classes on the line spans. Chroma escapes every token.
func formatter() *chromahtml.Formatter {
	return chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithLineNumbers(true),
		chromahtml.WithModeClasses(true), chromahtml.WithCSSComments(false))
}

// highlight renders a file's source as chroma's HTML, one line span per
// editor line: control characters shown as visible escapes and tabs
// expanded, exactly as the explorer displays them, so the line numbers and
// marks line up with it.
func highlight(f *chromahtml.Formatter, style *chroma.Style, path string, content []byte) (string, error) {
	plain := plainLines(content)
	text := strings.Join(plain, "\n") + "\n"
	var lexer chroma.Lexer
	if len(content) <= maxHighlight {
		lexer = syntax.Lexer(path, text)
	}
	out, err := format(f, style, lexer, text)
	if err == nil && strings.Count(out, `<span class="line">`) == len(plain) {
		return out, nil
	}
	// A lexer that dropped or added a line would put every mark on the
	// wrong line: show the file plain instead.
	return format(f, style, nil, text)
}

func format(f *chromahtml.Formatter, style *chroma.Style, lexer chroma.Lexer, text string) (string, error) {
	if lexer == nil {
		lexer = lexers.Fallback
	}
	it, err := chroma.Coalesce(lexer).Tokenise(nil, text)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := f.Format(&b, style, it); err != nil {
		return "", err
	}
	return b.String(), nil
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
