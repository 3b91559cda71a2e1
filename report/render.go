package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// cell makes untrusted text safe for one markdown table cell: control
// characters made visible, pipes escaped.
func cell(s string) string {
	return strings.ReplaceAll(termsafe.Line(s), "|", `\|`)
}

// table writes a markdown table; align[i] is 'l' or 'r'.
func table(w io.Writer, head []string, align string, rows [][]string) {
	fmt.Fprintf(w, "| %s |\n|", strings.Join(head, " | "))
	for i := range head {
		if i < len(align) && align[i] == 'r' {
			fmt.Fprint(w, "--:|")
		} else {
			fmt.Fprint(w, "---|")
		}
	}
	fmt.Fprintln(w)
	for _, r := range rows {
		fmt.Fprintf(w, "| %s |\n", strings.Join(r, " | "))
	}
	fmt.Fprintln(w)
}

func legend(w io.Writer, lines ...string) {
	for _, l := range lines {
		fmt.Fprintf(w, "- %s\n", l)
	}
	fmt.Fprintln(w)
}

func errorsText(m map[string]int) string {
	if len(m) == 0 {
		return "0"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

func stat(s Stats) string {
	if s.N == 0 {
		return "–"
	}
	return f3(s.Mean)
}

// statCount is a mean of counts (tokens): decimals of a token would be
// noise, so it is rounded to a whole number.
func statCount(s Stats) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", s.Mean)
}

func optF(p *float64) string {
	if p == nil {
		return "–"
	}
	return f3(*p)
}

// WriteMarkdown renders the report as GitHub markdown: tables that paste
// into a paper draft or a pull request, each followed by the definition of
// its columns.
func (r *Report) WriteMarkdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	fmt.Fprintf(w, "# trajscope report\n\n")
	var rows [][]string
	for i, row := range r.Rows {
		rows = append(rows, []string{cell(row.Label), cell(r.Runs[i].Path), r.Runs[i].Format,
			fmt.Sprint(row.Instances), fmt.Sprint(row.Valid), cell(errorsText(row.Errors))})
	}
	table(w, []string{"run", "results file", "format", "instances", "valid", "errors"}, "lllrrl", rows)
	for _, n := range r.Notes() {
		fmt.Fprintf(w, "%s\n\n", cell(n))
	}

	under := r.ScoredUnder()
	if strings.HasSuffix(under, "different lenses") {
		under += ": see the warning above"
	}
	fmt.Fprintf(w, "## Final context (%s)\n\n", under)
	rows = nil
	for _, row := range r.Rows {
		for _, g := range model.Granularities {
			s := row.Final.At(g)
			micro := []string{f3(s.RecallMicro), f3(s.PrecisionMicro), f3(s.F1OfMicro), f3(s.AUC), f3(s.Redundancy)}
			if row.Valid == 0 {
				// Micro and trajectory means are over valid instances.
				micro = []string{"–", "–", "–", "–", "–"}
			}
			rows = append(rows, append([]string{cell(row.Label), g.String(),
				f3(s.RecallMacro), f3(s.PrecisionMacro), f3(s.F1Mean), f3(s.F1OfMacro)}, micro...))
		}
	}
	table(w, []string{"run", "granularity", "R macro", "P macro", "F1 mean", "F1 of macro R,P", "R micro", "P micro", "F1 of micro R,P", "AUC", "redundancy"}, "llrrrrrrrrr", rows)
	legend(w,
		"**R macro**, **P macro**: mean of per-instance coverage (recall) and precision over all instances, error rows counting 0 (ContextBench `scripts/statistics.py`, the leaderboard's averaging).",
		"**F1 mean**: mean of per-instance F1 = 2RP/(R+P) (0 when R = P = 0), error rows counting 0: the leaderboard's F1.",
		"**F1 of macro R,P**: 2RP/(R+P) of the two macro means.",
		"**R micro**, **P micro**: Σ intersection / Σ gold size and Σ intersection / Σ predicted size over valid instances: the evaluator's own summary.",
		"**F1 of micro R,P**: 2RP/(R+P) of the micro values (F1 of aggregate numbers, as in the ContextBench README tables).",
		"**AUC**, **redundancy**: trajectory AUC-coverage and redundancy, mean over valid instances (the evaluator's).",
	)

	fmt.Fprintf(w, "## EditLoc and usage drop\n\n")
	rows = nil
	for _, row := range r.Rows {
		el := []string{"–", "–"}
		if row.EditLoc != nil {
			el = []string{f3(row.EditLoc.Recall), f3(row.EditLoc.Precision)}
		}
		union := "–"
		if row.UnionDrop != nil {
			union = fmt.Sprintf("%s (n=%d)", f3(row.UnionDrop.Mean), row.UnionDrop.N)
		}
		rows = append(rows, []string{cell(row.Label), el[0], el[1],
			stat(row.Final.File.DropLastStep), stat(row.Final.Symbol.DropLastStep), stat(row.Final.Line.DropLastStep),
			stat(row.Final.Line.RecallDrop), union})
	}
	table(w, []string{"run", "EditLoc R", "EditLoc P", "usage drop file (last step)", "usage drop symbol (last step)", "usage drop line (last step)", "recall drop line (last step)", "usage drop line (union, " + r.Lens + ")"}, "lrrrrrrr", rows)
	legend(w,
		"**EditLoc R**, **EditLoc P**: micro over valid instances with a patch; R = Σ hits / Σ gold lines, P = Σ hits / Σ deleted lines (the evaluator's aggregate).",
		"**usage drop (last step)**: per instance 1 − min(final ∩ gold, seen)/seen with seen = last step's coverage × gold size; 1.0 when seen ≤ 0 or the row is an error; mean over all instances (ContextBench `calculate_drop_laststep_to_final_from_alljsonl.py`). From the result rows alone.",
		"**recall drop (last step)**: max(0, last step's coverage − final coverage), mean over valid instances (same script).",
		"**usage drop (union)**: per instance 1 − |final ∩ gold lines| / |gold lines any step showed|, 1.0 when no step showed gold; lines; mean over instances scored by trajscope with analysis (`calculate_evidence_drop.py`). A different quantity from the last-step drop; it can be negative when the final context holds gold no step showed.",
	)

	var diag [][]string
	for _, row := range r.Rows {
		if row.SpanDiagnosis == nil {
			continue
		}
		for _, kind := range []struct {
			name string
			c    *diagnose.Counts
		}{{"gold spans", row.SpanDiagnosis}, {"gold files", row.FileDiagnosis}} {
			line := []string{cell(row.Label), kind.name}
			for c := diagnose.NumCategories - 1; c >= 0; c-- {
				line = append(line, fmt.Sprint(kind.c[c]))
			}
			kept := "–" // files are found whole or not
			if kind.c == row.SpanDiagnosis && row.FoundLines != nil {
				kept = fmt.Sprintf("%d of %d", row.FoundLines.Kept, row.FoundLines.Of)
			}
			diag = append(diag, append(line, fmt.Sprint(kind.c.Total()), kept))
		}
	}
	if len(diag) > 0 {
		fmt.Fprintf(w, "## Why gold was missed (lens %s)\n\n", r.Lens)
		head := []string{"run", "of"}
		for c := diagnose.NumCategories - 1; c >= 0; c-- {
			head = append(head, diagnose.Category(c).String())
		}
		table(w, append(head, "total", "found: lines kept"), "llrrrrrrr", diag)
		legend(w,
			"Counts summed over instances. **found**: any of the span's lines in the final context, so **found: lines kept** says how many of the found spans' lines it kept; **read then dropped**: shown during the run, absent from the final context; **near miss**: the file was shown but not these lines; **searched, not read**: only a search listed the file; **never opened**. Files have no near miss.",
		)
	}

	var irRows, utilRows [][]string
	for _, row := range r.Rows {
		s := row.IR
		if s == nil {
			continue
		}
		irRows = append(irRows, []string{cell(row.Label), fmt.Sprint(s.N), stat(s.MRR), stat(s.MAP), stat(s.NDCG[3]),
			stat(s.Precision[0]), stat(s.Precision[2]), stat(s.Recall[2]), stat(s.Recall[3]), stat(s.F1[2]),
			stat(s.FileRecall), stat(s.ContextEfficiency), stat(s.TTFRStep), stat(s.TTFRSeconds), statCount(s.TTFRTokens)})
		utilRows = append(utilRows, []string{cell(row.Label), stat(s.ReadOverlap), stat(s.WriteOverlap), stat(s.ReadBeforeWrite),
			stat(s.IrrelevantRetrieval), stat(s.MissedKeyEvidence), stat(s.WrongEvidenceUsed), stat(s.UnusedCorrectRetrieval), stat(s.AmbiguityNearMiss),
			candidateSets(s.CandidateSets)})
	}
	if len(irRows) > 0 {
		fmt.Fprintf(w, "## File ranking (CodeScaleBench IR metrics, lens %s)\n\n", r.Lens)
		table(w, []string{"run", "n", "MRR", "MAP", "nDCG@10", "P@1", "P@5", "R@5", "R@10", "F1@5", "file recall", "context efficiency", "TTFR (actions)", "TTFR (s)", "TTFR (tokens)"}, "lrrrrrrrrrrrrrr", irRows)
		table(w, []string{"run", "read overlap", "write overlap", "read before write", "irrelevant retrieval", "missed key evidence", "wrong evidence used", "unused correct retrieval", "ambiguity near miss", "candidate sets"}, "lrrrrrrrrl", utilRows)
		legend(w,
			"Means over instances whose gold names files (**n**). The ranked list is the run's files in first-seen order; relevant = the gold files.",
			"**P@k** = relevant in the top k / k; **R@k** = relevant in the top k / |gold files|; **F1@k** their harmonic mean; **MRR** = 1/rank of the first relevant file; **nDCG@10** with binary gains; **MAP** = Σ precision at each relevant rank / |gold files|; **file recall** = gold files retrieved anywhere / |gold files|; **context efficiency** = relevant / retrieved.",
			"**TTFR**: actions before, seconds since the first timestamped action, and tokens up to and including the first action that retrieved a gold file (instances where one did).",
			"**read overlap** = gold files displayed / |gold files|; **write overlap** = gold files edited / |gold files|; **read before write** = share of edited files read or searched before their first edit (instances that edited).",
			"Error taxonomy, mean files per instance: **irrelevant retrieval** = retrieved − gold; **missed key evidence** = gold − retrieved; **wrong evidence used** = edited − gold; **unused correct retrieval** = (retrieved ∩ gold) − edited; **ambiguity near miss** = irrelevant files in a gold file's directory. **candidate sets**: instances with ≤5 (small), ≤20 (medium) or more (large) retrieved files.",
		)
	}

	if r.Cost != nil {
		r.writeCostMarkdown(w)
	}
	if r.AtK != nil {
		r.writeAtKMarkdown(w)
	}
	if r.Groups != nil {
		r.writeGroupsMarkdown(w)
	}
	if r.Missed != nil {
		r.writeMissedMarkdown(w)
	}
	if r.Compare != nil {
		r.writeCompareMarkdown(w)
	}
	if r.Impact != nil {
		r.writeImpactMarkdown(w)
	}
	if r.Instances != nil {
		r.writeInstancesMarkdown(w)
	}
	return w.Flush()
}

