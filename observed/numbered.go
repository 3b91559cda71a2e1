package observed

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
)

// numLine is one line of a file as an action's output showed it: its
// number and where its text is in the output (readLines.src). No pointer:
// a long run's outputs show millions of lines, kept while it is followed,
// and the collector does not walk them.
type numLine struct {
	num, n int32
	off    int
}

// readLines is what one read of an action showed of its file: the numbered
// lines, their text in src (the output, or the part of it they are in),
// and the file's length when a file window reported it (0 if not).
type readLines struct {
	file  string
	src   string
	lines []numLine
	total int
}

// text is line l's text.
func (rl *readLines) text(l numLine) string { return rl.src[l.off : l.off+int(l.n)] }

// entry is a numbered line of output; path is set when the line names its
// file (grep -n over several files). off is where text is in the output.
type entry struct {
	num  int
	text string
	off  int
	path string
	bare bool // a number alone: an empty line some listings print so
}

// abbreviated marks SWE-agent's abbreviated view of a large file, whose
// lines are numbered "     1 text": a number and one space.
const abbreviated = "This file is too large to display entirely"

// windowHdrRe is the header of SWE-agent's and OpenHands' file windows,
// which give the file's length. An "after edit" length is not the base
// commit's, so only the plain form counts.
var windowHdrRe = lazyre.New(`(?m)^\[File: (.+?) \((\d{1,9}) lines total\)\]`)

// linesOf returns, for each read of act that names its lines, the numbered
// lines of its output obs that show them. Reads are matched to the output in order,
// as the parsers confirmed them: each is a run of consecutive numbers from
// its first line, in the file it names.
// Lines remembers what the actions of a run displayed (linesOf), for a
// run read again as it grows; the zero value is ready. It is keyed by the
// output itself, not the action's place: a followed run's actions are put
// back in time order at each reading, so an action's index moves when
// earlier ones arrive, and its output may be a new string of the same
// text. Not safe for concurrent use.
type Lines struct {
	byObs map[string][]linesEntry
	// last is what the last Build made of the run's actions that had
	// their output, to go on from at the next.
	last *building
}

type linesEntry struct {
	reads []model.ObservedRead
	lines []readLines
}

// of is linesOf(act, obs), from c when an action with the same output and
// reads was read before; a nil c computes it.
func (c *Lines) of(act *model.Action, obs string) []readLines {
	if c == nil || len(act.Reads) == 0 || obs == "" {
		return linesOf(act, obs)
	}
	if c.byObs == nil {
		c.byObs = map[string][]linesEntry{}
	}
	for _, e := range c.byObs[obs] {
		if slices.Equal(e.reads, act.Reads) {
			return e.lines
		}
	}
	lines := linesOf(act, obs)
	c.byObs[obs] = append(c.byObs[obs], linesEntry{reads: slices.Clone(act.Reads), lines: lines})
	return lines
}

