package themes

import "image/color"

// SyntaxClass is a kind of source token a theme colours. The highlighter
// sorts each lexer's tokens into these classes; the themes colour the
// classes, so the explorer, the page and the still draw code alike.
type SyntaxClass uint8

// The syntax classes. Plain is text the terminal's (or page's) own colour
// draws.
const (
	Plain SyntaxClass = iota
	Keyword
	Type
	Constant
	Function
	Builtin
	Tag
	Attribute
	String
	Escape
	Number
	Operator
	Comment
	Preproc
	Inserted
	Deleted
	Heading
	Emph
	Strong
	Invalid
	NumSyntaxClasses
)

// syntaxNames are short names for the classes, used as CSS class names.
var syntaxNames = [NumSyntaxClasses]string{
	"p", "k", "t", "c", "f", "b", "tg", "a", "s", "e", "n", "o", "cm", "pp", "gi", "gd", "gh", "ge", "gs", "er",
}

// Name is the class's short name ("k" for Keyword), as the page's CSS names
// it.
func (c SyntaxClass) Name() string {
	if c >= NumSyntaxClasses {
		return syntaxNames[Plain]
	}
	return syntaxNames[c]
}

// SyntaxStyle is how one class is drawn: a colour (nil for the text
// colour) and attributes.
type SyntaxStyle struct {
	Fg                      color.Color
	Bold, Italic, Underline bool
}

// Syntax is a theme's style for each class.
type Syntax [NumSyntaxClasses]SyntaxStyle

// syntaxPalette is the colour of each class of a palette's syntax; bold
// and italic are the same in every theme (see syntaxFrom).
type syntaxPalette struct {
	keyword, typ, constant, function, builtin, tag, attribute color.Color
	str, escape, number, operator, comment, preproc           color.Color
	inserted, deleted, heading, invalid                       color.Color
}

// The syntax palettes: hues close to what GitHub's and the Modus themes
// use for each kind of token, taken from the xterm cube so that the
// contrast the tests compute is what a terminal shows.
func darkSyntax() syntaxPalette {
	return syntaxPalette{
		keyword: x(210), typ: x(215), constant: x(117), function: x(183), builtin: x(215),
		tag: x(114), attribute: x(117), str: x(153), escape: x(117), number: x(117),
		operator: x(210), comment: x(247), preproc: x(210),
		inserted: x(114), deleted: x(210), heading: x(75), invalid: x(210),
	}
}

func lightSyntax() syntaxPalette {
	return syntaxPalette{
		keyword: x(124), typ: x(58), constant: x(25), function: x(91), builtin: x(58),
		tag: x(22), attribute: x(25), str: x(18), escape: x(25), number: x(25),
		operator: x(124), comment: x(240), preproc: x(124),
		inserted: x(22), deleted: x(124), heading: x(25), invalid: x(124),
	}
}

// contrastSyntax is for projectors: saturated colours at 7:1 on the pane.
func contrastSyntax(dark bool) syntaxPalette {
	if dark {
		return syntaxPalette{
			keyword: x(213), typ: x(222), constant: x(123), function: x(219), builtin: x(222),
			tag: x(120), attribute: x(123), str: x(159), escape: x(123), number: x(123),
			operator: x(213), comment: x(250), preproc: x(213),
			inserted: x(120), deleted: x(217), heading: x(123), invalid: x(217),
		}
	}
	return syntaxPalette{
		keyword: x(90), typ: x(52), constant: x(18), function: x(54), builtin: x(52),
		tag: x(22), attribute: x(18), str: x(17), escape: x(18), number: x(18),
		operator: x(90), comment: x(237), preproc: x(90),
		inserted: x(22), deleted: x(88), heading: x(18), invalid: x(88),
	}
}

// syntaxFrom builds a theme's syntax style from its palette.
func syntaxFrom(p syntaxPalette) *Syntax {
	var s Syntax
	s[Keyword] = SyntaxStyle{Fg: p.keyword}
	s[Type] = SyntaxStyle{Fg: p.typ}
	s[Constant] = SyntaxStyle{Fg: p.constant}
	s[Function] = SyntaxStyle{Fg: p.function}
	s[Builtin] = SyntaxStyle{Fg: p.builtin}
	s[Tag] = SyntaxStyle{Fg: p.tag}
	s[Attribute] = SyntaxStyle{Fg: p.attribute}
	s[String] = SyntaxStyle{Fg: p.str}
	s[Escape] = SyntaxStyle{Fg: p.escape}
	s[Number] = SyntaxStyle{Fg: p.number}
	s[Operator] = SyntaxStyle{Fg: p.operator}
	s[Comment] = SyntaxStyle{Fg: p.comment, Italic: true}
	s[Preproc] = SyntaxStyle{Fg: p.preproc}
	s[Inserted] = SyntaxStyle{Fg: p.inserted}
	s[Deleted] = SyntaxStyle{Fg: p.deleted}
	s[Heading] = SyntaxStyle{Fg: p.heading, Bold: true}
	s[Emph] = SyntaxStyle{Italic: true}
	s[Strong] = SyntaxStyle{Bold: true}
	s[Invalid] = SyntaxStyle{Fg: p.invalid, Underline: true}
	return &s
}
