package shell

import "github.com/trajscope/trajscope/model"

// grepNames are the content searches; git grep comes through git.
var grepNames = []string{"grep", "egrep", "fgrep", "zgrep", "rg", "ag", "ack", "ack-grep"}

var grepCommands = setOf(grepNames...)

var (
	grepSpec = optSpec{withArg: "efmABCdD", longArg: []string{"--regexp", "--file", "--max-count",
		"--after-context", "--before-context", "--context", "--include", "--exclude", "--exclude-dir",
		"--exclude-from", "--label", "--devices", "--directories", "--binary-files", "--group-separator"}}
	rgSpec = optSpec{withArg: "efgtTABCmMdjEr", longArg: []string{"--regexp", "--file", "--glob", "--iglob",
		"--type", "--type-not", "--type-add", "--type-clear", "--max-count", "--max-depth", "--max-columns",
		"--replace", "--context", "--after-context", "--before-context", "--encoding", "--threads", "--sort",
		"--sortr", "--colors", "--path-separator", "--pre", "--pre-glob", "--max-filesize",
		"--field-match-separator", "--field-context-separator", "--context-separator", "--engine",
		"--ignore-file", "--dfa-size-limit", "--regex-size-limit"}}
	agSpec = optSpec{withArg: "ABCGgmp", longArg: []string{"--after", "--before", "--context", "--file-search-regex",
		"--max-count", "--path-to-ignore", "--ignore", "--ignore-dir", "--depth", "--workers", "--type", "--match"}}
)

// grepFlags are the options that decide the shape of a search's output.
type grepFlags struct {
	p                                                     parsed
	lineNumbers, withName, noName, recursive, list, count bool
}

// grepOptions reads the options of grep, rg, ag, ack or git grep (name
// "git-grep"), each with its own defaults.
func grepOptions(name string, args []token) grepFlags {
	var g grepFlags
	switch name {
	case "rg":
		g.p = parseOpts(args, rgSpec)
		p := g.p
		g.lineNumbers = p.has("n", "--line-number") && !p.has("N", "--no-line-number")
		g.list = p.has("l", "--files-with-matches", "--files-without-match", "--files")
		g.withName = p.has("H", "--with-filename")
		g.noName = p.has("I", "--no-filename")
		g.recursive = true
		g.count = p.has("c", "--count", "--count-matches")
	case "ag", "ack", "ack-grep":
		g.p = parseOpts(args, agSpec)
		p := g.p
		g.lineNumbers = !p.has("--nonumbers", "--no-numbers")
		g.list = p.has("l", "L", "g", "--files-with-matches", "--files-without-matches", "f")
		g.withName = p.has("H", "--filename")
		g.noName = p.has("h", "--nofilename", "--no-filename")
		g.recursive = true
		g.count = p.has("c", "--count")
	default: // grep family and git grep
		g.p = parseOpts(args, grepSpec)
		p := g.p
		g.lineNumbers = p.has("n", "--line-number")
		g.list = p.has("l", "L", "--files-with-matches", "--files-without-match")
		g.withName = p.has("H", "--with-filename")
		g.noName = p.has("h", "--no-filename")
		g.recursive = p.has("r", "R", "--recursive", "--dereference-recursive") || name == "git-grep"
		g.count = p.has("c", "--count")
		if name == "git-grep" {
			g.withName = !g.noName
		}
	}
	return g
}

// grepCmd runs a search named on the command line.
func (a *analyzer) grepCmd(c *call) *stream { return a.grep(c.name, c.args, c.in, false) }

// grep handles grep, rg, ag, ack and git grep (name "git-grep").
// fromXargs: the files come from xargs (or find -exec … +), several per run.
func (a *analyzer) grep(name string, args []token, in *stream, fromXargs bool) *stream {
	a.search = true
	g := grepOptions(name, args)
	p := g.p
	quiet := p.has("q", "--quiet", "--silent")
	ops := p.operands
	if !p.has("e", "--regexp", "f", "--file") && !(name == "rg" && p.has("--files")) && !(name != "rg" && p.has("g")) {
		if len(ops) > 0 {
			ops = ops[1:] // the pattern
		}
	}
	var files []string
	for _, w := range ops {
		if f := a.resolve(w); f != "" {
			files = append(files, f)
			if looksLikeFile(f) {
				a.addHit(model.SearchHit{File: f})
			}
		}
	}
	if quiet || g.count {
		return &stream{}
	}
	if len(ops) == 0 && in != nil && !fromXargs && name != "git-grep" {
		return a.grepStream(in, g.lineNumbers)
	}
	if g.list {
		return &stream{spec: &obsSpec{kind: specList, dir: a.cwd}}
	}
	single := len(ops) == 1 && (!g.recursive || looksLikeFile(files0(files)))
	showName := g.withName || (!g.noName && (fromXargs || len(ops) > 1 || (g.recursive && !single)))
	spec := &obsSpec{kind: specGrep, dir: a.cwd, lineNumbers: g.lineNumbers}
	if !showName && len(files) == 1 {
		spec.file = files[0]
	}
	return &stream{spec: spec}
}

// grepStream is grep in filter mode, reading the piped stream.
func (a *analyzer) grepStream(in *stream, lineNumbers bool) *stream {
	for _, v := range in.views {
		a.addHit(model.SearchHit{File: v.file})
	}
	switch {
	case in.spec != nil:
		return &stream{spec: in.spec}
	case len(in.views) == 1 && in.numbered:
		return &stream{spec: &obsSpec{kind: specNumbered, file: in.views[0].file}}
	case len(in.views) == 1 && lineNumbers:
		from, _, ok := in.views[0].window()
		if !ok {
			return &stream{}
		}
		return &stream{spec: &obsSpec{kind: specGrep, file: in.views[0].file, offset: from - 1, lineNumbers: true}}
	}
	return &stream{}
}

func files0(f []string) string {
	if len(f) == 0 {
		return ""
	}
	return f[0]
}
