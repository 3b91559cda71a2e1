package observed

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// numLine is one line of a file as an action's output showed it.
type numLine struct {
	num  int
	text string
}

// readLines is what one read of an action showed of its file: the numbered
// lines, and the file's length when a file window reported it (0 if not).
type readLines struct {
	file  string
	lines []numLine
	total int
}

// entry is a numbered line of output; path is set when the line names its
// file (grep -n over several files).
type entry struct {
	num  int
	text string
	path string
	bare bool // a number alone: an empty line some listings print so
}

// windowHdrRe is the header of SWE-agent's and OpenHands' file windows,
// which give the file's length. An "after edit" length is not the base
// commit's, so only the plain form counts.
var windowHdrRe = regexp.MustCompile(`(?m)^\[File: (.+?) \((\d{1,9}) lines total\)\]`)

// linesOf returns, for each read of act that names its lines, the numbered
// output lines that show them. Reads are matched to the output in order,
// as the parsers confirmed them: each is a run of consecutive numbers from
// its first line, in the file it names.
func linesOf(act *model.Action) []readLines {
	ranged := false
	for _, r := range act.Reads {
		ranged = ranged || r.Kind == model.ReadRange
	}
	if !ranged || act.Observation == "" {
		return nil
	}
	entries := numbered(act.Observation)
	if len(entries) == 0 {
		return nil
	}
	totals := map[string]int{}
	for _, m := range windowHdrRe.FindAllStringSubmatch(act.Observation, -1) {
		n, _ := strconv.Atoi(m[2])
		totals[m[1]] = n
	}
	var out []readLines
	j := 0
	for _, r := range act.Reads {
		if r.Kind != model.ReadRange || r.Start < 1 || r.End < r.Start {
			continue
		}
		k := j
		for k < len(entries) && !(entries[k].num == r.Start && samePath(entries[k].path, r.File)) {
			k++
		}
		if k == len(entries) {
			continue
		}
		rl := readLines{file: r.File}
		for want := r.Start; k < len(entries) && want <= r.End; want++ {
			e := entries[k]
			if e.num != want || !samePath(e.path, r.File) {
				break
			}
			rl.lines = append(rl.lines, numLine{e.num, e.text})
			k++
		}
		j = k
		for p, n := range totals {
			if samePath(p, r.File) {
				rl.total = n
			}
		}
		out = append(out, rl)
	}
	return out
}

// samePath reports whether a path printed in output (empty: the output
// names none) and a read's file are one file.
func samePath(printed, file string) bool {
	if printed == "" {
		return true
	}
	printed, file = strings.TrimPrefix(printed, "./"), strings.TrimPrefix(file, "./")
	return printed == file || strings.HasSuffix(file, "/"+printed) || strings.HasSuffix(printed, "/"+file)
}

// numbered lists the numbered lines of output, in order: "   12\ttext"
// (nl -ba, cat -n, an editor's view, Harbor's Read), "    12→text" (Claude
// Code's Read), "12|text" (OpenHands' window), "12:text" (SWE-agent's
// window, grep -n on one file) and "path:12:text" (grep -n). The text is
// the file's line as shown.
func numbered(obs string) []entry {
	var out []entry
	for rest := obs; rest != ""; {
		line, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		line = strings.TrimSuffix(line, "\r")
		e, ok := parseLine(line)
		if !ok {
			continue
		}
		if e.bare {
			// "   166" alone: an empty line, when it continues a listing.
			if k := len(out) - 1; k < 0 || out[k].num != e.num-1 {
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// parseLine reads one numbered output line.
func parseLine(l string) (entry, bool) {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	start := i
	for i < len(l) && i-start < 10 && '0' <= l[i] && l[i] <= '9' {
		i++
	}
	if d := i - start; d >= 1 && d <= 9 {
		n, _ := strconv.Atoi(l[start:i])
		if n < 1 {
			return entry{}, false
		}
		k := i
		for k < len(l) && l[k] == ' ' {
			k++
		}
		switch {
		case strings.HasPrefix(l[k:], "\t"):
			return entry{num: n, text: l[k+1:]}, true
		case strings.HasPrefix(l[k:], "→"):
			return entry{num: n, text: l[k+len("→"):]}, true
		case k == len(l) && start > 0:
			return entry{num: n, bare: true}, true
		case start == 0 && i < len(l) && (l[i] == '|' || l[i] == ':'):
			return entry{num: n, text: l[i+1:]}, true
		}
	}
	// "path:12:text"
	p, after, ok := strings.Cut(l, ":")
	if !ok || p == "" || strings.ContainsAny(p, " \t") {
		return entry{}, false
	}
	k := 0
	for k < len(after) && k < 10 && '0' <= after[k] && after[k] <= '9' {
		k++
	}
	if k == 0 || k > 9 || k >= len(after) || after[k] != ':' {
		return entry{}, false
	}
	n, _ := strconv.Atoi(after[:k])
	if n < 1 {
		return entry{}, false
	}
	return entry{num: n, text: after[k+1:], path: p}, true
}
