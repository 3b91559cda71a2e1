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
	lines := strings.Split(patch, "\n")
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

func parseHunksUpstream(lines []string, addRun func(string, model.Interval)) {
	current := ""
	// The outer loop visits every line, body lines included, as upstream's
	// does: a body line starting with "+++ b/" switches the current file.
	for i, line := range lines {
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
		for _, body := range lines[i+1:] {
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

func parseHunksFixed(lines []string, addRun func(string, model.Interval)) {
	oldFile, current := "", ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
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
		for i+1 < len(lines) && (oldLeft > 0 || newLeft > 0) {
			body := lines[i+1]
			if strings.HasPrefix(body, `\`) { // "\ No newline at end of file"
				i++
				continue
			}
			if strings.HasPrefix(body, "@@") {
				break
			}
			i++
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
