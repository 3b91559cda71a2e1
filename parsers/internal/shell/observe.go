package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

var (
	// grepPathLineRe matches "path:N:text" grep output.
	grepPathLineRe = lazyre.New(`^([^\s:][^:]*?):(\d{1,9}):`)
	// grepLineRe matches "N:text" grep output (one file, no name).
	grepLineRe = lazyre.New(`^(\d{1,9}):`)
	// missingRe matches the errors of a command asked to show a file that is
	// not there.
	missingRe = lazyre.New(`No such file or directory|Is a directory|cannot open|can't open|cannot access`)
)

func obsLines(obs string) []string {
	lines := strings.Split(obs, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// numberedLines returns the line numbers shown by numbered output lines, in
// output order.
func numberedLines(lines []string) []int {
	var nums []int
	for _, l := range lines {
		if n, _, ok := observed.Listing.Line(l); ok && n > 0 { // line numbers start at 1
			nums = append(nums, n)
		}
	}
	return nums
}

// lineRun is a run of consecutive line numbers shown in output order.
type lineRun struct{ lo, hi int }

func makeRuns(nums []int) []lineRun {
	var runs []lineRun
	for _, n := range nums {
		if k := len(runs); k > 0 && n == runs[k-1].hi+1 {
			runs[k-1].hi = n
			continue
		}
		runs = append(runs, lineRun{n, n})
	}
	return runs
}

// fits reports whether a run of numbered lines can belong to a read.
func fits(r lineRun, rd model.ObservedRead) bool {
	switch rd.Kind {
	case model.ReadHead:
		return r.lo <= rd.End
	case model.ReadRange:
		return r.lo <= rd.End && r.hi >= rd.Start
	case model.ReadFrom:
		return r.hi >= rd.Start
	}
	return true
}

// clip narrows a run to what the read asked for.
func clip(r lineRun, rd model.ObservedRead) lineRun {
	switch rd.Kind {
	case model.ReadHead:
		r.hi = min(r.hi, rd.End)
	case model.ReadRange:
		r.lo = max(r.lo, rd.Start)
		r.hi = min(r.hi, rd.End)
	case model.ReadFrom:
		r.lo = max(r.lo, rd.Start)
	}
	return r
}

// ConfirmFromObservation refines r with the command's output obs:
//   - a numbered view (nl -ba, cat -n) becomes the line runs the output really
//     shows, in the order the reads were made; when none appear, nothing was
//     displayed and the read is dropped;
//   - a read whose file an error line names ("No such file or directory",
//     "Is a directory") is dropped;
//   - grep -n output lines become search hits with lines and single-line
//     reads (consecutive lines merged); grep over numbered output does the
//     same with the numbers shown;
//   - listings (find, ls, grep -l, fd) become search hits.
//
// An empty obs says nothing, so r is returned unchanged. The result is
// already confirmed: confirming it again changes nothing.
func ConfirmFromObservation(r Result, obs string) Result {
	if strings.TrimSpace(obs) == "" {
		return r
	}
	lines := obsLines(obs)
	c := &confirmer{
		out: Result{Category: r.Category, Edits: append([]string(nil), r.Edits...), Changes: r.Changes,
			tools: r.tools, printing: r.printing},
		seenHit: map[model.SearchHit]bool{},
	}
	for _, h := range r.Searches {
		c.addHit(h)
	}
	c.out.Reads = confirmReads(r, lines)
	if body, ok := observed.PlainBody(obs); ok {
		c.out.Reads = shownOf(r, c.out.Reads, body)
	}
	for _, sp := range r.specs {
		c.readSpec(sp, lines)
	}
	c.out.Reads = append(c.out.Reads, c.found...)
	c.out.numbered = make([]bool, len(c.out.Reads))
	return c.out
}

// ConfirmRecorded is ConfirmFromObservation for a format that records
// every command's output: an empty one says the command printed nothing,
// so it showed no file ("cat missing 2>/dev/null | head").
func ConfirmRecorded(r Result, obs string) Result {
	if strings.TrimSpace(obs) == "" {
		r.Reads, r.numbered = nil, nil
		return r
	}
	return ConfirmFromObservation(r, obs)
}

// shownOf narrows reads to what the command's plain output body showed:
// nothing when it printed nothing, or only the error lines of its own
// commands (a pipeline that failed before showing anything: "sed -n
// '270,300p' f | cat -A" answered "cat: illegal option -- A"); a whole
// file shown by the command's only printing pipeline is as long as what
// it printed ("cat f 2>&1" that printed one line is line 1).
func shownOf(r Result, reads []model.ObservedRead, body string) []model.ObservedRead {
	if strings.TrimSpace(body) == "" || onlyErrors(body, r.tools) {
		return nil
	}
	if len(reads) == 1 && len(r.Reads) == 1 && reads[0].Kind == model.ReadWhole && r.printing == 1 &&
		!(len(r.numbered) > 0 && r.numbered[0]) && !cutShort(body) {
		n := strings.Count(strings.TrimSuffix(body, "\n"), "\n") + 1
		return []model.ObservedRead{{File: reads[0].File, Kind: model.ReadRange, Start: 1, End: n}}
	}
	return reads
}

// onlyErrors reports output whose every line is an error or usage line of
// one of the commands run (by name), or of the shell.
func onlyErrors(body string, tools []string) bool {
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if strings.HasPrefix(l, "usage: ") || strings.HasPrefix(l, "Usage: ") || strings.HasPrefix(l, "Try '") {
			continue
		}
		name, _, ok := strings.Cut(l, ": ")
		if !ok || !(slices.Contains(tools, path.Base(name)) || strings.HasSuffix(name, "sh") && strings.Contains(l, ": line ")) {
			return false
		}
	}
	return true
}

// cutShort reports output a recorder cut short with a marker of its own.
func cutShort(body string) bool {
	for _, m := range []string{"truncated]", "[truncated", "lines truncated", "[... omitted", "Total output lines:", "<response clipped>"} {
		if strings.Contains(body, m) {
			return true
		}
	}
	return false
}

// confirmReads keeps the reads the output confirms: a numbered view becomes
// the runs of numbered lines shown, and a read whose file an error names is
// dropped.
func confirmReads(r Result, lines []string) []model.ObservedRead {
	var reads []model.ObservedRead
	runs := makeRuns(numberedLines(lines))
	j := 0
	for i, rd := range r.Reads {
		if i < len(r.numbered) && r.numbered[i] {
			prevHi := 0
			for j < len(runs) && fits(runs[j], rd) {
				if prevHi > 0 && runs[j].lo <= prevHi {
					break // the numbers went back: the next file's output
				}
				c := clip(runs[j], rd)
				prevHi = runs[j].hi
				j++
				if c.lo <= c.hi {
					reads = append(reads, model.ObservedRead{File: rd.File, Kind: model.ReadRange, Start: c.lo, End: c.hi})
				}
			}
			continue
		}
		if reportsMissing(lines, rd.File) {
			continue
		}
		reads = append(reads, rd)
	}
	return reads
}

// confirmer builds a confirmed result: its search hits, once each, and the
// single-line reads the search output shows (found).
type confirmer struct {
	out     Result
	seenHit map[model.SearchHit]bool
	found   []model.ObservedRead
}

func (c *confirmer) addHit(h model.SearchHit) {
	if h.File != "" && !c.seenHit[h] {
		c.seenHit[h] = true
		c.out.Searches = append(c.out.Searches, h)
	}
}

// addLine records a line a search showed: a hit and a one-line read,
// merged with the read before when consecutive.
func (c *confirmer) addLine(file string, n int) {
	if file == "" || n < 1 {
		return
	}
	c.addHit(model.SearchHit{File: file, Line: n})
	if k := len(c.found) - 1; k >= 0 && c.found[k].File == file && c.found[k].End+1 == n {
		c.found[k].End = n
		return
	}
	c.found = append(c.found, model.ObservedRead{File: file, Kind: model.ReadRange, Start: n, End: n})
}

// readSpec reads the output lines the way sp says the command printed them.
func (c *confirmer) readSpec(sp obsSpec, lines []string) {
	switch sp.kind {
	case specNumbered:
		for _, l := range lines {
			if n, _, ok := observed.Listing.Line(l); ok {
				c.addLine(sp.file, n)
			}
		}
	case specGrep:
		for _, l := range lines {
			c.grepLine(sp, l)
		}
	case specList:
		for _, l := range lines {
			l = strings.TrimSpace(l)
			if isPathLike(l) && l != "." && l != ".." {
				c.addHit(model.SearchHit{File: joinPath(sp.dir, l)})
			}
		}
	}
}

// grepLine reads one line of grep output.
func (c *confirmer) grepLine(sp obsSpec, l string) {
	if sp.file != "" {
		if m := grepLineRe().FindStringSubmatch(l); m != nil && sp.lineNumbers {
			n, _ := atoi(m[1])
			c.addLine(sp.file, n+sp.offset)
		}
		return
	}
	if m := grepPathLineRe().FindStringSubmatch(l); m != nil && sp.lineNumbers {
		n, _ := atoi(m[2])
		c.addLine(joinPath(sp.dir, m[1]), n)
		return
	}
	if !sp.lineNumbers {
		// "path:text"; "grep: x: Is a directory" names no path.
		if p, _, ok := strings.Cut(l, ":"); ok && isPathLike(p) && strings.ContainsAny(p, "./") {
			c.addHit(model.SearchHit{File: joinPath(sp.dir, p)})
		}
	}
}

// isPathLike accepts a bare path as listing output prints it.
func isPathLike(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, " \t<>\"'|*?") || strings.HasSuffix(s, ":") {
		return false
	}
	return true
}

// reportsMissing reports an error line naming the file.
func reportsMissing(lines []string, file string) bool {
	base := path.Base(file)
	for _, l := range lines {
		// The cheap test first: most lines do not name the file.
		if strings.Contains(l, base) && missingRe().MatchString(l) {
			return true
		}
	}
	return false
}
