package shell

import (
	"path"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// git handles the subcommands that search (grep, ls-files), read (blame,
// show REV:FILE) or change the work tree.
func (a *analyzer) git(c *call) *stream {
	args, heredoc := c.args, c.heredoc
	args = skipFlags(args, "Cc")
	if len(args) == 0 {
		return &stream{}
	}
	sub := args[0].val
	rest := args[1:]
	switch sub {
	case "grep":
		return a.grep("git-grep", rest, nil, false)
	case "ls-files", "ls-tree":
		a.search = true
		return &stream{spec: &obsSpec{kind: specList, dir: a.cwd}}
	case "apply", "am":
		a.applyPatch(heredoc)
	case "checkout", "restore", "rm", "mv":
		p := parseOpts(rest, optSpec{withArg: "bBs", longArg: []string{"--source", "--orphan"}})
		files := 0
		for _, w := range p.operands {
			if f := a.resolve(w); f != "" && looksLikeFile(f) {
				a.addEdit(f)
				files++
			}
		}
		if sub == "checkout" && files == 0 && !hasWord(rest, "--") && !hasWord(rest, ".") {
			// git checkout -b fix, git checkout main: a branch, not an
			// edit of the work tree the agent wrote.
			a.runCmd = true
			break
		}
		a.edit = true
	case "switch", "fetch", "push", "commit", "add", "init", "config":
		a.runCmd = true
	case "reset", "stash", "revert", "cherry-pick", "merge", "rebase", "pull", "clean":
		// Version control: the tree changes, but no file is authored;
		// "edit" is for changes the agent wrote.
		a.runCmd = true
	case "blame", "annotate":
		a.read = true
		p := parseOpts(rest, optSpec{withArg: "LSC", longArg: []string{"--contents", "--since"}})
		if len(p.operands) == 0 {
			return &stream{}
		}
		f := a.resolve(p.operands[len(p.operands)-1])
		if f == "" {
			return &stream{}
		}
		if l, ok := p.last("L"); ok {
			if lo, hi, ok := blameRange(l); ok {
				return &stream{views: []view{{file: f, kind: model.ReadRange, start: lo, end: hi}}}
			}
		}
		return &stream{views: []view{{file: f, kind: model.ReadWhole}}}
	case "show":
		for _, w := range rest {
			if _, f, ok := strings.Cut(w.val, ":"); ok && f != "" && !w.expand && !strings.HasPrefix(w.val, "-") {
				a.read = true
				return &stream{views: []view{{file: path.Clean(f), kind: model.ReadWhole}}}
			}
		}
	}
	return &stream{}
}

// hasWord reports an argument spelled w.
func hasWord(args []token, w string) bool {
	for _, a := range args {
		if a.val == w {
			return true
		}
	}
	return false
}

// blameRange reads git blame -L "a,b".
func blameRange(s string) (int, int, bool) {
	x, y, ok := strings.Cut(s, ",")
	if !ok {
		return 0, 0, false
	}
	lo, ok1 := atoi(x)
	hi, ok2 := atoi(y)
	if strings.HasPrefix(y, "+") {
		k, ok3 := atoi(y[1:])
		hi, ok2 = lo+k-1, ok3
	}
	return lo, hi, ok1 && ok2 && lo >= 1 && hi >= lo
}
