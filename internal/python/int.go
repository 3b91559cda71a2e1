package python

import (
	"fmt"
	"math"
	"strings"
	"unicode"
)

// Int is Python's int(s) for a str: surrounding whitespace is ignored, an
// optional sign, then decimal digits (any Unicode Nd digit) with single
// underscores allowed between digits. Values beyond int64 are reported as
// errors rather than silently wrapped.
func Int(s string) (int, error) {
	t := StripSpace(s)
	neg := false
	if t != "" && (t[0] == '+' || t[0] == '-') {
		neg = t[0] == '-'
		t = t[1:]
	}
	if t == "" {
		return 0, fmt.Errorf("invalid literal for int(): %q", s)
	}
	var v int64
	prevUnderscore := true // a leading underscore is invalid
	for _, r := range t {
		if r == '_' {
			if prevUnderscore {
				return 0, fmt.Errorf("invalid literal for int(): %q", s)
			}
			prevUnderscore = true
			continue
		}
		d, ok := digitValue(r)
		if !ok {
			return 0, fmt.Errorf("invalid literal for int(): %q", s)
		}
		prevUnderscore = false
		if v > (1<<63-1-int64(d))/10 {
			return 0, fmt.Errorf("integer too large: %q", s)
		}
		v = v*10 + int64(d)
	}
	if prevUnderscore {
		return 0, fmt.Errorf("invalid literal for int(): %q", s)
	}
	if neg {
		v = -v
	}
	return int(v), nil
}

// Basename and Dirname are os.path.basename and os.path.dirname (POSIX),
// which differ from path.Base and path.Dir on "", "/" and trailing slashes.
func Basename(p string) string { return p[strings.LastIndex(p, "/")+1:] }

func Dirname(p string) string {
	head := p[:strings.LastIndex(p, "/")+1]
	if head != "" && strings.Trim(head, "/") != "" {
		head = strings.TrimRight(head, "/")
	}
	return head
}

// SplitUniversal splits text as Python's text-mode file iteration does:
// "\r\n", "\r" and "\n" all end a line.
func SplitUniversal(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}

// MaxDigitsInt is where DigitsInt saturates: Python ints are unbounded, and a line
// number this large already lies past any real file.
const MaxDigitsInt = math.MaxInt32

// DigitsInt is Python's int() on a string of Unicode decimal digits (what a \d+
// group captures), saturating at MaxDigitsInt. ok is false if s holds anything
// else or is empty.
func DigitsInt(s string) (int, bool) {
	if s == "" {
		return 0, false
	}
	n := 0
	for _, r := range s {
		d, ok := digitValue(r)
		if !ok {
			return 0, false
		}
		if n > (MaxDigitsInt-d)/10 {
			n = MaxDigitsInt
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