func candidateSets(m map[string]int) string {
	var parts []string
	for _, k := range []string{"small", "medium", "large"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
		}
	}
	return strings.Join(parts, ", ")
}

func (r *Report) writeCompareMarkdown(w io.Writer) {
	c := r.Compare
	fmt.Fprintf(w, "## %s vs %s (matched instances)\n\n", cell(c.B), cell(c.A))
	fmt.Fprintf(w, "Matched (valid in both): %d. Only in %s: %d; only in %s: %d. Error rows among shared instances: %s %d, %s %d.\n\n",
		c.Matched, cell(c.A), c.OnlyA, cell(c.B), c.OnlyB, cell(c.A), c.ErrorA, cell(c.B), c.ErrorB)
	if c.ScoredUnder[0] != c.ScoredUnder[1] {
		fmt.Fprintf(w, "**Warning**: %s was scored under the %s lens and %s under the %s lens: the differences below mix lenses.\n\n", cell(c.A), c.ScoredUnder[0], cell(c.B), c.ScoredUnder[1])
	}
	for k, label := range [2]string{c.A, c.B} {
		if c.StandIn[k] > 0 {
			fmt.Fprintf(w, "**Marked**: %d of %s's %d matched instances declared no final context; the union of their steps stands in (everything the run looked at counts as found).\n\n", c.StandIn[k], cell(label), c.Matched)
		}
	}
	var rows [][]string
	for _, d := range c.Metrics {
		if d.N == 0 {
			continue
		}
		rows = append(rows, []string{d.Metric, fmt.Sprint(d.N), f3(d.MeanA), f3(d.MeanB), signed(d.MeanDelta),
			fmt.Sprintf("[%s, %s]", signed(d.CILow), signed(d.CIHigh)), pValue(d.PValue, d.Test),
			signed(d.MedianDelta), f3(d.IQR), fmt.Sprintf("%d / %d / %d", d.Positive, d.Negative, d.Zero)})
	}
	if len(rows) == 0 {
		// A header over nothing and "no correction for testing 0
		// metrics" would read as a comparison that found no difference.
		fmt.Fprintf(w, "Nothing to compare: no matched instance has a metric in both %s and %s.\n\n", cell(c.A), cell(c.B))
		return
	}
	table(w, []string{"metric", "n", "mean " + cell(c.A), "mean " + cell(c.B), "mean Δ", fmt.Sprintf("%g %% CI of mean Δ", 100*c.Confidence), "p", "median Δ", "IQR of Δ", "+ / − / 0"}, "lrrrrrrrrl", rows)
	legend(w,
		fmt.Sprintf("Δ = %s − %s per matched instance; **n** counts matched instances with the metric in both (EditLoc needs a patch, the union drop and IR metrics need `score --format json` results). IQR = sorted Δ[3n/4] − sorted Δ[n/4] (CodeScaleBench's matched comparison).", cell(c.B), cell(c.A)),
		fmt.Sprintf("**CI**: percentile bootstrap interval of the mean Δ, %d resamples of the matched pairs with replacement, seed %d (`--seed`); the same seed gives the same figures.", c.Resamples, c.Seed),
		fmt.Sprintf("**p**: %s, H0 = B and A are exchangeable within each pair: exact over all 2^k sign assignments of the k non-zero Δ when k ≤ %d, otherwise %d random assignments with p = (count+1)/(draws+1) (marked †). One test per metric, no correction for testing %d metrics.", PairedTestName, ExactSignFlipMax, c.Resamples, len(rows)),
		"Per-instance values are the evaluator's: recall/precision = final coverage/precision; F1 = 2RP/(R+P) per instance; AUC = trajectory AUC-coverage; usage drops as defined above.",
	)
	if r.Instances == nil {
		return
	}
	var pick []int
	for k, d := range c.Metrics {
		if strings.HasSuffix(d.Metric, " F1") || d.Metric == "line AUC" || d.Metric == "line usage drop (last step)" {
			pick = append(pick, k)
		}
	}
	head := []string{"instance"}
	for _, k := range pick {
		head = append(head, "Δ "+c.Metrics[k].Metric)
	}
	rows = nil
	for _, in := range c.PerInstance {
		line := []string{cell(in.InstanceID)}
		for _, k := range pick {
			if in.Has[k] {
				line = append(line, signed(in.Delta[k]))
			} else {
				line = append(line, "–")
			}
		}
		rows = append(rows, line)
	}
	table(w, head, "l"+strings.Repeat("r", len(pick)), rows)
}

