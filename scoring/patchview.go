package scoring

import "strings"

// PatchLine is one line of a patch as the explorer shows it: its text, the
// file it belongs to, the old-file line a removed or context line stands
// for (0 for headers and added lines), and whether that line is gold.
type PatchLine struct {
	Text string
	File string
	Old  int
	Gold bool
}

// PatchLines walks a unified diff by its hunk headers and marks the lines
// it removes or keeps that are gold lines: the EditLoc hits, made visible.
// removed counts the lines the patch removes and goldRemoved those of them
// that are gold (EditLoc's intersection under the fixed reading of hunks).
func (a *Analysis) PatchLines(patch string) (lines []PatchLine, removed, goldRemoved int) {
	file, old := "", 0
	for _, text := range strings.Split(strings.TrimRight(patch, "\n"), "\n") {
		pl := PatchLine{Text: text}
		switch {
		case strings.HasPrefix(text, "+++ "):
			file = ""
			if m := diffNewFileRe().FindStringSubmatch(text); m != nil {
				file = goldPath(a.Gold, strings.TrimRight(m[1], "\t\r"), a.Sem)
			}
			old = 0
		case strings.HasPrefix(text, "--- ") || strings.HasPrefix(text, "diff "):
			old = 0
		case strings.HasPrefix(text, "@@"):
			if _, n, ok := hunkHeader(text, "x"); ok {
				old = n
			}
		case old > 0 && (strings.HasPrefix(text, "-") || strings.HasPrefix(text, " ") || text == ""):
			pl.File, pl.Old = file, old
			pl.Gold = a.Gold != nil && a.Gold.Lines.Contains(file, old)
			if strings.HasPrefix(text, "-") {
				removed++
				if pl.Gold {
					goldRemoved++
				}
			}
			old++
		case old > 0 && strings.HasPrefix(text, "+"):
			pl.File = file
		}
		lines = append(lines, pl)
	}
	return lines, removed, goldRemoved
}

// Contains reports whether line is inside one of file's intervals.
func (m FileIntervals) Contains(file string, line int) bool {
	for _, iv := range m[file] {
		if iv.Start <= line && line <= iv.End {
			return true
		}
	}
	return false
}
