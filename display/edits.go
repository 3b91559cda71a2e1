package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// DiffLine is one line of an edit shown as a diff: Op is '-' (removed),
// '+' (added) or ' ' (kept).
type DiffLine struct {
	Op   byte
	Text string
}

// ChangeTitle says in a few words what a recorded edit did to its file.
func ChangeTitle(c model.Change) string {
	switch {
	case c.Unrecorded && c.Kind == model.ChangeWhole:
		return c.File + ": wrote the whole file (what it wrote is not recorded)"
	case c.Unrecorded && c.Kind == model.ChangeAppend:
		return c.File + ": appended to (what it wrote is not recorded)"
	case c.Unrecorded:
		return c.File + ": changed by a script (what it changed is not recorded)"
	case c.Kind == model.ChangeWhole:
		return fmt.Sprintf("%s: wrote the whole file (%d lines)", c.File, lineCount(c.New))
	case c.Kind == model.ChangeInsert:
		return fmt.Sprintf("%s: inserted after line %d", c.File, c.Line)
	case c.Kind == model.ChangeAppend:
		return fmt.Sprintf("%s: appended %d lines", c.File, lineCount(c.New))
	}
	return c.File + ": replaced"
}

// ChangeDiff shows a recorded edit as a diff: the lines both texts begin and
// end with are kept, the rest of Old removed and the rest of New added.
func ChangeDiff(c model.Change) []DiffLine {
	var old []string
	if c.Kind == model.ChangeReplace {
		old = splitLines(c.Old)
	}
	nw := splitLines(c.New)
	pre := 0
	for pre < len(old) && pre < len(nw) && old[pre] == nw[pre] {
		pre++
	}
	suf := 0
	for suf < len(old)-pre && suf < len(nw)-pre && old[len(old)-1-suf] == nw[len(nw)-1-suf] {
		suf++
	}
	out := make([]DiffLine, 0, len(old)+len(nw))
	for _, l := range old[:pre] {
		out = append(out, DiffLine{' ', l})
	}
	for _, l := range old[pre : len(old)-suf] {
		out = append(out, DiffLine{'-', l})
	}
	for _, l := range nw[pre : len(nw)-suf] {
		out = append(out, DiffLine{'+', l})
	}
	for _, l := range old[len(old)-suf:] {
		out = append(out, DiffLine{' ', l})
	}
	return out
}

// Replay applies a file's recorded edits, in order, to its base content:
// the file as the run left it after them. applied counts the edits that
// applied; the first that does not (its old text is not in the file: an
// edit the format did not record came between) stops the replay, and ok is
// false.
func Replay(base string, changes []model.Change) (content string, applied int, ok bool) {
	content = base
	for _, c := range changes {
		if c.Unrecorded {
			return content, applied, false // the file after it is not known
		}
		switch c.Kind {
		case model.ChangeAppend:
			if content != "" && !strings.HasSuffix(content, "\n") {
				content += "\n"
			}
			content += c.New
		case model.ChangeWhole:
			content = c.New
		case model.ChangeInsert:
			lines := strings.SplitAfter(content, "\n")
			if lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			if c.Line > len(lines) {
				return content, applied, false
			}
			ins := c.New
			if !strings.HasSuffix(ins, "\n") {
				ins += "\n"
			}
			if c.Line > 0 && !strings.HasSuffix(lines[c.Line-1], "\n") {
				ins = "\n" + strings.TrimSuffix(ins, "\n")
			}
			content = strings.Join(lines[:c.Line], "") + ins + strings.Join(lines[c.Line:], "")
		default:
			i := strings.Index(content, c.Old)
			if i < 0 || c.Old == "" {
				return content, applied, false
			}
			content = content[:i] + c.New + content[i+len(c.Old):]
		}
		applied++
	}
	return content, applied, true
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func lineCount(s string) int { return len(splitLines(s)) }
