package shell

import "strings"

// optSpec describes a command's options well enough to tell options from
// operands (GNU getopt style, with permutation).
type optSpec struct {
	// withArg lists short options that take an argument ("-n 5", "-n5").
	withArg string
	// optArg lists short options whose argument, if any, must be attached
	// ("-i.bak"); the rest of the cluster is the argument.
	optArg string
	// longArg lists long options that take an argument ("--lines 5").
	longArg []string
	// stopAtOperand stops option parsing at the first operand (POSIX order).
	stopAtOperand bool
}

// parsed holds the options seen and the operands left.
type parsed struct {
	flags    map[string][]string
	operands []token
}

func (p parsed) has(names ...string) bool {
	for _, n := range names {
		if _, ok := p.flags[n]; ok {
			return true
		}
	}
	return false
}

// last returns the last value given for any of names.
func (p parsed) last(names ...string) (string, bool) {
	val, found := "", false
	for _, n := range names {
		if v, ok := p.flags[n]; ok && len(v) > 0 {
			val, found = v[len(v)-1], true
		}
	}
	return val, found
}

// all returns every value given for any of names, in option order per name.
func (p parsed) all(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, p.flags[n]...)
	}
	return out
}

// parseOpts splits args into options and operands. Short options are keyed
// by their letter ("n"), long ones with their dashes ("--lines").
func parseOpts(args []token, spec optSpec) parsed {
	p := parsed{flags: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		w := args[i]
		v := w.val
		switch {
		case v == "--" && !w.quoted:
			p.operands = append(p.operands, args[i+1:]...)
			return p
		case strings.HasPrefix(v, "--") && len(v) > 2:
			name, val, hasVal := strings.Cut(v, "=")
			if !hasVal && contains(spec.longArg, name) && i+1 < len(args) {
				i++
				val = args[i].val
			}
			p.flags[name] = append(p.flags[name], val)
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for k := 1; k < len(v); k++ {
				c := v[k : k+1]
				switch {
				case strings.Contains(spec.optArg, c):
					p.flags[c] = append(p.flags[c], v[k+1:])
					k = len(v)
				case strings.Contains(spec.withArg, c):
					val := v[k+1:]
					if val == "" && i+1 < len(args) {
						i++
						val = args[i].val
					}
					p.flags[c] = append(p.flags[c], val)
					k = len(v)
				default:
					p.flags[c] = append(p.flags[c], "")
				}
			}
		default:
			p.operands = append(p.operands, w)
			if spec.stopAtOperand {
				p.operands = append(p.operands, args[i+1:]...)
				return p
			}
		}
	}
	return p
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// atoi parses a non-negative decimal integer (ASCII digits only); ok is false
// on anything else or on overflow past a billion lines.
func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}
