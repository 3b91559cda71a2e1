package scoring

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// Aggregate is upstream aggregate_results: micro averages for the final
// context and EditLoc, macro averages for the trajectory metrics, errors
// excluded.
type Aggregate struct {
	NumValid, NumTotal int
	// Final holds micro coverage/precision (Σintersection / Σsize).
	Final model.ByGranularity[model.Measure]
	// AUC and Redundancy are means over valid instances.
	AUC, Redundancy model.ByGranularity[float64]
	// EditLoc is nil when no valid result has EditLoc; its recall is
	// Σhits/Σgold_size, unlike the per-instance hits/pred_size.
	EditLoc *model.EditLoc
	// Errors counts error rows by error value.
	Errors map[string]int
}

// Summarize aggregates results in order.
func Summarize(results []model.Result) Aggregate {
	agg := Aggregate{NumTotal: len(results), Errors: map[string]int{}}
	var valid []*model.Result
	for i := range results {
		if results[i].Error != "" {
			agg.Errors[results[i].Error]++
			continue
		}
		valid = append(valid, &results[i])
	}
	agg.NumValid = len(valid)
	if len(valid) == 0 {
		return agg
	}
	for _, g := range model.Granularities {
		var inter, gold, pred, n int
		aucSum, redSum := 0.0, 0.0
		for _, r := range valid {
			if g == model.GranSymbol && r.SymbolNA {
				continue // not computable: left out, not counted as 0
			}
			n++
			m := r.Final.At(g)
			inter += m.Intersection
			gold += m.GoldSize
			pred += m.PredSize
			aucSum += *r.Trajectory.AUCCoverage.At(g)
			redSum += *r.Trajectory.Redundancy.At(g)
		}
		*agg.Final.At(g) = measure(inter, gold, pred)
		if n > 0 {
			*agg.AUC.At(g) = aucSum / float64(n)
			*agg.Redundancy.At(g) = redSum / float64(n)
		}
	}
	var el *model.EditLoc
	for _, r := range valid {
		if r.EditLoc == nil {
			continue
		}
		if el == nil {
			el = &model.EditLoc{}
		}
		el.Intersection += r.EditLoc.Intersection
		el.GoldSize += r.EditLoc.GoldSize
		el.PredSize += r.EditLoc.PredSize
	}
	if el != nil {
		el.Recall = coverage(el.Intersection, el.GoldSize)
		el.Precision = coverage(el.Intersection, el.PredSize)
		agg.EditLoc = el
	}
	return agg
}

// WriteSummary prints the stderr block upstream prints after a run, byte for
// byte.
func WriteSummary(w io.Writer, agg Aggregate) {
	rule := strings.Repeat("=", 70)
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s\nEVALUATION: %d/%d instances\n%s\n", rule, agg.NumValid, agg.NumTotal, rule)
	if len(agg.Errors) > 0 {
		keys := make([]string, 0, len(agg.Errors))
		for k := range agg.Errors {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s=%d", k, agg.Errors[k])
		}
		fmt.Fprintf(&b, "errors: %s\n", strings.Join(parts, " "))
	}
	if agg.NumValid > 0 {
		for _, g := range model.Granularities {
			m := agg.Final.At(g)
			fmt.Fprintf(&b, "%-8s Coverage=%.3f Precision=%.3f\n", g, m.Coverage, m.Precision)
			fmt.Fprintf(&b, "         AUC=%.3f Redundancy=%.3f\n", *agg.AUC.At(g), *agg.Redundancy.At(g))
		}
		if agg.EditLoc != nil {
			fmt.Fprintf(&b, "\nEditLoc: Recall=%.3f Precision=%.3f\n", agg.EditLoc.Recall, agg.EditLoc.Precision)
		}
	}
	b.WriteString(rule + "\n")
	io.WriteString(w, b.String())
}
