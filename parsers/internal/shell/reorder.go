package shell

// reorderNames display every input line, reordered or transformed.
var reorderNames = []string{"sort", "uniq", "tac", "rev", "column", "fold", "fmt", "expand", "unexpand", "tr",
	"cut", "paste"}

// reorder handles commands that display every line in another order or
// shape (sort, uniq, tac, cut, ...): files stay wholly read, line numbers
// no longer tell which lines.
func (a *analyzer) reorder(c *call) *stream {
	name, args, in := c.name, c.args, c.in
	spec := optSpec{withArg: "kt"}
	if name == "cut" {
		spec = optSpec{withArg: "bcdf", longArg: []string{"--bytes", "--characters", "--delimiter", "--fields"}}
	}
	p := parseOpts(args, spec)
	if name == "tr" {
		p.operands = nil // tr takes sets, never files
	}
	a.markRead(p.operands, in)
	if len(p.operands) > 0 {
		return &stream{views: a.fileViews(p.operands, in)}
	}
	if in == nil {
		return &stream{}
	}
	out := &stream{views: in.views, spec: in.spec}
	if name == "cut" && in.spec != nil && in.spec.kind == specGrep {
		// "grep -rn x . | cut -d: -f1" lists the matching files.
		d, _ := p.last("d", "--delimiter")
		f, _ := p.last("f", "--fields")
		if d == ":" && f == "1" {
			s := *in.spec
			s.kind = specList
			out.spec = &s
		} else {
			out.spec = nil
		}
	}
	return out
}
