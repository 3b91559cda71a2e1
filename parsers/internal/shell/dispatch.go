package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

// call is one simple command, its redirections applied, as a handler sees it.
type call struct {
	// name is the command's base name ("cat" for /bin/cat), which picks the
	// handler; word is the command word as written.
	name, word string
	args       []token
	// in is the stream piped or redirected into the command (nil when
	// nothing is).
	in *stream
	// piped: the command stands after a pipe.
	piped bool
	// depth counts the "bash -c" strings around the command.
	depth int
	// heredoc is the body of a here-document or here-string, if any.
	heredoc *string
}

// handler analyses one command of its family and returns what the command
// writes to stdout (nil when its output says nothing to the next stage).
type handler func(a *analyzer, c *call) *stream

// handlers maps a command name to its family's handler. It is filled in
// init because some handlers (xargs, bash -c) reach back into command.
var handlers map[string]handler

func init() {
	handlers = map[string]handler{}
	register := func(h handler, names ...string) {
		for _, n := range names {
			if _, dup := handlers[n]; dup {
				panic("shell: command " + n + " has two handlers")
			}
			handlers[n] = h
		}
	}
	// builtins.go
	register((*analyzer).cd, "cd", "pushd")
	register((*analyzer).popd, "popd")
	register((*analyzer).submitCmd, "submit")
	register((*analyzer).echo, "echo", "printf")
	// read.go, headtail.go, reorder.go
	register((*analyzer).cat, "cat")
	register((*analyzer).nl, "nl")
	register((*analyzer).head, "head")
	register((*analyzer).tail, "tail")
	register((*analyzer).pager, pagerNames...)
	register((*analyzer).inspect, inspectNames...)
	register((*analyzer).reorder, reorderNames...)
	// sed.go, awk.go
	register((*analyzer).sed, "sed")
	register((*analyzer).awk, "awk", "gawk", "mawk", "nawk")
	// grep.go, list.go, git.go, xargs.go
	register((*analyzer).grepCmd, grepNames...)
	register((*analyzer).list, listNames...)
	register((*analyzer).git, "git")
	register((*analyzer).xargs, "xargs")
	// edit.go
	register((*analyzer).tee, "tee")
	register((*analyzer).patch, "patch", "apply_patch", "applypatch")
	register((*analyzer).remove, "rm", "touch", "mv", "unlink", "truncate", "shred")
	register((*analyzer).copyTo, "cp", "ln", "install")
	register((*analyzer).changeTree, "mkdir", "rmdir", "chmod", "chown")
	register((*analyzer).perl, "perl")
	// run.go
	register((*analyzer).shell, "bash", "sh", "zsh", "dash")
	register((*analyzer).runTool, runNames...)
}

