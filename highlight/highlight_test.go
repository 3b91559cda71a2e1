package highlight

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"

	"github.com/trajscope/trajscope/themes"
)

// Lines gives one slice of spans per line, spelling the text exactly, with
// Python's keywords, strings, comments and numbers in their classes.
func TestLines(t *testing.T) {
	src := "def f(x):\n    return 'a\\n'  # done\n\nclass A:\n    n = 42\n"
	lines, ok := For("a.py", src).Lines(src)
	if !ok {
		t.Fatal("not highlighted")
	}
	want := strings.Split(strings.TrimSuffix(src, "\n"), "\n")
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	classes := map[string]themes.SyntaxClass{}
	for i, l := range lines {
		var b strings.Builder
		for _, sp := range l {
			if strings.Contains(sp.Text, "\n") || sp.Text == "" {
				t.Errorf("line %d: span %q", i+1, sp.Text)
			}
			b.WriteString(sp.Text)
			classes[strings.TrimSpace(sp.Text)] = sp.Class
		}
		if b.String() != want[i] {
			t.Errorf("line %d = %q, want %q", i+1, b.String(), want[i])
		}
	}
	for text, cls := range map[string]themes.SyntaxClass{
		"def": themes.Keyword, "return": themes.Keyword, "f": themes.Function, "A": themes.Type,
		"# done": themes.Comment, "42": themes.Number, `\n`: themes.Escape, "x": themes.Plain,
	} {
		if got, seen := classes[text]; !seen || got != cls {
			t.Errorf("%q: class %s (seen %v), want %s", text, got.Name(), seen, cls.Name())
		}
	}
}

func TestLinesRefuses(t *testing.T) {
	var none *Lexer
	if _, ok := none.Lines("x\n"); ok {
		t.Error("a nil lexer highlighted")
	}
	if For("notes.unknownext", "plain words") != nil {
		t.Error("a lexer for plain words")
	}
	// Text that does not end in a newline leaves a line open: refused, so
	// no caller puts its marks on the wrong line.
	if _, ok := For("a.py", "").Lines("x = 1"); ok {
		t.Error("an unterminated line was highlighted")
	}
	if lines, ok := For("a.py", "").Lines(""); !ok || len(lines) != 0 {
		t.Errorf("empty text: %v %v", lines, ok)
	}
}

// Every chroma token type has a class, and the classes tell apart what a
// reader must: comments, strings, numbers and keywords.
func TestClassOf(t *testing.T) {
	for tt, want := range map[chroma.TokenType]themes.SyntaxClass{
		chroma.CommentSingle: themes.Comment, chroma.CommentPreprocFile: themes.Preproc,
		chroma.LiteralStringDoc: themes.String, chroma.LiteralNumberHex: themes.Number,
		chroma.KeywordNamespace: themes.Keyword, chroma.KeywordType: themes.Type,
		chroma.NameBuiltin: themes.Builtin, chroma.NameVariable: themes.Plain, chroma.Text: themes.Plain,
		chroma.OperatorWord: themes.Keyword, chroma.Punctuation: themes.Plain, chroma.GenericInserted: themes.Inserted,
	} {
		if got := classOf(tt); got != want {
			t.Errorf("classOf(%s) = %s, want %s", tt, got.Name(), want.Name())
		}
	}
}
