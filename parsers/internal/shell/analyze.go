// Package shell reads a shell command the way an agent wrote it and says what
// it did to the repository: which file regions its output displayed (reads),
// which files it searched or listed, which files it changed, and a tool
// category. It is the timeline's observed-read extractor, shared by every
// trajectory format whose agent runs shell commands.
//
// Nothing here executes anything: commands are only lexed and pattern-matched.
//
// Paths are reported as the command named them, cleaned (path.Clean), and
// joined to the working directory when the command line changed it: a
// "cd DIR" (or pushd) earlier in the same command line makes later relative
// paths relative to DIR; a cd inside ( ... ) ends with the subshell. Paths
// that depend on the shell at run time ($VAR, globs, ~, $(...)) are skipped.
// Consumers map the paths into the repository (ContextBench suffix
// resolution), so a "/testbed/" prefix is kept here.
//
// Analyze works from the command alone. ConfirmFromObservation then uses the
// command's output to turn grep -n matches into single-line reads, to narrow
// numbered views (nl -ba, cat -n) to the lines really shown, and to drop reads
// of files the output says do not exist.
package shell

import (
	"path"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// Result is what one shell command did.
type Result struct {
	// Reads are the file regions the command's output displayed, in order.
	Reads []model.ObservedRead
	// Searches are files a search named or listed (no lines read).
	Searches []model.SearchHit
	// Edits are files the command changed, and Changes what it changed in
	// them where that is known (a literal sed substitution).
	Edits   []string
	Changes []model.Change
	// Category is the dominant kind: submit > edit > read > search > run > other.
	Category model.Category

	// numbered is parallel to Reads: the read's output lines carry the
	// file's own line numbers, so the observation can confirm them.
	numbered []bool
	// specs say how to read the command's output for search hits.
	specs []obsSpec
	// tools are the names of the commands run, whose error lines the
	// output may hold; printing counts the pipelines that may print.
	tools    []string
	printing int
}

// specKind says what kind of lines a command's output holds.
type specKind int

const (
	// specGrep: grep-style lines "path:N:text", "N:text" or "path:text".
	specGrep specKind = iota
	// specList: one path per line (find, grep -l, rg --files).
	specList
	// specNumbered: numbered lines ("   12\ttext") of one file, shown as
	// a filtered subset (grep over nl -ba output).
	specNumbered
)

// obsSpec tells ConfirmFromObservation how to read a command's output.
type obsSpec struct {
	kind specKind
	// dir resolves relative paths found in the output.
	dir string
	// file is the file bare "N:text" lines (or numbered lines) belong to.
	file string
	// offset is added to bare line numbers (grep -n over a sed range).
	offset int
	// lineNumbers: the grep printed line numbers (-n).
	lineNumbers bool
}

// maxDepth bounds recursion into "bash -c '...'" strings.
const maxDepth = 4

// Analyze reports what the shell command cmd did, from the command alone.
func Analyze(cmd string) Result {
	a := &analyzer{}
	a.run(cmd, 0)
	return a.result()
}

type analyzer struct {
	res       Result
	cwd       string
	cwdStack  []string
	submit    bool
	edit      bool
	read      bool
	search    bool
	runCmd    bool
	seenEdits map[string]bool
	seenHits  map[model.SearchHit]bool
}

func (a *analyzer) result() Result {
	r := a.res
	switch {
	case a.submit:
		r.Category = model.CategorySubmit
	case a.edit || len(r.Edits) > 0:
		r.Category = model.CategoryEdit
	case a.read || len(r.Reads) > 0:
		r.Category = model.CategoryRead
	case a.search || len(r.Searches) > 0:
		r.Category = model.CategorySearch
	case a.runCmd:
		r.Category = model.CategoryRun
	default:
		r.Category = model.CategoryOther
	}
	return r
}

// syntaxError reports a line bash refuses to parse: a file redirection
// with no target (`<TAG>` then a newline: "syntax error near unexpected
// token `newline'").
func syntaxError(toks []token) bool {
	for _, t := range toks {
		if t.kind != tRedir || t.target.val != "" || t.target.expand {
			continue
		}
		switch t.op {
		case ">", ">>", ">|", "&>", "&>>", "<", ">&", "<>":
			return true
		}
	}
	return false
}

// command is one simple command of a pipeline.
type command struct {
	words  []token
	redirs []token
}

// run analyses a whole command line.
func (a *analyzer) run(s string, depth int) {
	toks := lex(s)
	if syntaxError(toks) {
		// bash runs nothing of a line it cannot parse: a markup block
		// pasted as a command ("<EXPLORE_CONTEXT>\nFile: …") read and
		// wrote no file.
		return
	}
	var pipe []command
	var cur command
	flushCmd := func() {
		if len(cur.words) > 0 || len(cur.redirs) > 0 {
			pipe = append(pipe, cur)
		}
		cur = command{}
	}
	flushPipe := func() {
		flushCmd()
		if len(pipe) > 0 {
			a.pipeline(pipe, depth)
		}
		pipe = nil
	}
	for _, t := range toks {
		switch t.kind {
		case tWord:
			cur.words = append(cur.words, t)
		case tRedir:
			cur.redirs = append(cur.redirs, t)
		case tOp:
			switch t.val {
			case "|":
				flushCmd()
			case "(":
				flushPipe()
				a.cwdStack = append(a.cwdStack, a.cwd)
			case ")":
				flushPipe()
				if n := len(a.cwdStack); n > 0 {
					a.cwd = a.cwdStack[n-1]
					a.cwdStack = a.cwdStack[:n-1]
				}
			default: // && || ; ;; & newline
				flushPipe()
			}
		}
	}
	flushPipe()
}

// resolve turns a path operand into the path reported, or "" when it is not
// a usable path.
func (a *analyzer) resolve(w token) string {
	if w.expand {
		return ""
	}
	return joinPath(a.cwd, w.val)
}

func joinPath(dir, p string) string {
	if p == "" || p == "-" {
		return ""
	}
	if strings.HasPrefix(p, "/") || dir == "" {
		return path.Clean(p)
	}
	return path.Clean(dir + "/" + p)
}

func (a *analyzer) addEdit(p string) {
	a.edit = true
	if p == "" {
		return
	}
	if a.seenEdits == nil {
		a.seenEdits = map[string]bool{}
	}
	if !a.seenEdits[p] {
		a.seenEdits[p] = true
		a.res.Edits = append(a.res.Edits, p)
	}
}

func (a *analyzer) addHit(h model.SearchHit) {
	if h.File == "" {
		return
	}
	if a.seenHits == nil {
		a.seenHits = map[model.SearchHit]bool{}
	}
	if !a.seenHits[h] {
		a.seenHits[h] = true
		a.res.Searches = append(a.res.Searches, h)
	}
}

func (a *analyzer) addRead(v view, numbered bool) {
	r, ok := v.read()
	if !ok {
		return
	}
	a.res.Reads = append(a.res.Reads, r)
	a.res.numbered = append(a.res.numbered, numbered)
}

// pipeline analyses commands joined by pipes: each stage's output stream
// feeds the next, and whatever reaches the end is displayed.
func (a *analyzer) pipeline(cmds []command, depth int) {
	if depth == 0 && !silent(cmds) {
		a.res.printing++
	}
	var st *stream
	readBefore, searchBefore := a.read, a.search
	ranFirst := false
	for i, c := range cmds {
		runBefore := a.runCmd
		st = a.command(c, st, i > 0, depth)
		if i == 0 {
			ranFirst = a.runCmd && !runBefore && (st == nil || len(st.views) == 0 && len(st.hits) == 0)
		}
	}
	switch {
	case ranFirst && len(cmds) > 1 && (st == nil || len(st.views) == 0 && len(st.hits) == 0):
		// "pytest | grep FAIL", "make 2>&1 | tail": filters over what a
		// run printed; the pipeline is the run.
		a.read, a.search = readBefore, searchBefore
	case st != nil && st.spec != nil && len(st.views) == 0:
		// "cat f | grep x", "grep -rn x | head": the output is search
		// results, whatever read the input.
		a.read = readBefore
	}
	a.display(st)
}

// silentWords print nothing when they succeed.
var silentWords = map[string]bool{"cd": true, "pushd": true, "popd": true, "export": true, "set": true,
	"unset": true, "true": true, ":": true, "source": true, ".": true, "alias": true, "shopt": true}

// silent reports a pipeline of commands that print nothing: "cd repo" in
// "cd repo && cat f".
func silent(cmds []command) bool {
	for _, c := range cmds {
		if w := stripPrefix(c.words); len(w) > 0 && !silentWords[w[0].val] {
			return false
		}
	}
	return true
}

// display records what a stream that reached the terminal showed.
func (a *analyzer) display(st *stream) {
	if st == nil {
		return
	}
	for _, v := range st.views {
		a.addRead(v, st.numbered)
	}
	for _, f := range st.hits {
		a.addHit(model.SearchHit{File: f})
	}
	if st.spec != nil {
		a.res.specs = append(a.res.specs, *st.spec)
	}
}
