// Package pyre compiles the reference evaluator's Python regular expressions
// into Go ones with Python's Unicode semantics for str patterns: \s is
// str.isspace() (which includes \x1c-\x1f, \x85 and the Unicode spaces),
// \d is any Unicode decimal digit and \w any letter, number or underscore.
// RE2 alone reads these as ASCII classes, and its $ matches only at the very
// end. \b has no RE2 form that keeps the match the same, so patterns spell
// it out instead (see WordStart).
//
// For the patterns used here RE2's leftmost-first submatch choice is the one
// Python's backtracking engine makes (no lookaround, no backreferences).
package pyre

import (
	"math"
	"regexp"
	"strings"
	"unicode"
)

// Character class bodies (without brackets) of Python's \s, \d and \w.
const (
	Space    = `\t-\r\x1c-\x20\x{85}\p{Z}`
	Digit    = `\p{Nd}`
	WordChar = `\p{L}\p{N}_`
)

// WordStart stands for Python's \b in front of a word character: the start
// of the text or one character that is not a word character. It consumes
// that character, so it serves patterns read for their groups, where the
// match's own start does not matter.
const WordStart = `(?:^|[^` + WordChar + `])`

// Translate rewrites \s \S \d \D \w \W (inside and outside character
// classes), the any-character idiom [\s\S] and $ into RE2 syntax. It panics
// on \b and \B, which callers must spell out.
func Translate(py string) string {
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
			body := map[byte]string{'s': Space, 'd': Digit, 'w': WordChar}[e]
			if inClass {
				b.WriteString(body)
			} else {
				b.WriteString("[" + body + "]")
			}
		case 'S', 'D', 'W':
			body := map[byte]string{'S': Space, 'D': Digit, 'W': WordChar}[e]
			if inClass {
				panic("pyre: negated class escape inside a class: " + py)
			}
			b.WriteString("[^" + body + "]")
		case 'b', 'B':
			panic("pyre: spell out \\b explicitly: " + py)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// MustCompile compiles a Python pattern (see Translate).
func MustCompile(py string) *regexp.Regexp { return regexp.MustCompile(Translate(py)) }

// MaxInt is where Atoi saturates: Python ints are unbounded, and a line
// number this large already lies past any real file.
const MaxInt = math.MaxInt32

// Atoi is Python's int() on a string of Unicode decimal digits (what a \d+
// group captures), saturating at MaxInt. ok is false if s holds anything
// else or is empty.
func Atoi(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, r := range s {
		d, ok := digitValue(r)
		if !ok {
			return 0, false
		}
		if n > (MaxInt-d)/10 {
			n = MaxInt
			continue
		}
		n = n*10 + d
	}
	return n, true
}

// digitValue returns the value of a Unicode decimal digit. Unicode assigns
// decimal digits in contiguous runs that start at a zero, so the value is
// the distance from the run's start, modulo 10.
func digitValue(r rune) (int, bool) {
	if r >= '0' && r <= '9' {
		return int(r - '0'), true
	}
	if !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	start := r
	for start > 0 && unicode.Is(unicode.Nd, start-1) && r-start < 100 {
		start--
	}
	return int(r-start) % 10, true
}
