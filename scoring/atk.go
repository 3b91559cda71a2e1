package scoring

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// MaxAtK bounds how many k one --at-k asks for, and maxRank each k.
const (
	MaxAtK  = 100
	maxRank = 1_000_000
)

// ParseAtK reads --at-k "1,5,10": positive ranks, sorted, each once.
func ParseAtK(s string) ([]int, error) {
	var ks []int
	for _, f := range strings.Split(s, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 || k > maxRank {
			return nil, fmt.Errorf("--at-k %q: want ranks such as 1,5,10 (each a whole number of at least 1)", s)
		}
		ks = append(ks, k)
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	if len(ks) > MaxAtK {
		return nil, fmt.Errorf("--at-k: %d ranks, more than %d", len(ks), MaxAtK)
	}
	return ks, nil
}

// ScoreAtK is the coverage of the gold by the first k predictions of the
// final context, for each k (model.AtK); nil when the final context names
// nothing of the repository (the row is then an error).
func ScoreAtK(g *model.Gold, pred *model.Prediction, files *FileCache, sem model.Semantics, ks []int) *model.AtK {
	sc := scorer{files, sem}
	final := pred.Final
	if sc.filterStep(final).empty() {
		return nil
	}
	gold := sc.prepareGold(g)
	// The ranking: files as pred_files lists them (then the files only
	// spans name), spans in the order the final context lists them.
	var ranked []string
	seen := map[string]bool{}
	for _, f := range final.Files {
		if r := sc.files.Resolve(f); r != "" && !seen[r] {
			seen[r] = true
			ranked = append(ranked, r)
		}
	}
	var spans []model.FileSpans // one span each, in rank order
	for _, fs := range final.Spans {
		for _, sp := range fs.Spans {
			spans = append(spans, model.FileSpans{File: fs.File, Spans: []model.Interval{sp}})
		}
		if r := sc.files.Resolve(fs.File); r != "" && !seen[r] && sem == model.Fixed {
			seen[r] = true
			ranked = append(ranked, r)
		}
	}
	out := &model.AtK{K: ks}
	for _, k := range ks {
		files := ranked[:min(k, len(ranked))]
		top := sc.sets(sc.filterStep(model.Step{Spans: spans[:min(k, len(spans))]}))
		out.Coverage = append(out.Coverage, model.ByGranularity[float64]{
			File:   coverage(countIn(files, gold), len(gold.Files)),
			Symbol: coverage(top.symbols.intersect(gold.symbols), len(gold.symbols)),
			Span:   coverage(top.bytes.intersect(gold.Bytes), gold.Bytes.total()),
			Line:   coverage(top.lines.intersect(gold.Lines), gold.Lines.total()),
		})
	}
	return out
}
