package python

import (
	"strings"
	"unicode/utf8"
)

// DecodeUTF8 is bytes.decode("utf-8", errors="replace"): each maximal
// ill-formed subpart becomes one U+FFFD, as CPython's decoder does (Go's own
// conversion gives one per byte, so text with broken bytes would differ).
func DecodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[i : i+size])
			i += size
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += illFormedLen(b[i:])
	}
	return sb.String()
}

// illFormedLen is the length of the maximal subpart of an ill-formed UTF-8
// sequence at the start of b (Unicode §3.9, table 3-7): a valid lead byte
// followed by as many valid continuation bytes as fit before the sequence
// breaks, or 1.
func illFormedLen(b []byte) int {
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		c := b[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if c < lo || c > hi {
			break
		}
		n++
	}
	return n
}
