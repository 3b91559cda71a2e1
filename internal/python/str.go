package python

import (
	"strings"
	"unicode"
)

// IsSpace reports whether Python's str.isspace() holds for r.
func IsSpace(r rune) bool {
	// Python also treats the ASCII information separators as whitespace.
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

// StripSpace is Python's s.strip() with no arguments.
func StripSpace(s string) string { return strings.TrimFunc(s, IsSpace) }

// Strip is Python's s.strip(chars): chars is a set of characters.
func Strip(s, chars string) string { return strings.Trim(s, chars) }

// LStrip is Python's s.lstrip(chars): every leading character in the set goes,
// so LStrip(".github/x", "./") is "github/x".
func LStrip(s, chars string) string { return strings.TrimLeft(s, chars) }

// isLineBreak lists the code points Python's str.splitlines() breaks on
// ("\r\n" is handled as one break by SplitLines).
func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// SplitLines is Python's s.splitlines(): no trailing empty element, "\r\n" is
// one break, and the Unicode line separators count.
func SplitLines(s string) []string {
	var lines []string
	start := 0
	for i, r := range s {
		if i < start || !isLineBreak(r) {
			continue
		}
		lines = append(lines, s[start:i])
		end := i + len(string(r))
		if r == '\r' && end < len(s) && s[end] == '\n' {
			end++
		}
		start = end
	}
	if start < len(s) {
		lines = append(lines, s[start:])
	}
	return lines
}
