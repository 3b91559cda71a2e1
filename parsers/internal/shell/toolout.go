package shell

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// Readers of what the file viewers and search tools of SWE-agent and
// OpenHands print, which both formats' timelines read.

// NumberedReads turns the numbers of the lines of an observation numbered
// as num says into reads of file: one range per run of consecutive
// numbers, repeats inside a run ignored. Formats whose viewers print
// numbered lines (SWE-agent windows, OpenHands cat -n) use it to take what
// was shown from the output itself.
func NumberedReads(file, obs string, num observed.Numbering) []model.ObservedRead {
	var reads []model.ObservedRead
	for _, n := range num.Lines(obs) {
		if n < 1 {
			continue
		}
		if k := len(reads) - 1; k >= 0 && n == reads[k].End+1 {
			reads[k].End = n
			continue
		}
		if k := len(reads) - 1; k >= 0 && n >= reads[k].Start && n <= reads[k].End {
			continue
		}
		reads = append(reads, model.ObservedRead{File: file, Kind: model.ReadRange, Start: n, End: n})
	}
	return reads
}

// LineReads turns search hits that name a line into the reads their
// output displayed: a search that prints each matching line ("Line 12:
// text", "path:12:text") shows those lines, as grep -n does. Consecutive
// lines of a file join into one range; hits without a line show none.
func LineReads(hits []model.SearchHit) []model.ObservedRead {
	var reads []model.ObservedRead
	for _, h := range hits {
		if h.File == "" || h.Line < 1 {
			continue
		}
		if k := len(reads) - 1; k >= 0 && reads[k].File == h.File && reads[k].End+1 == h.Line {
			reads[k].End = h.Line
			continue
		}
		reads = append(reads, model.ObservedRead{File: h.File, Kind: model.ReadRange, Start: h.Line, End: h.Line})
	}
	return reads
}

// SearchOutput is how an agent's search_file, search_dir and find_file
// tools print their results: a header naming where the search ran, one
// line per match, and a line ending the matches.
type SearchOutput struct {
	// Header matches the header line; its second group is where the search
	// ran (the file, for search_file).
	Header *regexp.Regexp
	// End begins the line that ends the matches.
	End string
	// DirMatch matches a search_dir result line: the file, then the line
	// number when the tool prints one.
	DirMatch *regexp.Regexp
}

// fileMatchRe is a search_file result line.
var fileMatchRe = lazyre.New(`(?m)^Line (\d+):`)

// Hits reads the output obs of the search tool named tool as search hits.
func (s SearchOutput) Hits(tool, obs string) []model.SearchHit {
	hdr := s.Header.FindStringSubmatchIndex(obs)
	if hdr == nil {
		return nil
	}
	where := obs[hdr[4]:hdr[5]]
	body := obs[hdr[1]:]
	if i := strings.Index(body, "\n"+s.End); i >= 0 {
		body = body[:i]
	}
	var hits []model.SearchHit
	switch tool {
	case "search_file":
		for _, m := range fileMatchRe().FindAllStringSubmatch(body, -1) {
			n, _ := strconv.Atoi(m[1])
			hits = append(hits, model.SearchHit{File: where, Line: n})
		}
	case "search_dir":
		for _, m := range s.DirMatch.FindAllStringSubmatch(body, -1) {
			h := model.SearchHit{File: m[1]}
			if len(m) > 2 {
				h.Line, _ = strconv.Atoi(m[2])
			}
			hits = append(hits, h)
		}
	case "find_file":
		for _, l := range strings.Split(body, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				hits = append(hits, model.SearchHit{File: l})
			}
		}
	}
	return hits
}
