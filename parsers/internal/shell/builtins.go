package shell

import "strings"

// cd handles cd and pushd: later relative paths of the command line are
// relative to the new directory.
func (a *analyzer) cd(c *call) *stream {
	args := c.args
	var dir *token
	for i := range args {
		if v := args[i].val; v == "--" || (strings.HasPrefix(v, "-") && v != "-") {
			continue
		}
		dir = &args[i]
		break
	}
	switch {
	case dir == nil || dir.expand || dir.val == "-" || dir.val == "":
		a.cwd = "" // home, previous or unknown: relative paths stay relative
	default:
		a.cwd = joinPath(a.cwd, dir.val)
		if a.cwd == "." {
			a.cwd = ""
		}
	}
	return nil
}

// popd returns to a directory the command line does not know.
func (a *analyzer) popd(*call) *stream {
	a.cwd = ""
	return nil
}

// submitCmd is SWE-agent's submit.
func (a *analyzer) submitCmd(*call) *stream {
	a.submit = true
	return nil
}

// echo handles echo and printf, which end a run when they print its
// completion marker.
func (a *analyzer) echo(c *call) *stream {
	if isSubmit(c.args) {
		a.submit = true
	}
	return &stream{text: echoed(c)}
}

// echoed is what echo or printf prints when its words say it all: echo
// of literal words (-n: no newline), printf of a literal format without
// conversions or escapes; nil otherwise.
func echoed(c *call) *string {
	args, newline := c.args, "\n"
	if c.name == "printf" {
		if len(args) != 1 || args[0].expand || strings.Contains(args[0].val, "%") {
			return nil
		}
		return printfText(args[0].val)
	}
	if len(args) > 0 && args[0].val == "-n" && !args[0].quoted {
		args, newline = args[1:], ""
	}
	words := make([]string, 0, len(args))
	for _, w := range args {
		if w.expand || strings.HasPrefix(w.val, "-") && !w.quoted || strings.Contains(w.val, "\\") {
			return nil // -e, -E, a variable, an escape echo may read
		}
		words = append(words, w.val)
	}
	s := strings.Join(words, " ") + newline
	return &s
}

// isSubmit reports an echo that ends a mini-swe-agent or SWE-bench run.
func isSubmit(args []token) bool {
	for _, w := range args {
		if strings.Contains(w.val, "COMPLETE_TASK") || strings.Contains(w.val, "MINI_SWE_AGENT_FINAL_OUTPUT") {
			return true
		}
	}
	return false
}

// printfText is a printf format without conversions as printf prints it:
// the escapes \n, \t and \\ read, any other escape not known here (nil).
func printfText(f string) *string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '\\' {
			b.WriteByte(f[i])
			continue
		}
		if i+1 == len(f) {
			return nil
		}
		i++
		switch f[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '\\':
			b.WriteByte('\\')
		default:
			return nil
		}
	}
	s := b.String()
	return &s
}
