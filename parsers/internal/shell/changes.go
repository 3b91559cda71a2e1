package shell

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// maxChangeBytes bounds the text one recorded edit keeps: an edit that
// writes a generated file of megabytes is shown by its start.
const maxChangeBytes = 256 << 10

// PatchChanges reads the edits of a patch: Codex's apply_patch envelope
// ("*** Update File: f", "@@", then " ", "-" and "+" lines; "*** Add File:
// f" with "+" lines) or a unified diff ("+++ b/f", "@@ -a,b +c,d @@"). Each
// hunk is one replacement of its context and removed lines by its context
// and added lines; an added file is its whole content.
func PatchChanges(patch string) []model.Change {
	out, _ := PatchChangesUpTo(patch, -1)
	return out
}

// PatchChangesUpTo is PatchChanges of at most most changes (-1: all);
// more reports a patch of more, found before they are all built. A hunk's
// text is kept only as far as Clip keeps it, so a patch of millions of
// lines costs what its changes hold, not a string per line.
func PatchChangesUpTo(patch string, most int) (out []model.Change, more bool) {
	file, kind := "", model.ChangeReplace
	var old, nw clipped
	in := false
	flush := func() {
		if file != "" && in && (old.lines > 0 || nw.lines > 0) {
			if most >= 0 && len(out) == most {
				more = true
			} else {
				c := model.Change{File: file, Kind: kind, New: Clip(nw.String())}
				if kind == model.ChangeReplace {
					c.Old = Clip(old.String())
				}
				out = append(out, c)
			}
		}
		old.reset()
		nw.reset()
	}
	for rest := patch; len(rest) > 0 && !more; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.HasPrefix(line, "*** Update File: "), strings.HasPrefix(line, "*** Add File: "), strings.HasPrefix(line, "*** Delete File: "):
			flush()
			name, rest, _ := strings.Cut(line[len("*** "):], " File: ")
			file, kind, in = strings.TrimSpace(rest), model.ChangeReplace, name != "Delete"
			if name == "Add" {
				kind = model.ChangeWhole
			}
		case strings.HasPrefix(line, "*** Move to: "), strings.HasPrefix(line, "*** End"), strings.HasPrefix(line, "*** Begin"):
			flush()
			in = false
		case strings.HasPrefix(line, "+++ "):
			flush()
			file, kind, in = strings.TrimPrefix(strings.TrimSpace(line[4:]), "b/"), model.ChangeReplace, false
			if file == "/dev/null" {
				file = ""
			}
		case strings.HasPrefix(line, "--- "), strings.HasPrefix(line, "diff "), strings.HasPrefix(line, "index "):
			flush()
			in = false
		case strings.HasPrefix(line, "@@"):
			flush()
			in = true
		case !in:
		case strings.HasPrefix(line, "+"):
			nw.add(line[1:])
		case strings.HasPrefix(line, "-"):
			old.add(line[1:])
		case strings.HasPrefix(line, " "), line == "":
			old.add(strings.TrimPrefix(line, " "))
			nw.add(strings.TrimPrefix(line, " "))
		}
	}
	if !more {
		flush()
	}
	for i := range out {
		// A hunk's trailing blank context (the patch's last newline) is
		// not part of the text it replaces.
		if out[i].Kind == model.ChangeReplace {
			out[i].Old, out[i].New = strings.TrimSuffix(out[i].Old, "\n"), strings.TrimSuffix(out[i].New, "\n")
		}
	}
	return out, more
}

// clipped is lines joined by "\n", kept only as far as Clip reads them
// (one byte past its bound says the text is longer).
type clipped struct {
	b     []byte
	lines int
}

func (c *clipped) add(line string) {
	if c.lines > 0 && len(c.b) <= maxChangeBytes {
		c.b = append(c.b, '\n')
	}
	c.lines++
	if room := maxChangeBytes + 1 - len(c.b); room > 0 {
		c.b = append(c.b, line[:min(len(line), room)]...)
	}
}

func (c *clipped) String() string { return string(c.b) }

func (c *clipped) reset() { c.b, c.lines = c.b[:0], 0 }

// Clip keeps a recorded edit's text bounded, cut at a line's end when one is
// near.
func Clip(s string) string {
	if len(s) <= maxChangeBytes {
		return s
	}
	cut := strings.LastIndexByte(s[:maxChangeBytes], '\n')
	if cut < maxChangeBytes/2 {
		cut = maxChangeBytes
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return s[:cut]
}
