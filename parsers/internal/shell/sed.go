package shell

import (
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

var sedSpec = optSpec{withArg: "efl", optArg: "i", longArg: []string{"--expression", "--file", "--line-length"}}

// sedRange is one "a,bp" print command (b = -1: to the end; last: "$").
type sedRange struct {
	a, b int
	last bool
}

var (
	sedCmdRe  = lazyre.New(`^\s*(\d+|\$)\s*(?:,\s*(\d+|\$|\+\d+))?\s*([pqQ])\s*(\d*)\s*$`)
	sedQuitRe = lazyre.New(`^\s*(\d+)\s*[qQ]\s*\d*\s*$`)
)

// parseSedScript reads a sed -n script made only of numeric print commands
// ("10,20p", "5p", "30,$p", "1,20p;20q"). ok is false for anything else.
func parseSedScript(script string) ([]sedRange, bool) {
	var rs []sedRange
	for _, part := range strings.FieldsFunc(script, func(r rune) bool { return r == ';' || r == '\n' }) {
		if strings.TrimSpace(part) == "" {
			continue
		}
		m := sedCmdRe().FindStringSubmatch(part)
		if m == nil {
			return nil, false
		}
		if m[3] != "p" {
			continue // q ends the script; the ranges so far stand
		}
		var r sedRange
		if m[1] == "$" {
			if m[2] != "" {
				return nil, false
			}
			r.last = true
			rs = append(rs, r)
			continue
		}
		r.a, _ = atoi(m[1])
		switch {
		case m[2] == "":
			r.b = r.a
		case m[2] == "$":
			r.b = -1
		case strings.HasPrefix(m[2], "+"):
			k, _ := atoi(m[2][1:])
			r.b = r.a + k
		default:
			r.b, _ = atoi(m[2])
			if r.b < r.a {
				r.b = r.a // sed prints only line a when b < a
			}
		}
		if r.a < 1 {
			return nil, false
		}
		rs = append(rs, r)
	}
	return rs, len(rs) > 0
}

// sed handles printing scripts ("10,20p" under -n, "Nq") and in-place edits
// (-i).
func (a *analyzer) sed(c *call) *stream {
	in := c.in
	p := parseOpts(c.args, sedSpec)
	if p.has("i", "--in-place") {
		a.edit = true
		ops := p.operands
		script := strings.Join(p.all("e", "--expression"), "\n")
		if !p.has("e", "--expression", "f", "--file") && len(ops) > 0 {
			script, ops = ops[0].val, ops[1:]
		}
		old, nw, literal := sedSubstitution(script)
		for _, w := range ops {
			f := a.resolve(w)
			a.addEdit(f)
			switch {
			case f == "":
			case literal && !p.has("f", "--file"):
				a.res.Changes = append(a.res.Changes, model.Change{File: f, Kind: model.ChangeReplace, Old: Clip(old), New: Clip(nw)})
			default:
				// Changed by a script: what it changed is not recorded.
				a.res.Changes = append(a.res.Changes, model.Change{File: f, Kind: model.ChangeReplace, Unrecorded: true})
			}
		}
		return &stream{}
	}
	ops := p.operands
	script := strings.Join(p.all("e", "--expression"), "\n")
	if !p.has("e", "--expression", "f", "--file") {
		if len(ops) == 0 {
			return &stream{}
		}
		script = ops[0].val
		ops = ops[1:]
	}
	apply, ok := sedLines(script, p)
	if !ok {
		// A regex or other script: lines depend on the content.
		a.search = true
		for _, v := range a.fileViews(ops, in) {
			a.addHit(model.SearchHit{File: v.file})
		}
		if len(ops) == 0 && in != nil {
			for _, v := range in.views {
				a.addHit(model.SearchHit{File: v.file})
			}
		}
		return &stream{}
	}
	a.markRead(ops, in)
	return a.sedOutput(p, ops, in, apply)
}

// sedLines returns what a sed script prints of a view. ok is false when the
// lines printed depend on the file's content (sed -n with a regex, or a
// script file).
func sedLines(script string, p parsed) (apply func(v view) []view, ok bool) {
	if !p.has("n", "--quiet", "--silent") {
		m := sedQuitRe().FindStringSubmatch(script)
		if m == nil {
			// Every line is printed (edited, or with some deleted).
			return func(v view) []view { return []view{v} }, true
		}
		n, _ := atoi(m[1])
		return func(v view) []view {
			if v.kind == model.ReadWhole {
				return []view{{file: v.file, kind: model.ReadHead, start: 1, end: n}}
			}
			if nv, ok := selectLines(v, 1, n); ok {
				return []view{nv}
			}
			return nil
		}, true
	}
	rs, ok := parseSedScript(script)
	if !ok || p.has("f", "--file") {
		return nil, false
	}
	return func(v view) []view {
		var out []view
		for _, r := range rs {
			if r.last {
				if nv, ok := tailLines(v, 1); ok {
					out = append(out, nv)
				}
				continue
			}
			if nv, ok := selectLines(v, r.a, r.b); ok {
				out = append(out, nv)
			}
		}
		return out
	}, true
}

// sedOutput applies a script's line selection to the file operands or the
// piped stream.
func (a *analyzer) sedOutput(p parsed, ops []token, in *stream, apply func(v view) []view) *stream {
	var src []view
	numbered := false
	if len(ops) > 0 {
		src = a.fileViews(ops, in)
		if len(src) > 1 && !p.has("s", "--separate") {
			// One concatenated stream: only the first file's lines are
			// known by number.
			for _, v := range src[1:] {
				a.addHit(model.SearchHit{File: v.file})
			}
			src = src[:1]
		}
	} else {
		if in == nil {
			return &stream{}
		}
		if in.spec != nil {
			return &stream{spec: in.spec}
		}
		src = in.views
		numbered = in.numbered
		if len(src) > 1 {
			for _, v := range src[1:] {
				a.addHit(model.SearchHit{File: v.file})
			}
			src = src[:1]
			numbered = false
		}
	}
	out := &stream{numbered: numbered}
	for _, v := range src {
		out.views = append(out.views, apply(v)...)
	}
	if len(out.views) > 1 {
		out.numbered = numbered && len(src) == 1
	}
	return out
}

// sedSubstitution reads an in-place sed script that is one substitution
// of literal text, "s/OLD/NEW/" (any delimiter, the g flag allowed): the
// text replaced and the text put in its place. ok is false for anything
// else: an address, several commands, a pattern with regular-expression
// operators (a "." stands for itself: the literal text matches it), a
// replacement naming the match (& or \1). Recorded as a change, it
// replaces the first occurrence; sed replaces on every line, so with g or
// on text that repeats the change shows the first place only.
func sedSubstitution(script string) (old, nw string, ok bool) {
	script = strings.TrimSpace(script)
	if len(script) < 4 || script[0] != 's' {
		return "", "", false
	}
	d := script[1]
	if d == '\\' || d == '\n' || d == ' ' || d >= '0' && d <= '9' || d >= 'A' && d <= 'Z' || d >= 'a' && d <= 'z' {
		return "", "", false
	}
	var parts []string
	var cur strings.Builder
	for i := 2; i < len(script); i++ {
		c := script[i]
		switch {
		case c == '\\' && i+1 < len(script):
			i++
			cur.WriteByte('\\')
			cur.WriteByte(script[i])
		case c == d:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	parts = append(parts, cur.String())
	if len(parts) != 3 || parts[2] != "" && parts[2] != "g" || parts[0] == "" {
		return "", "", false
	}
	old, ok1 := sedLiteral(parts[0], d, true)
	nw, ok2 := sedLiteral(parts[1], d, false)
	return old, nw, ok1 && ok2 && old != ""
}

// sedLiteral is a pattern's (or a replacement's) text when it is literal:
// escapes of the delimiter and of operators stand for themselves.
func sedLiteral(s string, d byte, pattern bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			if i+1 == len(s) {
				return "", false
			}
			i++
			e := s[i]
			switch {
			case e == d || strings.IndexByte(`\.*[]^$/&`, e) >= 0:
				b.WriteByte(e)
			case e == 'n' && !pattern:
				b.WriteByte('\n')
			case e == 't' && !pattern:
				b.WriteByte('\t')
			default:
				return "", false // \1, \(, \+, \w …: not literal text
			}
			continue
		}
		if pattern && (c == '*' || c == '[' || c == ']' || c == '^' && i == 0 || c == '$' && i == len(s)-1) {
			return "", false
		}
		if !pattern && c == '&' {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}
