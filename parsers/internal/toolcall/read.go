package toolcall

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

var (
	// trimmedTailRe matches a marker a recorder left where it cut the
	// output short (Harbor fixtures end with "...[trimmed]").
	trimmedTailRe = lazyre.New(`(?i)(?:\.\.\.|…)?\s*\[(?:trimmed|truncated)[^\]\n]{0,40}\]\s*$`)
	// metadataSuffixRe matches the "[metadata] {…}" block Harbor's ATIF
	// export appends to a tool result's text.
	metadataSuffixRe = lazyre.New(`\n\n\[metadata\] \{`)
	// showingRe is Gemini CLI's (and Qwen Code's) note on a truncated
	// read_file: "Status: Showing lines 1-2000 of 5120 total lines."
	// Goose's read: "[Showing lines 1-2000 of 5120. …]".
	showingRe = lazyre.New(`Showing lines (\d{1,9})-(\d{1,9}) of \d{1,9}\b`)
)

// StripMetadata removes the "\n\n[metadata] {…}" suffix Harbor appends to
// ATIF tool results and returns the text and the suffix's JSON (which may be
// cut short by a fixture's trimming; callers must not rely on it parsing).
func StripMetadata(s string) (text, meta string) {
	locs := metadataSuffixRe().FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return s, ""
	}
	i := locs[len(locs)-1][0]
	return s[:i], s[i+len("\n\n[metadata] "):]
}

// numberedRun returns the first run of consecutively numbered lines in a
// file view's output. Reminders appended after the listing are not numbered
// and end the run.
func numberedRun(obs string) (first, last int, ok bool) {
	for line := range strings.Lines(obs) {
		n, _, numbered := observed.ReadTool.Line(strings.TrimSuffix(line, "\n"))
		if !numbered {
			if ok {
				break
			}
			continue
		}
		if !ok {
			first, last, ok = n, n, true
			continue
		}
		if n != last+1 {
			break
		}
		last = n
	}
	return first, last, ok
}

// readRegion decides which lines a Read-style call displayed, trusting in
// order: the numbered output when it is complete, the structured result
// (Claude Code's toolUseResult.file), the numbered output's start when the
// recorder cut it short, and only then the requested offset/limit. For
// Claude Code's Read, a result with no numbered line (an error, a "shorter
// than the provided offset" warning, an empty file) displayed nothing.
func readRegion(file string, in *jsontree.Value, base int, c Call) []model.ObservedRead {
	if c.IsError {
		return nil
	}
	offset, hasOff := in.Get("offset").AnyInt()
	limit, hasLim := in.Get("limit").AnyInt()
	if hasLim && limit <= 0 {
		hasLim = false
	}
	start := 1
	if hasOff {
		start = offset + 1 - base
		if start < 1 {
			start = 1
		}
	}
	requested := func(from int) model.ObservedRead {
		switch {
		case hasLim:
			return model.ObservedRead{File: file, Kind: model.ReadRange, Start: from, End: from + limit - 1}
		case from <= 1:
			return model.ObservedRead{File: file, Kind: model.ReadWhole}
		}
		return model.ObservedRead{File: file, Kind: model.ReadFrom, Start: from}
	}

	text, _ := StripMetadata(c.Output)
	trimmed := trimmedTailRe().MatchString(tail(text))
	first, last, numbered := numberedRun(text)
	if numbered && first == 0 {
		// Claude Code 2.1.178 numbers a Read with "offset": 0 from 0
		// (trajectory_pass.json step 10): the labels are one below the
		// file's line numbers.
		first, last = first+1, last+1
	}
	if numbered && !trimmed {
		// Claude Code's structured result says how many lines the model
		// was shown; a transcript that kept fewer (cut short without a
		// marker) under-reports the read.
		if f := c.Meta.Get("file").Object(); f != nil {
			s, okS := f.Get("startLine").AnyInt()
			n, okN := f.Get("numLines").AnyInt()
			if okS && okN && s == first && s+n-1 > last {
				last = s + n - 1
			}
		}
		return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: first, End: last}}
	}
	if f := c.Meta.Get("file").Object(); f != nil {
		switch c.Meta.Get("type").Text() {
		case "text", "":
			s, okS := f.Get("startLine").AnyInt()
			n, okN := f.Get("numLines").AnyInt()
			if okS && okN {
				if n <= 0 {
					return nil
				}
				if s < 1 {
					s = 1
				}
				return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: s + n - 1}}
			}
		case "notebook":
			return []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
		case "image", "pdf":
			return nil
		}
	}
	if numbered {
		r := requested(first)
		if r.Kind == model.ReadRange && r.End < last {
			r.End = last
		}
		if r.Kind == model.ReadRange && r.End < r.Start {
			r.End = last
		}
		if r.Kind != model.ReadRange {
			// The recorder cut a whole or to-the-end view short: the file
			// was shown, and these numbered lines of it for certain (what
			// pins them down without the repository).
			return []model.ObservedRead{r, {File: file, Kind: model.ReadRange, Start: first, End: last}}
		}
		return []model.ObservedRead{r}
	}
	if m := showingRe().FindStringSubmatch(text); m != nil {
		s, _ := strconv.Atoi(m[1])
		e, _ := strconv.Atoi(m[2])
		if s >= 1 && e >= s {
			return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
		}
	}
	// Gemini CLI's read_file since 0.3x: start_line, end_line (1-based,
	// inclusive) instead of offset and limit.
	if s, ok := in.Get("start_line").AnyInt(); ok && !hasOff {
		e, okE := in.Get("end_line").AnyInt()
		switch {
		case okE && s >= 1 && e >= s:
			return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
		case s > 1:
			return []model.ObservedRead{{File: file, Kind: model.ReadFrom, Start: s}}
		}
	}
	if c.HasOutput && strings.TrimSpace(text) != "" && numberedTools[c.Name] {
		// This tool numbers every line it shows: unnumbered output is an
		// error or a warning, not file content.
		return nil
	}
	r := requested(start)
	if r.Kind == model.ReadRange && r.End < r.Start {
		return nil
	}
	if r.Kind == model.ReadWhole && c.HasOutput && !trimmed {
		// A whole file shown as plain text is as long as what was shown:
		// a file read before the run appended to it is its lines then
		// (Gemini CLI's read_file of 18 lines, not the 35 it had later).
		return shownLines(file, text)
	}
	return []model.ObservedRead{r}
}

