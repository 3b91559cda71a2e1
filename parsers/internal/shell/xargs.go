package shell

import "path"

var xargsSpec = optSpec{withArg: "IdEaLnPs", longArg: []string{"--delimiter", "--eof", "--arg-file",
	"--max-lines", "--max-args", "--max-procs", "--max-chars", "--replace"}, stopAtOperand: true}

// xargs runs its command with file names read from stdin.
func (a *analyzer) xargs(c *call) *stream {
	p := parseOpts(c.args, xargsSpec)
	inner := stripPrefix(p.operands)
	if len(inner) == 0 {
		return &stream{}
	}
	name := path.Base(inner[0].val)
	if grepCommands[name] {
		oneFile := p.has("I", "i", "--replace")
		if n, ok := p.last("n", "--max-args"); ok && n == "1" {
			oneFile = true
		}
		st := a.grep(name, inner[1:], nil, !oneFile)
		if oneFile && st.spec != nil && st.spec.kind == specGrep && st.spec.file == "" {
			st.spec = nil
		}
		return st
	}
	return a.command(command{words: inner}, nil, c.piped, c.depth)
}
