// Package highlight is trajscope's one door to chroma: it finds a file's
// lexer and cuts source into lines of classed spans, which the explorer, the
// exported page and the still colour with their theme's syntax style
// (themes.Syntax). No other package imports chroma.
package highlight

import (
	"strings"

	"github.com/alecthomas/chroma/v2"

	"github.com/trajscope/trajscope/themes"
)

// Span is a run of text of one syntax class, within one line.
type Span struct {
	Text  string
	Class themes.SyntaxClass
}

// Lexer is the lexer of one kind of file; a nil *Lexer highlights nothing.
type Lexer struct{ l chroma.Lexer }

// For returns the lexer of the file at path whose content starts with head
// (its first 64 KiB are enough), or nil when chroma knows none: the lexer
// whose file name patterns match, as chroma's lexers.Match picks it, else
// the one chroma's content analysers rate highest.
func For(path, head string) *Lexer {
	l := lexerFor(path, head)
	if l == nil {
		return nil
	}
	return &Lexer{l: chroma.Coalesce(l)}
}

// Name is the lexer's name ("" for nil).
func (x *Lexer) Name() string {
	if x == nil {
		return ""
	}
	return x.l.Config().Name
}

// Lines tokenises text, whole lines each ending in "\n", into one slice of
// spans per line (no span holds a newline; an empty line has none). ok is
// false when there is no lexer, when it fails, or when its tokens do not
// spell text exactly: the caller shows the text plain rather than put marks
// on the wrong lines.
func (x *Lexer) Lines(text string) (lines [][]Span, ok bool) {
	if x == nil {
		return nil, false
	}
	it, err := x.l.Tokenise(nil, text)
	if err != nil {
		return nil, false
	}
	var line []Span
	at := 0 // how much of text the tokens have spelt
	for tok := it(); tok != chroma.EOF; tok = it() {
		v := tok.Value
		if !strings.HasPrefix(text[at:], v) {
			return nil, false
		}
		at += len(v)
		cls := classOf(tok.Type)
		for {
			i := strings.IndexByte(v, '\n')
			if i < 0 {
				break
			}
			if i > 0 {
				line = append(line, Span{v[:i], cls})
			}
			lines = append(lines, line)
			line = nil
			v = v[i+1:]
		}
		if v != "" {
			line = append(line, Span{v, cls})
		}
	}
	if at != len(text) || line != nil {
		return nil, false
	}
	return lines, true
}

// classOf sorts chroma's token types into the themes' classes, the most
// specific type first.
func classOf(tt chroma.TokenType) themes.SyntaxClass {
	switch tt {
	case chroma.KeywordType, chroma.NameClass, chroma.NameNamespace, chroma.NameException, chroma.NameVariableClass:
		return themes.Type
	case chroma.KeywordConstant, chroma.NameConstant, chroma.NameBuiltinPseudo, chroma.LiteralStringBoolean,
		chroma.NameVariableMagic, chroma.NameEntity:
		return themes.Constant
	case chroma.NameFunction, chroma.NameFunctionMagic, chroma.NameDecorator, chroma.NameLabel:
		return themes.Function
	case chroma.NameBuiltin:
		return themes.Builtin
	case chroma.NameTag:
		return themes.Tag
	case chroma.NameAttribute, chroma.NameProperty:
		return themes.Attribute
	case chroma.LiteralStringEscape, chroma.LiteralStringInterpol, chroma.LiteralStringRegex, chroma.LiteralStringSymbol:
		return themes.Escape
	case chroma.OperatorWord:
		return themes.Keyword
	case chroma.GenericInserted:
		return themes.Inserted
	case chroma.GenericDeleted:
		return themes.Deleted
	case chroma.GenericHeading, chroma.GenericSubheading:
		return themes.Heading
	case chroma.GenericEmph:
		return themes.Emph
	case chroma.GenericStrong:
		return themes.Strong
	case chroma.Error, chroma.GenericError:
		return themes.Invalid
	}
	switch {
	case tt.InSubCategory(chroma.CommentPreproc):
		return themes.Preproc
	case tt.InCategory(chroma.Comment):
		return themes.Comment
	case tt.InSubCategory(chroma.LiteralNumber):
		return themes.Number
	case tt.InSubCategory(chroma.LiteralString), tt == chroma.LiteralDate, tt == chroma.Literal:
		return themes.String
	case tt.InCategory(chroma.Keyword):
		return themes.Keyword
	case tt.InCategory(chroma.Operator):
		return themes.Operator
	}
	return themes.Plain
}