// shownLines is a whole-file read as what its plain output showed: lines
// 1 to the last shown, or nothing for an empty output.
func shownLines(file, text string) []model.ObservedRead {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: 1, End: strings.Count(text, "\n") + 1}}
}

// sgRead is what a Sourcegraph read_file call displayed: the lines asked
// for (startLine, endLine), or the whole file.
func sgRead(c Call) []model.ObservedRead {
	in := c.Input
	file := in.First("path", "file_path", "file")
	if file == "" || c.IsError {
		return nil
	}
	s, okS := firstOf(in, "startLine", "start_line").AnyInt()
	e, okE := firstOf(in, "endLine", "end_line").AnyInt()
	switch {
	case okS && okE && s >= 1 && e >= s:
		return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
	case okS && s > 1:
		return []model.ObservedRead{{File: file, Kind: model.ReadFrom, Start: s}}
	}
	return []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
}

// manyFileRe is the separator Gemini CLI's read_many_files puts before each
// file's content: "--- path/to/file ---".
var manyFileRe = lazyre.New(`(?m)^--- (\S[^\n]*?) ---$`)

// manyRead is what a read_many_files call displayed: each file its output
// shows whole (the separators name them), else each path it named that is
// not a pattern.
func manyRead(c Call) []model.ObservedRead {
	if c.IsError {
		return nil
	}
	var out []model.ObservedRead
	seen := map[string]bool{}
	add := func(f string) {
		if f != "" && !seen[f] && f != "End of content" {
			seen[f] = true
			out = append(out, model.ObservedRead{File: f, Kind: model.ReadWhole})
		}
	}
	for _, m := range manyFileRe().FindAllStringSubmatch(c.Output, -1) {
		add(m[1])
	}
	if len(out) == 0 && !c.HasOutput {
		for _, p := range c.Input.Get("paths").Items() {
			if s, ok := p.AsString(); ok && !strings.ContainsAny(s, "*?[{") {
				add(s)
			}
		}
	}
	return out
}

// tail is the end of an output where a cut marker can stand: its last
// 128 bytes once trailing space is gone. Matching the marker's pattern
// (anchored at the end) against a whole output tries every position of
// it: half the time of reading a Claude Code session went there.
func tail(text string) string {
	text = strings.TrimRightFunc(text, unicode.IsSpace)
	return text[max(0, len(text)-128):]
}