// Words that are not commands.
var (
	skipWords = setOf("if", "then", "else", "elif", "do", "while", "until", "!", "{", "time", "nohup",
		"command", "builtin", "exec", "noglob")
	endWords   = setOf("fi", "done", "esac", "}", "then", "do", "else")
	blockWords = setOf("for", "case", "select", "function")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// command analyses one simple command given the stream piped into it (nil
// when nothing is piped) and returns what it writes to stdout.
func (a *analyzer) command(c command, in *stream, piped bool, depth int) *stream {
	// Redirections first: they decide stdin and where stdout goes.
	in, heredoc, writes := a.redirect(c.redirs, in)
	stdoutAway := len(writes) > 0
	words := stripPrefix(c.words)
	if len(words) == 0 {
		a.wrote(writes, nil)
		return out(in, stdoutAway)
	}
	if blockWords[words[0].val] || (len(words) == 1 && endWords[words[0].val]) {
		return nil
	}
	cl := &call{name: path.Base(words[0].val), word: words[0].val, args: words[1:], in: in,
		piped: piped, depth: depth, heredoc: heredoc}
	if !slices.Contains(a.res.tools, cl.name) && len(a.res.tools) < 16 {
		a.res.tools = append(a.res.tools, cl.name)
	}
	h, ok := handlers[cl.name]
	if !ok {
		h = (*analyzer).fallback
	}
	st := h(a, cl)
	a.wrote(writes, st)
	return out(st, stdoutAway)
}

// write is a file a redirection sends a command's output to.
type write struct {
	file   string
	append bool
}

// wrote records what the writes put in their files: the command's output
// when the command holds it (st.text), else that the file was written
// with what the record does not say.
func (a *analyzer) wrote(writes []write, st *stream) {
	for _, w := range writes {
		if w.file != "" { // "": a scratch file
			a.addChange(w.file, w.append, st)
		}
	}
}

// addChange records a file written whole or appended to with the stream's
// content.
func (a *analyzer) addChange(file string, appending bool, st *stream) {
	c := model.Change{File: file, Kind: model.ChangeWhole, Unrecorded: true}
	if appending {
		c.Kind = model.ChangeAppend
	}
	if st != nil && st.text != nil {
		c.New, c.Unrecorded = Clip(*st.text), false
	}
	a.res.Changes = append(a.res.Changes, c)
}

// scratch reports a write target outside the task's files: the system's
// temporary directories, a device, or a path the shell expands at run
// time ("$TMPDIR/out.log"), which names no file of the repository the
// record could show.
func scratch(v string, expand bool) bool {
	return expand || strings.HasPrefix(v, "/dev/") || strings.HasPrefix(v, "/tmp/") || strings.HasPrefix(v, "/var/tmp/")
}

// redirect applies a command's redirections: files written count as edits,
// "<" and here-documents replace stdin. stdoutAway reports that stdout goes
// to a file rather than the terminal or the next stage.
func (a *analyzer) redirect(redirs []token, in *stream) (_ *stream, heredoc *string, writes []write) {
	for _, r := range redirs {
		t := r.target
		switch r.op {
		case ">", ">>", ">|", "&>", "&>>", ">&":
			if r.op == ">&" && (isFD(t.val) || t.val == "-") {
				continue // 2>&1, >&2: output still reaches the terminal
			}
			stdout := r.fd == -1 || r.fd == 1 || r.op == "&>" || r.op == "&>>" || r.op == ">&"
			if scratch(t.val, t.expand) {
				// Output sent away, but no file of the task changed.
				if stdout {
					writes = append(writes, write{})
				}
				continue
			}
			p := joinPath(a.cwd, t.val)
			a.addEdit(p)
			if stdout {
				writes = append(writes, write{file: p, append: strings.HasSuffix(r.op, ">>")})
			} else {
				// 2> f: what the command wrote there is not recorded.
				a.addChange(p, strings.HasSuffix(r.op, ">>"), nil)
			}
		case "<":
			if r.fd == -1 || r.fd == 0 {
				if p := a.resolve(token{val: t.val, expand: t.expand}); p != "" {
					in = &stream{views: []view{{file: p, kind: model.ReadWhole}}}
				} else {
					in = &stream{}
				}
			}
		case "<<", "<<-", "<<<":
			body := r.body
			if r.op == "<<<" {
				body = t.val + "\n" // a here-string ends with a newline
			}
			heredoc = &body
			in = &stream{}
			// The body is the text fed in unless the shell changes it: an
			// unquoted delimiter expands $ and ` in it, <<- strips tabs.
			switch {
			case r.op == "<<<" && !t.expand, r.op == "<<" && (r.quoted || !strings.ContainsAny(body, "$`\\")):
				in.text = heredoc
			}
		}
	}
	return in, heredoc, writes
}

func out(st *stream, away bool) *stream {
	if away {
		return nil
	}
	return st
}

func isFD(s string) bool {
	_, ok := atoi(s)
	return ok
}

var assignRe = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*\+?=`)

// stripPrefix removes variable assignments, reserved words and wrappers
// (sudo, env, timeout, nice, stdbuf) in front of the real command.
func stripPrefix(words []token) []token {
	for len(words) > 0 {
		w := words[0]
		v := w.val
		switch {
		case assignRe().MatchString(v):
			words = words[1:]
		case !w.quoted && skipWords[v]:
			words = words[1:]
		case v == "sudo" || v == "doas":
			words = skipFlags(words[1:], "ugCDhprtT")
		case v == "env":
			words = words[1:]
			for len(words) > 0 && (strings.HasPrefix(words[0].val, "-") || assignRe().MatchString(words[0].val)) {
				if words[0].val == "-u" && len(words) > 1 {
					words = words[1:]
				}
				words = words[1:]
			}
		case v == "timeout":
			words = skipFlags(words[1:], "sk")
			if len(words) > 0 {
				words = words[1:] // the duration
			}
		case v == "nice" || v == "ionice":
			words = skipFlags(words[1:], "nc")
		case v == "stdbuf":
			words = skipFlags(words[1:], "ioe")
		default:
			return words
		}
	}
	return words
}

// skipFlags drops leading options; letters in withArg take the next word.
func skipFlags(words []token, withArg string) []token {
	for len(words) > 0 && strings.HasPrefix(words[0].val, "-") && len(words[0].val) > 1 {
		v := words[0].val
		words = words[1:]
		if v == "--" {
			break
		}
		if !strings.HasPrefix(v, "--") && len(v) == 2 && strings.Contains(withArg, v[1:]) && len(words) > 0 {
			words = words[1:]
		}
	}
	return words
}
