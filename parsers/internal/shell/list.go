package shell

import (
	"path"

	"github.com/trajscope/trajscope/model"
)

// listNames are searches whose output lists paths.
var listNames = []string{"find", "fd", "fdfind", "locate", "ls", "tree", "dir"}

var findArgOps = setOf("-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type", "-maxdepth",
	"-mindepth", "-newer", "-size", "-mtime", "-mmin", "-user", "-group", "-perm", "-wholename", "-printf",
	"-fprint", "-links", "-inum", "-atime", "-ctime", "-amin", "-cmin", "-samefile", "-lname", "-ilname")

// list handles find, ls, fd, locate and tree.
func (a *analyzer) list(c *call) *stream {
	name, args := c.name, c.args
	a.search = true
	switch name {
	case "find":
		return a.find(args)
	case "tree":
		return &stream{}
	case "ls", "dir":
		p := parseOpts(args, optSpec{withArg: "wIT", longArg: []string{"--width", "--ignore", "--hide", "--format", "--sort", "--time-style", "--block-size"}})
		var dirs []string
		for _, w := range p.operands {
			f := a.resolve(w)
			if f == "" {
				continue
			}
			if looksLikeFile(f) {
				a.addHit(model.SearchHit{File: f})
			} else {
				dirs = append(dirs, f)
			}
		}
		if p.has("l", "R", "g", "o", "n") || len(p.operands) > 1 {
			return &stream{}
		}
		switch {
		case len(p.operands) == 0:
			return &stream{spec: &obsSpec{kind: specList, dir: a.cwd}}
		case len(dirs) == 1:
			return &stream{spec: &obsSpec{kind: specList, dir: dirs[0]}}
		}
		return &stream{}
	}
	// fd, fdfind, locate: one path per line.
	return &stream{spec: &obsSpec{kind: specList, dir: a.cwd}}
}

func (a *analyzer) find(args []token) *stream {
	var exec []token
	execPlus := false
	for i := 0; i < len(args); i++ {
		v := args[i].val
		switch {
		case v == "-delete":
			a.edit = true
		case v == "-exec" || v == "-execdir" || v == "-ok":
			j := i + 1
			for j < len(args) && args[j].val != ";" && args[j].val != "+" {
				j++
			}
			exec = args[i+1 : j]
			execPlus = j < len(args) && args[j].val == "+"
			i = j
		case findArgOps[v]:
			i++
		}
	}
	if exec != nil {
		inner := stripPrefix(exec)
		if len(inner) == 0 {
			return &stream{}
		}
		name := path.Base(inner[0].val)
		switch {
		case grepCommands[name]:
			ins := make([]token, 0, len(inner))
			for _, w := range inner[1:] {
				if w.val != "{}" {
					ins = append(ins, w)
				}
			}
			st := a.grep(name, ins, nil, execPlus)
			if !execPlus && st.spec != nil && st.spec.kind == specGrep && st.spec.file == "" {
				// One file per grep run: no file names unless -H.
				p := parseOpts(ins, grepSpec)
				if !p.has("H", "--with-filename") {
					st.spec = nil
				}
			}
			return st
		case name == "sed" || name == "perl" || name == "rm" || name == "chmod" || name == "mv":
			a.edit = true
		case name == "cat" || name == "head" || name == "tail":
			a.read = true
		}
		return &stream{}
	}
	return &stream{spec: &obsSpec{kind: specList, dir: a.cwd}}
}
