// TranslateRegexp makes the reference evaluator's Python regular expressions
// into Go ones with Python's Unicode semantics for str patterns: \s is
// str.isspace() (which includes \x1c-\x1f, \x85 and the Unicode spaces),
// \d is any Unicode decimal digit and \w any letter, number or underscore.
// RE2 alone reads these as ASCII classes, and its $ matches only at the very
// end. \b has no RE2 form that keeps the match the same, so patterns spell
// it out instead (see ReWordStart).
//
// For the patterns used here RE2's leftmost-first submatch choice is the one
// Python's backtracking engine makes (no lookaround, no backreferences).

package python

import (
	"regexp"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
)

// Character class bodies (without brackets) of Python's \s, \d and \w.
const (
	ReSpace    = `\t-\r\x1c-\x20\x{85}\p{Z}`
	ReDigit    = `\p{Nd}`
	ReWordChar = `\p{L}\p{N}_`
)

// ReWordStart stands for Python's \b in front of a word character: the start
// of the text or one character that is not a word character. It consumes
// that character, so it serves patterns read for their groups, where the
// match's own start does not matter.
const ReWordStart = `(?:^|[^` + ReWordChar + `])`

// TranslateRegexp rewrites \s \S \d \D \w \W (inside and outside character
// classes), the any-character idiom [\s\S] and $ into RE2 syntax. It panics
// on \b and \B, which callers must spell out.
func TranslateRegexp(py string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(py); i++ {
		c := py[i]
		if c == '[' && !inClass {
			if strings.HasPrefix(py[i:], `[\s\S]`) {
				b.WriteString(`(?s:.)`)
				i += len(`[\s\S]`) - 1
				continue
			}
			inClass = true
			b.WriteByte(c)
			// A ']' right after '[' or '[^' is a literal.
			if strings.HasPrefix(py[i+1:], "^") {
				b.WriteByte('^')
				i++
			}
			if strings.HasPrefix(py[i+1:], "]") {
				b.WriteByte(']')
				i++
			}
			continue
		}
		if c == ']' && inClass {
			inClass = false
			b.WriteByte(c)
			continue
		}
		if c == '$' && !inClass {
			// Python's $ also matches before a newline that ends the
			// text; RE2's only at the very end. The newline is consumed,
			// which changes no group.
			b.WriteString(`(?:\n?\z)`)
			continue
		}
		if c != '\\' || i+1 >= len(py) {
			b.WriteByte(c)
			continue
		}
		e := py[i+1]
		i++
		switch e {
		case 's', 'd', 'w':
			body := map[byte]string{'s': ReSpace, 'd': ReDigit, 'w': ReWordChar}[e]
			if inClass {
				b.WriteString(body)
			} else {
				b.WriteString("[" + body + "]")
			}
		case 'S', 'D', 'W':
			body := map[byte]string{'S': ReSpace, 'D': ReDigit, 'W': ReWordChar}[e]
			if inClass {
				panic("python: negated class escape inside a class: " + py)
			}
			b.WriteString("[^" + body + "]")
		case 'b', 'B':
			panic("python: spell out \\b explicitly: " + py)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// MustCompileRegexp compiles a Python pattern (see TranslateRegexp).
func MustCompileRegexp(py string) *regexp.Regexp { return regexp.MustCompile(TranslateRegexp(py)) }

// LazyRegexp is MustCompileRegexp on first use (see lazyre).
func LazyRegexp(py string) func() *regexp.Regexp {
	return lazyre.Of(func() *regexp.Regexp { return MustCompileRegexp(py) })
}
