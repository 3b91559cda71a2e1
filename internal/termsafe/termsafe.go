// Package termsafe makes untrusted text (agent commands, tool output, file
// names from trajectories) inert before it reaches a terminal: every control
// character is replaced by a visible escape, so no input can move the cursor,
// change the title, write the clipboard (OSC 52) or reorder text.
package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Text neutralises s but keeps newlines and tabs, for multi-line panes.
func Text(s string) string { return clean(s, true) }

// Line neutralises s for a single line: newlines and tabs are escaped too.
func Line(s string) string { return clean(s, false) }

func clean(s string, multiline bool) string {
	if isPlain(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			fmt.Fprintf(&b, `\x%02x`, s[i])
			i++
			continue
		}
		i += size
		switch {
		case multiline && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case Unsafe(r):
			switch {
			case r < 0x100:
				fmt.Fprintf(&b, `\x%02x`, r)
			case r < 0x10000:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				fmt.Fprintf(&b, `\U%08x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Unsafe reports runes that must not reach a reader raw: controls a terminal
// may act on (C0, C1, DEL), format characters (bidirectional overrides that
// reorder what is displayed, zero-width characters, the BOM, Unicode tag
// characters that hide text from the reader but not from a model) and the
// line and paragraph separators that break a line where nothing shows it.
func Unsafe(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r < 0x100:
		return r == 0xad // soft hyphen: invisible
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// isPlain is the fast path: printable ASCII (plus newline and tab when
// multiline) needs no work.
func isPlain(s string, multiline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			continue
		}
		if multiline && (c == '\n' || c == '\t') {
			continue
		}
		return false
	}
	return true
}

// JSON rewrites, inside encoded JSON, the runes a terminal may act on that
// encoding/json leaves raw (DEL, C1 controls, bidirectional overrides,
// zero-width and other invisible format characters) as
// \uXXXX escapes: the JSON means the same, and printing it cannot drive the
// terminal. Such runes only occur inside strings; C0 controls are already
// escaped there, and the newlines between values are layout, so they stay.
// b itself is returned when nothing needs escaping.
func JSON(b []byte) []byte {
	var out []byte
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x20 && Unsafe(r) {
			if out == nil {
				out = append(make([]byte, 0, len(b)+16), b[:i]...)
			}
			if r > 0xffff { // JSON spells these as a UTF-16 surrogate pair
				hi, lo := utf16.EncodeRune(r)
				out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
		} else if out != nil {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}

// Cut shortens s to at most n bytes, marked with "…", before the word the
// limit falls in: no fragment of a token is kept, so half a key (which
// matches no key pattern) cannot slip past --redact, and no rune is split.
// A first word longer than n is cut inside it.
func Cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	if !isSpace(s[cut]) {
		if i := strings.LastIndexAny(s[:cut], " \t\r\n"); i > 0 {
			cut = i
		}
	}
	return strings.TrimRight(s[:cut], " \t\r\n") + "…"
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
