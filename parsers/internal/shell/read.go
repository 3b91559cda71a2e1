package shell

import (
	"path"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// The read family: commands that show file content as it is (cat, nl,
// pagers) and those that only inspect files (wc, stat, diff, …). head and
// tail are in headtail.go, the reordering filters in reorder.go.

var (
	pagerNames = []string{"less", "more", "most", "pg", "bat", "batcat", "view"}
	// inspectNames look at files without showing their lines.
	inspectNames = []string{"wc", "file", "stat", "xxd", "od", "hexdump", "strings", "md5sum", "sha1sum",
		"sha256sum", "cksum", "du", "diff", "cmp", "readlink", "realpath", "basename", "dirname"}
)

// markRead notes a command that displays file content: it has file
// operands, or reads a piped stream of file views. A filter over other
// output ("pip install . | tail") is not a read.
func (a *analyzer) markRead(ops []token, in *stream) {
	if len(ops) > 0 || (in != nil && len(in.views) > 0) {
		a.read = true
	}
}

// looksLikeFile reports whether a path's base name has an extension, the
// cheap test that tells "django/conf/settings.py" from "django/conf" or ".".
func looksLikeFile(p string) bool {
	b := path.Base(p)
	i := strings.LastIndexByte(b, '.')
	return i > 0 && i < len(b)-1
}

// fileViews turns file operands into whole-file views; "-" takes the views
// of stdin.
func (a *analyzer) fileViews(ops []token, in *stream) []view {
	var vs []view
	for _, w := range ops {
		if w.val == "-" {
			if in != nil {
				vs = append(vs, in.views...)
			}
			continue
		}
		if p := a.resolve(w); p != "" {
			vs = append(vs, view{file: p, kind: model.ReadWhole})
		}
	}
	return vs
}

func (a *analyzer) cat(c *call) *stream {
	in := c.in
	p := parseOpts(c.args, optSpec{})
	a.markRead(p.operands, in)
	if len(p.operands) == 0 {
		if in == nil {
			return &stream{}
		}
		if len(c.args) > 0 && in.text != nil {
			// cat -n of a here-document: not the text fed in.
			cp := *in
			cp.text = nil
			in = &cp
		}
		if p.has("n", "--number") && !p.has("b", "--number-nonblank") && len(in.views) == 1 && in.views[0].kind == model.ReadWhole {
			return &stream{views: in.views, numbered: true}
		}
		return in
	}
	vs := a.fileViews(p.operands, in)
	numbered := p.has("n", "--number") && !p.has("b", "--number-nonblank") && len(vs) == 1
	return &stream{views: vs, numbered: numbered}
}

var nlSpec = optSpec{withArg: "bdfhilnsvw", longArg: []string{"--body-numbering", "--section-delimiter",
	"--footer-numbering", "--header-numbering", "--line-increment", "--join-blank-lines", "--number-format",
	"--number-separator", "--starting-line-number", "--number-width"}}

func (a *analyzer) nl(c *call) *stream {
	in := c.in
	p := parseOpts(c.args, nlSpec)
	a.markRead(p.operands, in)
	body, _ := p.last("b", "--body-numbering")
	numbered := body == "a"
	if v, ok := p.last("v", "--starting-line-number"); ok && v != "1" {
		numbered = false
	}
	if v, ok := p.last("i", "--line-increment"); ok && v != "1" {
		numbered = false
	}
	if p.has("s", "--number-separator") {
		numbered = false
	}
	var vs []view
	if len(p.operands) == 0 {
		if in == nil {
			return &stream{}
		}
		if len(c.args) > 0 && in.text != nil {
			// cat -n of a here-document: not the text fed in.
			cp := *in
			cp.text = nil
			in = &cp
		}
		vs = in.views
		if len(vs) != 1 || vs[0].kind != model.ReadWhole {
			numbered = false
		}
		if in.spec != nil {
			return &stream{spec: in.spec}
		}
	} else {
		vs = a.fileViews(p.operands, in)
	}
	return &stream{views: vs, numbered: numbered && len(vs) == 1}
}

func (a *analyzer) pager(c *call) *stream {
	in := c.in
	p := parseOpts(c.args, optSpec{})
	a.markRead(p.operands, in)
	if len(p.operands) == 0 {
		return in
	}
	return &stream{views: a.fileViews(p.operands, in)}
}

// inspect handles commands that read files without showing their lines:
// the files they name are search hits.
func (a *analyzer) inspect(c *call) *stream {
	// A look at files (wc -l f.py, cat f.py | wc) is a read; counting
	// what another command printed (git branch | wc -l) is not.
	if c.in != nil && len(c.in.views) > 0 {
		a.read = true
	}
	for _, w := range c.args {
		if p := a.resolve(w); p != "" && !strings.HasPrefix(w.val, "-") && looksLikeFile(p) {
			a.read = true
			a.addHit(model.SearchHit{File: p})
		}
	}
	return &stream{}
}
