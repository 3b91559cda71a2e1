package scoring

import (
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

var (
	diffNewFileRe = lazyre.New(`^\+\+\+\s+b/(.+)`)
	diffOldFileRe = lazyre.New(`^---\s+a/(.+)`)
	diffHunkRe    = lazyre.New(`^@@\s+-(\d+)(?:,(\d+))?\s+\+(\d+)(?:,(\d+))?\s+@@`)
)

// DiffFile is the lines a patch deletes from one file (old numbering), merged.
type DiffFile struct {
	File  string
	Lines []model.Interval
}

// DeletedLines parses a unified diff into the deleted old-file lines per file,
// in order of first appearance.
//
// ContextBench semantics reproduce upstream _parse_hunks: "+++ /dev/null"
// leaves the previous file current (so a deleted file's lines are charged to
// the file before it), a hunk ends at any line starting with "@@", "diff " or
// "---" (so a deleted line whose text starts with "--" ends it), and lines
// that start with neither '-' nor ' ' (including blank context lines whose
// space was trimmed) do not advance the line counter.
//
// Fixed semantics take a deleted file's name from its "--- a/" line and walk
// each hunk by the counts in its header, so none of those quirks apply.
func DeletedLines(patch string, sem model.Semantics) []DiffFile {
	lines := patchLines(patch)
	out := []DiffFile{}
	index := map[string]int{}
	addRun := func(file string, run model.Interval) {
		i, ok := index[file]
		if !ok {
			i = len(out)
			index[file] = i
			out = append(out, DiffFile{File: file})
		}
		out[i].Lines = append(out[i].Lines, run)
	}
	if sem == model.Fixed {
		parseHunksFixed(lines, addRun)
	} else {
		parseHunksUpstream(lines, addRun)
	}
	for i := range out {
		out[i].Lines = model.MergeIntervals(out[i].Lines)
	}
	return out
}

// patchLines is a patch read a line at a time by byte offset: the lines
// strings.Split(patch, "\n") gives, without a string per line held (a
// patch of millions of blank lines).
type patchLines string

// at is the line starting at byte i and where the next one starts;
// ok is false past the last.
func (p patchLines) at(i int) (line string, next int, ok bool) {
	if i > len(p) {
		return "", i, false
	}
	end := strings.IndexByte(string(p[i:]), '\n')
	if end < 0 {
		return string(p[i:]), len(p) + 1, true
	}
	return string(p[i : i+end]), i + end + 1, true
}

func parseHunksUpstream(lines patchLines, addRun func(string, model.Interval)) {
	current := ""
	// The outer loop visits every line, body lines included, as upstream's
	// does: a body line starting with "+++ b/" switches the current file.
	for pos := 0; ; {
		line, next, ok := lines.at(pos)
		if !ok {
			break
		}
		pos = next
		if strings.HasPrefix(line, "+++") {
			if m := diffNewFileRe().FindStringSubmatch(line); m != nil {
				current = m[1]
			}
			continue
		}
		_, old, ok := hunkHeader(line, current)
		if !ok {
			continue
		}
		runStart := -1
		closeRun := func(end int) {
			if runStart >= 0 {
				addRun(current, model.Interval{Start: runStart, End: end})
				runStart = -1
			}
		}
		for b := next; ; {
			body, nb, ok := lines.at(b)
			if !ok {
				break
			}
			b = nb
			if strings.HasPrefix(body, "@@") || strings.HasPrefix(body, "diff ") || strings.HasPrefix(body, "---") {
				break
			}
			switch {
			case strings.HasPrefix(body, "-"):
				if runStart < 0 {
					runStart = old
				}
				old++
			case strings.HasPrefix(body, " "):
				closeRun(old - 1)
				old++
			}
		}
		closeRun(old - 1)
	}
}

func parseHunksFixed(lines patchLines, addRun func(string, model.Interval)) {
	oldFile, current := "", ""
	for pos := 0; ; {
		line, next, ok := lines.at(pos)
		if !ok {
			break
		}
		pos = next
		if m := diffOldFileRe().FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "--- ") {
			oldFile = strings.TrimRight(m[1], "\t\r")
			continue
		}
		if strings.HasPrefix(line, "+++ ") {
			if m := diffNewFileRe().FindStringSubmatch(line); m != nil {
				current = strings.TrimRight(m[1], "\t\r")
			} else {
				// "+++ /dev/null": the file is deleted, its lines are the old file's.
				current = oldFile
			}
			continue
		}
		m, old, ok := hunkHeader(line, current)
		if !ok {
			continue
		}
		oldLeft, newLeft := hunkCount(m[2]), hunkCount(m[4])
		runStart := -1
		for oldLeft > 0 || newLeft > 0 {
			body, nb, ok := lines.at(pos)
			if !ok {
				break
			}
			if strings.HasPrefix(body, `\`) { // "\ No newline at end of file"
				pos = nb
				continue
			}
			if strings.HasPrefix(body, "@@") {
				break
			}
			pos = nb
			switch {
			case strings.HasPrefix(body, "-"):
				if runStart < 0 {
					runStart = old
				}
				old++
				oldLeft--
				continue
			case strings.HasPrefix(body, "+"):
				newLeft--
				continue
			}
			// Context, including a blank line whose leading space was lost.
			if runStart >= 0 {
				addRun(current, model.Interval{Start: runStart, End: old - 1})
				runStart = -1
			}
			old++
			oldLeft--
			newLeft--
		}
		if runStart >= 0 {
			addRun(current, model.Interval{Start: runStart, End: old - 1})
		}
	}
}

// hunkHeader reads a hunk's "@@ -a,b +c,d @@" line in a file (current):
// its fields and the old file's first line.
func hunkHeader(line, current string) (m []string, old int, ok bool) {
	if !strings.HasPrefix(line, "@@") || current == "" {
		return nil, 0, false
	}
	if m = diffHunkRe().FindStringSubmatch(line); m == nil {
		return nil, 0, false
	}
	old, _ = strconv.Atoi(m[1])
	return m, old, true
}

func hunkCount(s string) int {
	if s == "" {
		return 1
	}
	n, _ := strconv.Atoi(s)
	return n
}
