package jsontree

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// plain marks the bytes a string holds as they are: ASCII other than the
// quote, the backslash and the controls.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// stringEnd is the offset of the quote that closes the string running at
// i (escapes skipped), or len(s) when none does: an upper bound on the
// decoded length, as no escape decodes to more bytes than it takes. i is
// not inside an escape.
func stringEnd(s []byte, i int) int {
	for {
		k := bytes.IndexByte(s[i:], '"')
		if k < 0 {
			return len(s)
		}
		q := i + k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for q-1-n >= i && s[q-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

func (p *parser) str() (string, error) {
	p.i++ // opening quote
	// out collects the decoded bytes, in a buffer sized once for the whole
	// string (no escape decodes to more bytes than it takes); its String
	// is the buffer, not a copy.
	var out strings.Builder
	started := false
	for {
		// Scan the run of plain bytes and valid UTF-8 at once, and copy it
		// whole: observations are long, and a byte at a time was most of
		// the parse.
		j, valid := p.i, true
		for j < len(p.s) {
			c := p.s[j]
			if plain[c] {
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			_, size := utf8.DecodeRune(p.s[j:])
			valid = valid && size > 1 // an invalid byte decodes alone
			j += size
		}
		run := p.s[p.i:j]
		if j < len(p.s) && p.s[j] == '"' && !started && valid {
			p.i = j + 1
			return string(run), nil
		}
		if !started {
			started = true
			out.Grow(stringEnd(p.s, j) - p.i)
		}
		if valid {
			out.Write(run)
		} else {
			writeReplacing(&out, run)
		}
		p.i = j
		if p.i >= len(p.s) {
			return "", p.errf("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return out.String(), nil
		case c < 0x20:
			return "", p.errf("control character %#02x inside a string", c)
		default: // a backslash
			if p.i+1 >= len(p.s) {
				return "", p.errf("unterminated escape")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				out.WriteByte(e)
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) && r < 0xdc00 && bytes.HasPrefix(p.s[p.i:], []byte(`\u`)) {
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
				out.WriteRune(r)
			default:
				p.i -= 2
				return "", p.errf("invalid escape \\%c", e)
			}
		}
	}
}

// writeReplacing writes b with each byte that is not part of valid UTF-8
// replaced by U+FFFD, as encoding/json decodes strings.
func writeReplacing(out *strings.Builder, b []byte) {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out.WriteString("\uFFFD")
		} else {
			out.Write(b[:size])
		}
		b = b[size:]
	}
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
