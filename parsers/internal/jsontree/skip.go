package jsontree

// ParseKeeping is Parse for a document of which a reader needs only some
// object members: a member whose key is not in keep is checked as Parse
// checks it (the document is an error exactly when Parse says so) but not
// built, and is left out of its object. A ContextBench gold_context is
// mostly the code of each span ("content"), which its reader never looks
// at; building those strings was most of loading a parquet gold.
func ParseKeeping(data []byte, keep ...string) (*Value, error) {
	return parse(&parser{s: data, line: 1, keep: keep})
}

// kept reports whether the member key is built.
func (p *parser) kept(key string) bool {
	if p.keep == nil {
		return true
	}
	for _, k := range p.keep {
		if k == key {
			return true
		}
	}
	return false
}

// skipPlain marks the bytes a string may hold that skipStr passes over:
// all but the quote, the backslash and the controls (a byte that is not
// UTF-8 is replaced when a string is built, never an error).
var skipPlain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// skipValue checks the value at p.i as value does, building nothing.
func (p *parser) skipValue(depth int) error {
	if depth > maxDepth {
		return p.errf("nesting deeper than %d", maxDepth)
	}
	if p.i >= len(p.s) {
		return p.errf("expected a value, found end of input")
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.skipContainer(depth, '}', "an object")
	case c == '[':
		return p.skipContainer(depth, ']', "a list")
	case c == '"':
		return p.skipStr()
	case p.lit("null"), p.lit("true"), p.lit("false"), p.lit("NaN"), p.lit("Infinity"), p.lit("-Infinity"):
		return nil
	case c == '-' || (c >= '0' && c <= '9'):
		_, err := p.number()
		return err
	}
	return p.errf("expected a value, found %s", p.found())
}

// skipContainer checks an object (close '}') or a list (close ']') as
// object and array do.
func (p *parser) skipContainer(depth int, close byte, what string) error {
	p.i++
	p.ws()
	if p.i < len(p.s) && p.s[p.i] == close {
		p.i++
		return nil
	}
	for {
		p.ws()
		if close == '}' {
			if p.i >= len(p.s) || p.s[p.i] != '"' {
				return p.errf("expected a string key in an object, found %s", p.found())
			}
			if err := p.skipStr(); err != nil {
				return err
			}
			p.ws()
			if p.i >= len(p.s) || p.s[p.i] != ':' {
				return p.errf("expected ':' after an object key, found %s", p.found())
			}
			p.i++
			p.ws()
		}
		if err := p.skipValue(depth + 1); err != nil {
			return err
		}
		if done, err := p.next(close, what); done || err != nil {
			return err
		}
	}
}

// skipStr checks a string as str does: unterminated, a raw control
// character, or a bad escape is an error.
func (p *parser) skipStr() error {
	p.i++ // opening quote
	for {
		j := p.i
		for j < len(p.s) && skipPlain[p.s[j]] {
			j++
		}
		p.i = j
		if p.i >= len(p.s) {
			return p.errf("unterminated string")
		}
		switch c := p.s[p.i]; {
		case c == '"':
			p.i++
			return nil
		case c < 0x20:
			return p.errf("control character %#02x inside a string", c)
		}
		// A backslash.
		if p.i+1 >= len(p.s) {
			return p.errf("unterminated escape")
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		case 'u':
			if _, err := p.hex4(); err != nil {
				return err
			}
		default:
			p.i -= 2
			return p.errf("invalid escape \\%c", e)
		}
	}
}