func linesOf(act *model.Action, obs string) []readLines {
	if len(act.Reads) == 0 || obs == "" {
		return nil
	}
	entries := numbered(obs, strings.Contains(obs, abbreviated))
	if len(entries) == 0 {
		return plainLines(act, obs)
	}
	var totals map[string]int
	if strings.Contains(obs, "[File: ") { // the regexp costs more than the scan
		totals = map[string]int{}
		for _, m := range windowHdrRe().FindAllStringSubmatch(obs, -1) {
			n, _ := strconv.Atoi(m[2])
			totals[m[1]] = n
		}
	}
	var out []readLines
	j := 0
	for _, r := range act.Reads {
		// Where the read's numbered lines start (0: anywhere, for a tail)
		// and end.
		start, end := r.Start, r.End
		switch r.Kind {
		case model.ReadWhole:
			start, end = 1, math.MaxInt
		case model.ReadHead:
			start = 1
		case model.ReadFrom:
			end = math.MaxInt
		case model.ReadTail:
			start, end = 0, math.MaxInt
		}
		if start < 0 || end < max(start, 1) {
			continue
		}
		k := j
		for k < len(entries) && !((start == 0 && entries[k].num >= 1 || entries[k].num == start) && samePath(entries[k].path, r.File)) {
			k++
		}
		if k == len(entries) {
			continue
		}
		rl := readLines{file: r.File, src: obs}
		for want := entries[k].num; k < len(entries) && want <= end; want++ {
			e := entries[k]
			if e.num != want || !samePath(e.path, r.File) {
				break
			}
			rl.lines = append(rl.lines, numLine{int32(e.num), int32(min(len(e.text), math.MaxInt32)), e.off})
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
// (nl -ba, cat -n, an editor's view, Harbor's Read), "    12 text" (with
// spaced: SWE-agent's abbreviated view), "    12→text" (Claude
// Code's Read), "12|text" (OpenHands' window), "12:text" (SWE-agent's
// window, grep -n on one file) and "path:12:text" (grep -n). The text is
// the file's line as shown.
func numbered(obs string, spaced bool) []entry {
	var out []entry
	shift, next := false, 0
	for rest := obs; rest != ""; {
		at := len(obs) - len(rest) // where the line starts
		line, tail, _ := strings.Cut(rest, "\n")
		rest = tail
		line = strings.TrimSuffix(line, "\r")
		e, ok := parseLine(line, spaced)
		if !ok {
			continue
		}
		e.off = at + len(line) - len(e.text) // the text ends the line
		// Claude Code numbers a Read with offset 0 from 0: such a listing
		// is one below the file's lines.
		switch {
		case e.num == 0 && e.path == "":
			shift, next = true, 0
		case shift && e.num != next:
			shift = false
		}
		if shift {
			next = e.num + 1
			e.num++
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

// parseLine reads one numbered output line; spaced accepts a number and
// one space before the text.
func parseLine(l string, spaced bool) (entry, bool) {
	if n, text, ok := Listing.Line(l); ok {
		return entry{num: n, text: text}, true
	}
	if n, text, ok := spacedNumbers.Line(l); ok && spaced {
		if strings.HasPrefix(text, "... eliding lines ") {
			return entry{}, false // a gap, not the line's text
		}
		return entry{num: n, text: text}, true
	}
	if n, _, ok := bare.Line(l); ok {
		return entry{num: n, bare: true}, true
	}
	if n, text, ok := Window.Line(l); ok {
		return entry{num: n, text: text}, true
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

// plainLines reads the output of a command that printed one file's lines
// without numbers (cat, head, sed -n 'a,bp'), when nothing else can have
// been printed: one read, a command that did not fail, and an output whose
// wrapper is known and not cut short. The read says where the lines start;
// a whole-file read also gives the file's length. obs is its output.
func plainLines(act *model.Action, obs string) []readLines {
	if len(act.Reads) != 1 || act.Failed() {
		return nil
	}
	r := act.Reads[0]
	body, ok := PlainBody(obs)
	if !ok {
		return nil
	}
	text := strings.Split(strings.TrimSuffix(body, "\n"), "\n")
	if body == "" {
		text = nil
	}
	rl := readLines{file: r.File, src: body}
	start := 1
	switch r.Kind {
	case model.ReadWhole:
		rl.total = len(text)
	case model.ReadHead:
		if len(text) > r.End {
			return nil // more than asked for: not the file alone
		}
	case model.ReadRange:
		if r.Start < 1 || len(text) > r.End-r.Start+1 {
			return nil
		}
		start = r.Start
	default:
		return nil
	}
	if start > math.MaxInt32-len(text) {
		return nil // a number past any file's length
	}
	at := 0 // where line k starts in body
	for k, l := range text {
		rl.lines = append(rl.lines, numLine{int32(start + k), int32(min(len(strings.TrimSuffix(l, "\r")), math.MaxInt32)), at})
		at += len(l) + 1
	}
	return []readLines{rl}
}

// PlainBody is what a command printed: the inside of mini-swe-agent's
// <output> block, or an output with no wrapper at all. Outputs cut short
// (<output_head>, "[trimmed]") or wrapped in ways that add lines of their
// own (a shell prompt, an exit-code note) give nothing.
func PlainBody(obs string) (string, bool) {
	if strings.Contains(obs, "<output_head>") || strings.Contains(obs, "[trimmed]") || strings.Contains(obs, "<warning>") {
		return "", false
	}
	if i := strings.Index(obs, "<output>"); i >= 0 {
		j := strings.LastIndex(obs, "</output>")
		if j < i {
			return "", false
		}
		return strings.TrimPrefix(obs[i+len("<output>"):j], "\n"), true
	}
	if strings.Contains(obs, "<returncode>") || strings.Contains(obs, "[Command finished") ||
		strings.Contains(obs, "[Python Interpreter") || promptRe().MatchString(obs) {
		return "", false
	}
	return obs, true
}

// promptRe finds a shell prompt line, which OpenHands appends to outputs.
var promptRe = lazyre.New(`(?m)^\S+@\S+:.*[#$] ?$`)
