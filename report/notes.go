package report

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Notes are what a reader must know before trusting the report's means:
// the lens its rows were scored under (and a mix of lenses, which makes the
// runs incomparable), finals that are the union of a run's steps rather
// than one it declared, and rows that failed for want of the repository
// (counted 0 recall) or were left out (--skip-infra). Every format shows
// them: markdown under its first table, JSON as "notes".
func (r *Report) Notes() []string {
	var out []string
	under := map[string][]string{}
	var order []string
	for _, row := range r.Rows {
		if _, ok := under[row.ScoredUnder]; !ok {
			order = append(order, row.ScoredUnder)
		}
		under[row.ScoredUnder] = append(under[row.ScoredUnder], row.Label)
	}
	switch {
	case len(order) == 1 && order[0] == model.LensContextBench.String():
		out = append(out, "Scored under the contextbench lens: the evaluator's rows.")
	case len(order) == 1:
		out = append(out, fmt.Sprintf("Scored under the %s lens (the rows say so).", order[0]))
	case len(order) > 1:
		var parts []string
		for _, l := range order {
			parts = append(parts, fmt.Sprintf("%s: %s", l, strings.Join(under[l], ", ")))
		}
		out = append(out, "Warning: the runs were scored under different lenses ("+strings.Join(parts, "; ")+"); their figures are not comparable.")
	}
	for _, row := range r.Rows {
		if row.FinalStandIn > 0 {
			out = append(out, fmt.Sprintf("%s: %d of %d rows declared no final context; the union of their steps stands in for it (observed lens), crediting everything the run looked at.",
				row.Label, row.FinalStandIn, row.Instances))
		}
		if n := row.Errors[scoring.ErrCheckoutFailed]; n > 0 {
			out = append(out, fmt.Sprintf("Warning: %d of %d rows of %s failed for want of the repository (checkout_failed), an infrastructure failure: every mean counts them as 0 recall and 1.0 usage drop; report --skip-infra leaves them out.",
				n, row.Instances, row.Label))
		}
		if row.LeftOut > 0 {
			out = append(out, fmt.Sprintf("Left out (--skip-infra): %s of %s that failed for want of the repository; its figures are over the other %d.",
				display.Count(row.LeftOut, "row"), row.Label, row.Instances))
		}
	}
	return out
}

// ScoredUnder names the lens the report's rows were scored under, for a
// table's heading: one lens, or a pointer to the notes when they differ.
func (r *Report) ScoredUnder() string {
	l := ""
	for _, row := range r.Rows {
		switch {
		case l == "":
			l = row.ScoredUnder
		case l != row.ScoredUnder:
			return "rows scored under different lenses"
		}
	}
	if l == "" || l == "mixed" {
		return "rows scored under different lenses"
	}
	return "rows scored under the " + l + " lens"
}
