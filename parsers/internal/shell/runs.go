package shell

import (
	"regexp"
	"strconv"

	"github.com/trajscope/trajscope/model"
)

// NumberedReads turns the line numbers that re (whose first group is the
// number) finds in an observation into reads of file: one range per run of
// consecutive numbers, repeats inside a run ignored. Formats whose viewers
// print numbered lines (SWE-agent windows, OpenHands cat -n) use it to take
// what was shown from the output itself.
func NumberedReads(file, obs string, re *regexp.Regexp) []model.ObservedRead {
	var reads []model.ObservedRead
	for _, m := range re.FindAllStringSubmatch(obs, -1) {
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 {
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
