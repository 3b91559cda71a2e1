package groundtruth

import (
	"regexp"
	"strings"
)

// Harbor and CodeScaleBench decorate task names: the
// trial mcp_ccx-dep-trace-002_q04bku__6z2d9CA ran the task whose ground
// truth is keyed ccx-dep-trace-002 (task_spec id "CCX-dep-trace-002").
var (
	trialSuffixRe  = regexp.MustCompile(`__[A-Za-z0-9]{7}$`)                         // Harbor trial hash
	tokenSuffixRe  = regexp.MustCompile(`_[a-z0-9]{6}$`)                             // CodeScaleBench run token
	repeatSuffixRe = regexp.MustCompile(`_[0-9]{1,3}$`)                              // repeated trial number
	configPrefixRe = regexp.MustCompile(`^(?i:mcp|baseline|ccb|sg|sourcegraph)[_-]`) // config or suite prefix
)

// TaskKey is the comparison key of a task name: lower case, "_" and "-"
// runs as one "-". It does not strip decorations (Match does).
func TaskKey(name string) string { return FoldSeparators(strings.TrimSpace(name)) }

// FoldSeparators lower-cases s and turns every run of "-" and "_" into one
// "-", dropping leading runs: ids written with either separator compare
// equal.
func FoldSeparators(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	sep := false
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == '_' {
			sep = true
			continue
		}
		if sep && b.Len() > 0 {
			b.WriteByte('-')
		}
		sep = false
		b.WriteRune(r)
	}
	return b.String()
}

// Stems returns name and the names left after stripping run decorations
// (trial hash, run token, trial number, config prefix), fewest strips
// first.
func Stems(name string) []string {
	out := []string{name}
	seen := map[string]bool{name: true}
	for i := 0; i < len(out) && len(out) < 32; i++ {
		cur := out[i]
		for _, re := range []*regexp.Regexp{trialSuffixRe, tokenSuffixRe, repeatSuffixRe, configPrefixRe} {
			loc := re.FindStringIndex(cur)
			if loc == nil || (loc[0] == 0 && loc[1] == len(cur)) {
				continue
			}
			next := cur[:loc[0]] + cur[loc[1]:]
			if next != "" && !seen[next] {
				seen[next] = true
				out = append(out, next)
			}
		}
	}
	return out
}

// Match finds the truth for a run's task name: an exact id first, then the
// stems of the name compared by TaskKey. A key two truths share is
// ambiguous and matches nothing.
func Match(ts []Truth, runID string) (*Truth, bool) {
	if runID == "" {
		return nil, false
	}
	for i := range ts {
		if ts[i].ID == runID {
			return &ts[i], true
		}
	}
	byKey := map[string][]int{}
	for i := range ts {
		if ts[i].ID != "" {
			k := TaskKey(ts[i].ID)
			byKey[k] = append(byKey[k], i)
		}
	}
	for _, s := range Stems(runID) {
		if idx := byKey[TaskKey(s)]; len(idx) == 1 {
			return &ts[idx[0]], true
		}
	}
	return nil, false
}
