package shell

import (
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

var (
	awkRangeRe = lazyre.New(`^\s*NR\s*(>=|>)\s*(\d+)\s*&&\s*NR\s*(<=|<)\s*(\d+)\s*(\{.*\})?\s*$`)
	awkRevRe   = lazyre.New(`^\s*NR\s*(<=|<)\s*(\d+)\s*&&\s*NR\s*(>=|>)\s*(\d+)\s*(\{.*\})?\s*$`)
	awkEqRe    = lazyre.New(`^\s*NR\s*==\s*(\d+)\s*(?:,\s*NR\s*==\s*(\d+)\s*)?(\{.*\})?\s*$`)
	awkPrintRe = lazyre.New(`^\{\s*print\s*(\$0)?\s*;?\s*\}$`)
)

// awkLines reads "NR>=a && NR<=b", "NR==a" and "NR==a,NR==b" programs that
// print whole lines.
func awkLines(prog string) (int, int, bool) {
	lo, hi := 0, 0
	var action string
	if m := awkRangeRe().FindStringSubmatch(prog); m != nil {
		lo, hi = bound(m[1], m[2]), bound(m[3], m[4])
		action = m[5]
	} else if m := awkRevRe().FindStringSubmatch(prog); m != nil {
		hi, lo = bound(m[1], m[2]), bound(m[3], m[4])
		action = m[5]
	} else if m := awkEqRe().FindStringSubmatch(prog); m != nil {
		lo, _ = atoi(m[1])
		hi = lo
		if m[2] != "" {
			hi, _ = atoi(m[2])
		}
		action = m[3]
	} else {
		return 0, 0, false
	}
	if action != "" && !awkPrintRe().MatchString(action) {
		return 0, 0, false
	}
	if lo < 1 {
		lo = 1
	}
	return lo, hi, hi >= lo
}

// bound is the line a comparison "NR op n" stops at: n itself for >= and
// <=, the line past it for > and before it for <.
func bound(op, n string) int {
	v, _ := atoi(n)
	switch op {
	case ">":
		return v + 1
	case "<":
		return v - 1
	}
	return v
}

func (a *analyzer) awk(c *call) *stream {
	in := c.in
	p := parseOpts(c.args, optSpec{withArg: "Fvf", longArg: []string{"--field-separator", "--assign", "--file"}})
	a.markRead(p.operands[min(1, len(p.operands)):], in)
	ops := p.operands
	if p.has("f", "--file") || len(ops) == 0 {
		return &stream{}
	}
	prog := ops[0].val
	ops = ops[1:]
	lo, hi, ok := awkLines(prog)
	src := a.fileViews(ops, in)
	if len(ops) == 0 && in != nil {
		src = in.views
	}
	if !ok {
		for _, v := range src {
			a.addHit(model.SearchHit{File: v.file})
		}
		return &stream{}
	}
	out := &stream{}
	if len(src) > 0 {
		if nv, ok := selectLines(src[0], lo, hi); ok {
			out.views = append(out.views, nv)
		}
	}
	return out
}
