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
	var out []model.Change
	file, kind := "", model.ChangeReplace
	var old, nw []string
	in := false
	flush := func() {
		if file != "" && in && (len(old) > 0 || len(nw) > 0) {
			c := model.Change{File: file, Kind: kind, New: Clip(strings.Join(nw, "\n"))}
			if kind == model.ChangeReplace {
				c.Old = Clip(strings.Join(old, "\n"))
			}
			out = append(out, c)
		}
		old, nw = old[:0], nw[:0]
	}
	for _, line := range strings.Split(patch, "\n") {
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
			nw = append(nw, line[1:])
		case strings.HasPrefix(line, "-"):
			old = append(old, line[1:])
		case strings.HasPrefix(line, " "), line == "":
			old, nw = append(old, strings.TrimPrefix(line, " ")), append(nw, strings.TrimPrefix(line, " "))
		}
	}
	flush()
	for i := range out {
		// A hunk's trailing blank context (the patch's last newline) is
		// not part of the text it replaces.
		if out[i].Kind == model.ChangeReplace {
			out[i].Old, out[i].New = strings.TrimSuffix(out[i].Old, "\n"), strings.TrimSuffix(out[i].New, "\n")
		}
	}
	return out
}

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
