package shell

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// head and tail: the first or last lines of each file or of the stream.

// countArg reads a head/tail count: "N", "+N" (from line N) or "-N".
func countArg(v string) (n int, from, neg, ok bool) {
	switch {
	case strings.HasPrefix(v, "+"):
		n, ok = atoi(v[1:])
		return n, true, false, ok
	case strings.HasPrefix(v, "-"):
		n, ok = atoi(v[1:])
		return n, false, true, ok
	}
	n, ok = atoi(v)
	// GNU size suffixes (K, M, ...) are byte-oriented here; ignore them.
	return n, false, false, ok
}

var headTailSpec = optSpec{withArg: "ncs", longArg: []string{"--lines", "--bytes", "--sleep-interval", "--pid", "--max-unchanged-stats"}}

// numericShorthand rewrites "-20" and "+20" into "-n 20" / "-n +20".
func numericShorthand(args []token) []token {
	out := make([]token, 0, len(args)+1)
	for i, w := range args {
		v := w.val
		if i > 0 && contains([]string{"-n", "-c", "-s", "--lines", "--bytes"}, args[i-1].val) {
			out = append(out, w) // the value of the option before
			continue
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') && v[1] >= '0' && v[1] <= '9' {
			if _, ok := atoi(strings.TrimRight(v[1:], "lc")); ok {
				num := strings.TrimRight(v[1:], "lc")
				if v[0] == '+' {
					num = "+" + num
				}
				if strings.HasSuffix(v, "c") {
					out = append(out, token{val: "-c"}, token{val: num})
				} else {
					out = append(out, token{val: "-n"}, token{val: num})
				}
				continue
			}
		}
		out = append(out, w)
	}
	return out
}

// headTailCount reads the options head and tail share: the line count n
// (10 by default or when unreadable), given as +N (from) or -N (neg), and
// -c (bytes, whose lines are unknown).
func (a *analyzer) headTailCount(c *call) (p parsed, n int, from, neg, bytes bool) {
	p = parseOpts(numericShorthand(c.args), headTailSpec)
	a.markRead(p.operands, c.in)
	n, bytes = 10, p.has("c", "--bytes")
	if v, ok := p.last("n", "--lines"); ok {
		var good bool
		n, from, neg, good = countArg(v)
		if !good {
			n, from = 10, false
		}
	}
	return p, n, from, neg, bytes
}

func (a *analyzer) head(c *call) *stream {
	p, n, _, neg, bytes := a.headTailCount(c)
	apply := func(v view) (view, bool) {
		switch {
		case bytes:
			return view{}, false
		case neg:
			return v, true // all but the last n lines: over-approximated
		case v.kind == model.ReadWhole:
			return view{file: v.file, kind: model.ReadHead, start: 1, end: n}, n > 0
		case v.kind == model.ReadHead:
			if n < v.end {
				v.end = n
			}
			return v, n > 0
		}
		return selectLines(v, 1, n)
	}
	return a.lineFilter(p, c.in, apply, true)
}

func (a *analyzer) tail(c *call) *stream {
	p, n, from, _, bytes := a.headTailCount(c)
	apply := func(v view) (view, bool) {
		switch {
		case bytes:
			return view{}, false
		case from:
			return selectLines(v, n, -1)
		}
		return tailLines(v, n)
	}
	return a.lineFilter(p, c.in, apply, false)
}

// lineFilter applies a per-view line selection to file operands (each file
// separately, as head and tail do) or to the piped stream. For a piped
// stream of several files, only the first (head) or last (tail) view is kept
// as a read and the others become search hits: where one file ends in the
// concatenated stream is unknown.
func (a *analyzer) lineFilter(p parsed, in *stream, apply func(view) (view, bool), first bool) *stream {
	if len(p.operands) > 0 {
		out := &stream{}
		for _, v := range a.fileViews(p.operands, in) {
			if nv, ok := apply(v); ok {
				out.views = append(out.views, nv)
			} else {
				a.addHit(model.SearchHit{File: v.file})
			}
		}
		return out
	}
	if in == nil {
		return &stream{}
	}
	out := &stream{numbered: in.numbered, spec: in.spec}
	vs := in.views
	if len(vs) > 1 {
		keep := vs[0]
		if !first {
			keep = vs[len(vs)-1]
		}
		for _, v := range vs {
			if v != keep {
				a.addHit(model.SearchHit{File: v.file})
			}
		}
		vs = []view{keep}
		out.numbered = false
	}
	for _, v := range vs {
		if nv, ok := apply(v); ok {
			out.views = append(out.views, nv)
		}
	}
	return out
}
