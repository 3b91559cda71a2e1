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
	var s Summarizer
	for i := range results {
		s.Add(&results[i])
	}
	return s.Aggregate()
}

// Summarizer aggregates results one at a time, in order, holding only the
// running sums: a batch's summary costs the same for ten rows and ten
// million. Each sum is added to in the order upstream's loops add, so the
// floats are the same.
type Summarizer struct {
	total, valid int
	errors       map[string]int
	// By granularity: the rows counted, their final intersection, gold and
	// prediction sizes, and their AUC and redundancy sums.
	n, inter, gold, pred [4]int
	auc, red             [4]float64
	editLoc              *model.EditLoc
}

// Add counts one result.
func (s *Summarizer) Add(r *model.Result) {
	s.total++
	if r.Error != "" {
		if s.errors == nil {
			s.errors = map[string]int{}
		}
		s.errors[r.Error]++
		return
	}
	s.valid++
	for k, g := range model.Granularities {
		if g == model.GranSymbol && r.SymbolNA {
			continue // not computable: left out, not counted as 0
		}
		s.n[k]++
		m := r.Final.At(g)
		s.inter[k] += m.Intersection
		s.gold[k] += m.GoldSize
		s.pred[k] += m.PredSize
		s.auc[k] += *r.Trajectory.AUCCoverage.At(g)
		s.red[k] += *r.Trajectory.Redundancy.At(g)
	}
	if r.EditLoc != nil {
		if s.editLoc == nil {
			s.editLoc = &model.EditLoc{}
		}
		s.editLoc.Intersection += r.EditLoc.Intersection
		s.editLoc.GoldSize += r.EditLoc.GoldSize
		s.editLoc.PredSize += r.EditLoc.PredSize
	}
}

// Aggregate is the summary of the results added so far.
func (s *Summarizer) Aggregate() Aggregate {
	agg := Aggregate{NumTotal: s.total, NumValid: s.valid, Errors: map[string]int{}}
	for e, n := range s.errors {
		agg.Errors[e] = n
	}
	if s.valid == 0 {
		return agg
	}
	for k, g := range model.Granularities {
		*agg.Final.At(g) = measure(s.inter[k], s.gold[k], s.pred[k])
		if s.n[k] > 0 {
			*agg.AUC.At(g) = s.auc[k] / float64(s.n[k])
			*agg.Redundancy.At(g) = s.red[k] / float64(s.n[k])
		}
	}
	if s.editLoc != nil {
		el := *s.editLoc
		el.Recall = coverage(el.Intersection, el.GoldSize)
		el.Precision = coverage(el.Intersection, el.PredSize)
		agg.EditLoc = &el
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