// pValue shows a p-value to three decimals (small ones in scientific
// form), a dagger marking a Monte Carlo one.
func pValue(p float64, test string) string {
	s := f3(p)
	if p < 0.001 {
		s = fmt.Sprintf("%.1e", p)
	}
	if test == TestSignFlipMonteCarlo {
		s += " †"
	}
	return s
}

// signed shows a delta with its sign; one that rounds to zero is "0.000",
// never "-0.000".
func signed(v float64) string {
	s := f3(v)
	switch {
	case s == "0.000" || s == "-0.000":
		return "0.000"
	case v > 0:
		return "+" + s
	}
	return s
}

func (r *Report) writeInstancesMarkdown(w io.Writer) {
	fmt.Fprintf(w, "## Per instance\n\n")
	head := []string{"run", "instance", "error"}
	for _, g := range model.Granularities {
		head = append(head, g.String()+" R", g.String()+" P", g.String()+" F1") // e.g. "line R"
	}
	head = append(head, "line AUC", "usage drop line (last step)", "usage drop line (union)", "MRR", "gold spans found")
	var rows [][]string
	for _, in := range r.Instances {
		line := []string{cell(in.Run), cell(in.InstanceID), cell(in.Error)}
		for _, g := range model.Granularities {
			if in.Error != "" {
				line = append(line, "–", "–", "–")
				continue
			}
			line = append(line, f3(*in.Recall.At(g)), f3(*in.Precision.At(g)), f3(*in.F1.At(g)))
		}
		auc := "–"
		if in.Error == "" {
			auc = f3(in.AUC.Line)
		}
		found := "–"
		if c := in.SpanDiagnosis; c != nil {
			found = fmt.Sprintf("%d/%d", c[diagnose.Found], c.Total())
		}
		line = append(line, auc, f3(in.DropLastStep.Line), optF(in.UnionDrop), optF(in.MRR), found)
		rows = append(rows, line)
	}
	table(w, head, "lll"+strings.Repeat("r", len(head)-3), rows)
}

// WriteJSON writes the whole report as one JSON document.
func (r *Report) WriteJSON(w io.Writer) error {
	doc := struct {
		Lens        string        `json:"lens"`
		Notes       []string      `json:"notes"`
		Runs        []Row         `json:"runs"`
		PerInstance []InstanceRow `json:"per_instance,omitempty"`
		Compare     *Paired       `json:"compare,omitempty"`
		Cost        *CostTable    `json:"cost_vs_coverage,omitempty"`
		Groups      *Grouping     `json:"groups,omitempty"`
		Missed      *MissedGold   `json:"missed_gold,omitempty"`
		AtK         *AtKTable     `json:"coverage_at_k,omitempty"`
		Impact      *Impact       `json:"downstream_impact,omitempty"`
	}{r.Lens, r.Notes(), r.Rows, r.Instances, r.Compare, r.Cost, r.Groups, r.Missed, r.AtK, r.Impact}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(b), '\n'))
	return err
}
