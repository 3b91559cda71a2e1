package jsontree

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// stringEnd is the offset of the quote that closes the string running at
// i (escapes skipped), or len(s) when none does: an upper bound on the
// decoded length, as no escape decodes to more bytes than it takes.
func stringEnd(s []byte, i int) int {
	for i < len(s) {
		switch s[i] {
		case '"':
			return i
		case '\\':
			i++
		}
		i++
	}
	return len(s)
}

func (p *parser) str() (string, error) {
	p.i++ // opening quote
	// out collects the decoded bytes, in a buffer sized once for the whole
	// string (no escape decodes to more bytes than it takes).
	var out []byte
	started := false
	for {
		// Copy the run of plain bytes at once: observations are long, and a
		// byte at a time was most of the parse.
		j := p.i
		for j < len(p.s) && p.s[j] != '"' && p.s[j] != '\\' && p.s[j] >= 0x20 {
			j++
		}
		run := p.s[p.i:j]
		valid := utf8.Valid(run)
		if j < len(p.s) && p.s[j] == '"' && !started && valid {
			p.i = j + 1
			return string(run), nil
		}
		if !started {
			started = true
			// U+FFFD takes three bytes where the byte it replaces took one.
			out = make([]byte, 0, stringEnd(p.s, j)-p.i)
		}
		if valid {
			out = append(out, run...)
		} else {
			out = appendReplacing(out, run)
		}
		p.i = j
		if p.i >= len(p.s) {
			return "", p.errf("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return string(out), nil
		case c < 0x20:
			return "", p.errf("control character %#02x inside a string", c)
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.errf("unterminated escape")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && r < 0xdc00 && strings.HasPrefix(string(p.s[p.i:min(len(p.s), p.i+2)]), `\u`) {
					save := p.i
					p.i += 2
					r2, err := p.hex4()
					if err == nil && r2 >= 0xdc00 && r2 <= 0xdfff {
						r = utf16.DecodeRune(r, r2)
					} else {
						p.i = save
					}
				}
				if utf16.IsSurrogate(r) {
					r = utf8.RuneError // a lone surrogate has no UTF-8 form
				}
				out = utf8.AppendRune(out, r)
			default:
				p.i -= 2
				return "", p.errf("invalid escape \\%c", e)
			}
		default:
			out = append(out, c)
			p.i++
		}
	}
}

// appendReplacing appends b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json decodes strings.
func appendReplacing(out, b []byte) []byte {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.errf("truncated \\u escape")
	}
	n, err := strconv.ParseUint(string(p.s[p.i:p.i+4]), 16, 32)
	if err != nil {
		return 0, p.errf("invalid \\u escape")
	}
	p.i += 4
	return rune(n), nil
}
