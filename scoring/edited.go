package scoring

import (
	"bytes"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// EditedSpan is a region of a target made of changes (a reference patch,
// or the run's own edits): lines of the file as it was before any change,
// and the action that changed them (-1 for a patch).
type EditedSpan struct {
	File   string
	Lines  model.Interval
	Action int32
}

// maxLocateBytes bounds the text locating a gold's changes may walk: each
// change costs the length of its file, and a hostile run can record
// thousands of edits of a large file. Changes past it are not located.
const maxLocateBytes = 256 << 20

// editedFile is a file as the changes so far left it, with the line it
// had before them for each of its lines (0 for a line a change wrote).
type editedFile struct {
	content []byte // changed in place: a run edits a file thousands of times
	orig    []int32
}

// locate finds the regions a gold's changes replaced, in the files as they
// were before the first change: each change is found in the file as the
// earlier ones left it, its unchanged first and last lines set aside, and
// its lines mapped back to the lines they were at the start. A change that
// only adds lines is anchored to the line before it (after it, at the
// top). Lines a change wrote are no target of a later one; a file the
// repository does not have (one the changes created) is none. unlocated
// counts the changes whose text was not in the file (an edit the format
// did not record came between, or its text was clipped).
func (sc scorer) locate(g *model.Gold) (spans []model.GoldSpan, edited []EditedSpan, unlocated int) {
	files := map[string]*editedFile{}
	budget := maxLocateBytes
	pt := partial(sc.files.tree)
	var created map[string]bool
	for k, c := range g.Changes {
		action := int32(-1)
		if k < len(g.ChangedAt) {
			action = g.ChangedAt[k]
		}
		p := sc.files.Resolve(c.File)
		if p == "" {
			// A file the repository does not have: one the changes
			// created. Without the repository, a file the run never
			// named before it wrote the whole of it is taken to be one
			// (Claude Code writes no file it has not read; "cmd > out"
			// makes one); a change of any other file the run did not
			// display is a change not found.
			if pt != nil && !created[c.File] {
				if c.Kind == model.ChangeWhole {
					if created == nil {
						created = map[string]bool{}
					}
					created[c.File] = true
				} else {
					unlocated++
				}
			}
			continue
		}
		if c.Unrecorded || c.Kind == model.ChangeAppend && pt != nil {
			// What was written is not recorded, or the file's end is not
			// known without the repository: the change cannot be placed.
			unlocated++
			continue
		}
		f := files[p]
		if f == nil {
			b, ok := sc.files.Content(p)
			if !ok {
				continue
			}
			f = &editedFile{content: slices.Clone(b), orig: make([]int32, lineCount(b))}
			for i := range f.orig {
				f.orig[i] = int32(i + 1)
			}
			files[p] = f
		}
		if budget -= len(f.content) + len(c.Old) + len(c.New); budget < 0 {
			unlocated++
			continue
		}
		changed, ok := f.apply(c)
		if !ok {
			unlocated++
			continue
		}
		for _, iv := range changed {
			spans = append(spans, model.GoldSpan{File: p, Start: iv.Start, End: iv.End})
			edited = append(edited, EditedSpan{File: p, Lines: iv, Action: action})
		}
	}
	return spans, edited, unlocated
}

// apply makes change c to the file and returns the lines it had at the
// start that c replaced, as runs of consecutive lines; ok is false when c
// could not be placed.
func (f *editedFile) apply(c model.Change) (changed []model.Interval, ok bool) {
	var at int              // 0-based line where the affected lines start
	var oldL, newL []string // the affected lines before and after
	switch c.Kind {
	case model.ChangeWhole:
		oldL, newL = splitLines(string(f.content)), splitLines(c.New)
		f.content = []byte(c.New)
	case model.ChangeInsert, model.ChangeAppend:
		if c.Kind == model.ChangeAppend {
			c.Line = len(f.orig)
			if len(f.content) > 0 && f.content[len(f.content)-1] != '\n' {
				f.content = append(f.content, '\n') // >> writes after the last byte
			}
		}
		if c.Line < 0 || c.Line > len(f.orig) {
			return nil, false
		}
		at, newL = c.Line, splitLines(c.New)
		off := 0
		for range c.Line {
			off += bytes.IndexByte(f.content[off:], '\n') + 1
		}
		ins := c.New
		if !strings.HasSuffix(ins, "\n") {
			ins += "\n"
		}
		f.content = slices.Insert(f.content, off, []byte(ins)...)
	default:
		i := bytes.Index(f.content, []byte(c.Old))
		if c.Old == "" || i < 0 {
			return nil, false
		}
		end := i + len(c.Old)
		lineStart := bytes.LastIndexByte(f.content[:i], '\n') + 1
		lineEnd := end
		if !strings.HasSuffix(c.Old, "\n") {
			if n := bytes.IndexByte(f.content[end:], '\n'); n >= 0 {
				lineEnd = end + n + 1
			} else {
				lineEnd = len(f.content)
			}
		}
		pre, post := string(f.content[lineStart:i]), string(f.content[end:lineEnd])
		at = bytes.Count(f.content[:lineStart], []byte("\n"))
		oldL, newL = splitLines(pre+c.Old+post), splitLines(pre+c.New+post)
		f.content = slices.Replace(f.content, i, end, []byte(c.New)...)
	}
	// The first and last lines the change left as they were are context,
	// not the change.
	p, s := 0, 0
	for p < len(oldL) && p < len(newL) && oldL[p] == newL[p] {
		p++
	}
	for s < len(oldL)-p && s < len(newL)-p && oldL[len(oldL)-1-s] == newL[len(newL)-1-s] {
		s++
	}
	from, to := min(at+p, len(f.orig)), min(at+len(oldL)-s, len(f.orig))
	for _, o := range f.orig[from:to] {
		if o == 0 {
			continue
		}
		if n := len(changed); n > 0 && changed[n-1].End == int(o)-1 {
			changed[n-1].End = int(o)
		} else {
			changed = append(changed, model.Interval{Start: int(o), End: int(o)})
		}
	}
	if from == to && len(newL)-p-s > 0 {
		// Only added lines: the line before them is the place.
		for _, k := range []int{from - 1, from} {
			if k >= 0 && k < len(f.orig) && f.orig[k] != 0 {
				changed = []model.Interval{{Start: int(f.orig[k]), End: int(f.orig[k])}}
				break
			}
		}
	}
	f.orig = slices.Replace(f.orig, from, to, make([]int32, len(newL)-p-s)...)
	return changed, true
}

// splitLines cuts text into lines, a final "\n" ending the last one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lineCount is the number of lines of text as an editor counts them (as
// splitLines cuts them).
func lineCount(b []byte) int {
	if len(b) == 0 {
		return 0
	}
	return bytes.Count(bytes.TrimSuffix(b, []byte("\n")), []byte("\n")) + 1
}
