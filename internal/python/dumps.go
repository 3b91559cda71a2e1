package python

// JSON is written here exactly as Python's json.dumps writes it with its
// defaults (ensure_ascii, ", " and ": " separators, float repr), so that
// trajscope's output is byte-identical to the reference evaluator's.

import (
	"math"
	"strconv"
	"unicode/utf8"
)

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string with ensure_ascii escaping: every
// code point outside ' '..'~' that has no short escape, DEL included,
// becomes \uXXXX (surrogate pairs above the BMP).
// Invalid UTF-8 is written as U+FFFD, which is what decoding it gave.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			if c == 0x7f {
				// ensure_ascii escapes everything outside ' '..'~', DEL too.
				dst = appendU(dst, 0x7f)
				continue
			}
			dst = appendASCII(dst, c)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r > 0xffff {
			r -= 0x10000
			dst = appendU(dst, 0xd800+(r>>10))
			dst = appendU(dst, 0xdc00+(r&0x3ff))
			continue
		}
		dst = appendU(dst, r)
	}
	return append(dst, '"')
}

// AppendJSONStringUnicode appends s as json.dumps(s, ensure_ascii=False) writes
// it: only '"', '\\' and control characters below 0x20 are escaped;
// everything else, DEL and U+2028 included, is written raw. Invalid UTF-8
// becomes U+FFFD so the output stays valid JSON.
func AppendJSONStringUnicode(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size // valid UTF-8 stays raw
				continue
			}
			dst = append(append(dst, s[start:i]...), "\ufffd"...)
			i++
			start = i
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = appendASCII(append(dst, s[start:i]...), c)
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// shortEscapes are the two-character escapes json.dumps writes.
var shortEscapes = [...]string{'"': `\"`, '\\': `\\`, '\n': `\n`, '\r': `\r`, '\t': `\t`, '\b': `\b`, '\f': `\f`}

// appendASCII appends one ASCII byte, escaped as json.dumps escapes it.
func appendASCII(dst []byte, c byte) []byte {
	if int(c) < len(shortEscapes) && shortEscapes[c] != "" {
		return append(dst, shortEscapes[c]...)
	}
	if c < 0x20 {
		return appendU(dst, rune(c))
	}
	return append(dst, c)
}

func appendU(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u',
		hexDigits[(r>>12)&0xf], hexDigits[(r>>8)&0xf], hexDigits[(r>>4)&0xf], hexDigits[r&0xf])
}

// AppendJSONFloat appends f as Python's float repr: the shortest digits that
// round-trip, fixed notation when the decimal exponent is in [-4, 16), a
// trailing ".0" on integral values, and a signed two-digit-minimum exponent
// otherwise ("1e-05", "1e+16", "0.38749999999999996").
func AppendJSONFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	var buf [32]byte
	// 'e' with shortest precision gives the digits and the exponent.
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	neg := e[0] == '-'
	if neg {
		e = e[1:]
		dst = append(dst, '-')
	}
	var digits []byte
	k := 0
	for ; k < len(e) && e[k] != 'e'; k++ {
		if e[k] != '.' {
			digits = append(digits, e[k])
		}
	}
	exp, _ := strconv.Atoi(string(e[k+1:]))
	// Python's decpt: the value is 0.DIGITS x 10^decpt.
	decpt := exp + 1
	if digits[0] == '0' { // zero
		return append(dst, "0.0"...)
	}
	if decpt > -4 && decpt <= 16 {
		switch {
		case decpt <= 0:
			dst = append(dst, '0', '.')
			for i := 0; i < -decpt; i++ {
				dst = append(dst, '0')
			}
			dst = append(dst, digits...)
		case decpt >= len(digits):
			dst = append(dst, digits...)
			for i := len(digits); i < decpt; i++ {
				dst = append(dst, '0')
			}
			dst = append(dst, '.', '0')
		default:
			dst = append(dst, digits[:decpt]...)
			dst = append(dst, '.')
			dst = append(dst, digits[decpt:]...)
		}
		return dst
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

// JSONFloat returns AppendJSONFloat's text.
func JSONFloat(f float64) string { return string(AppendJSONFloat(nil, f)) }
