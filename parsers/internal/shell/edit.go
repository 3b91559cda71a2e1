package shell

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// The edit family: commands that change files.

// tee writes its input to the files it names and passes it on.
func (a *analyzer) tee(c *call) *stream {
	p := parseOpts(c.args, optSpec{})
	appending := p.has("a", "--append")
	for _, w := range p.operands {
		if scratch(w.val, w.expand) {
			continue // a log kept aside: no file of the task changed
		}
		f := a.resolve(w)
		a.addEdit(f)
		a.addChange(f, appending, c.in)
	}
	return c.in
}

// patch handles patch and apply_patch: the files changed are those the
// here-document's diff names.
func (a *analyzer) patch(c *call) *stream {
	a.applyPatch(c.heredoc)
	return nil
}

// applyPatch records an edit of every file a patch body names.
func (a *analyzer) applyPatch(heredoc *string) {
	a.edit = true
	if heredoc != nil {
		for _, f := range PatchFiles(*heredoc) {
			a.addEdit(joinPath(a.cwd, f))
		}
	}
}

// remove handles rm, touch, mv, unlink, truncate and shred: every operand is
// changed.
func (a *analyzer) remove(c *call) *stream {
	p := parseOpts(c.args, optSpec{})
	if c.name == "truncate" {
		p = parseOpts(c.args, optSpec{withArg: "sro"})
	}
	a.edit = true
	for _, w := range p.operands {
		a.addEdit(a.resolve(w))
	}
	return nil
}

// copyTo handles cp, ln and install: the target (-t DIR or the last
// operand) is changed.
func (a *analyzer) copyTo(c *call) *stream {
	p := parseOpts(c.args, optSpec{withArg: "tSm"})
	a.edit = true
	if t, ok := p.last("t"); ok {
		a.addEdit(joinPath(a.cwd, t))
	} else if n := len(p.operands); n > 1 {
		a.addEdit(a.resolve(p.operands[n-1]))
	}
	return nil
}

// changeTree handles mkdir, rmdir, chmod and chown, which change the tree
// but no file content.
func (a *analyzer) changeTree(*call) *stream {
	a.edit = true
	return nil
}

// perl edits the files it names with -i; any other perl is a run.
func (a *analyzer) perl(c *call) *stream {
	if !perlInPlace(c.args) {
		return a.runTool(c)
	}
	p := parseOpts(c.args, optSpec{withArg: "eEIMmx", optArg: "i"})
	a.edit = true
	ops := p.operands
	if !p.has("e", "E") && len(ops) > 0 {
		ops = ops[1:] // the script
	}
	for _, w := range ops {
		f := a.resolve(w)
		a.addEdit(f)
		if f != "" {
			a.res.Changes = append(a.res.Changes, model.Change{File: f, Kind: model.ChangeReplace, Unrecorded: true})
		}
	}
	return nil
}

func perlInPlace(args []token) bool {
	for _, w := range args {
		v := w.val
		if strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "i") {
			return true
		}
		if !strings.HasPrefix(v, "-") {
			return false
		}
	}
	return false
}

// PatchFiles lists the files a unified diff or an apply_patch envelope
// changes.
func PatchFiles(body string) []string {
	var files []string
	seen := map[string]bool{}
	add := func(f string) {
		f = strings.TrimSpace(f)
		if i := strings.IndexByte(f, '\t'); i >= 0 {
			f = f[:i]
		}
		if f == "" || f == "/dev/null" || seen[f] {
			return
		}
		seen[f] = true
		files = append(files, f)
	}
	for _, line := range strings.Split(body, "\n") {
		switch {
		case strings.HasPrefix(line, "+++ "):
			add(strings.TrimPrefix(strings.TrimPrefix(line, "+++ "), "b/"))
		case strings.HasPrefix(line, "*** Update File: "), strings.HasPrefix(line, "*** Add File: "),
			strings.HasPrefix(line, "*** Delete File: "):
			_, f, _ := strings.Cut(line, ": ")
			add(f)
		}
	}
	return files
}
