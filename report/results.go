package report

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

// Results is what one `score` run produced: a row per instance in input
// order, trajscope's analysis of each (nil for error rows, or all nil when
// only the upstream rows were computed), and the aggregate.
type Results struct {
	Rows      []model.Result
	Extras    []*Extras
	Aggregate scoring.Aggregate
	Semantics model.Semantics
}

// NewResults builds Results, computing each analysed instance's extras
// from its story.
func NewResults(rows []model.Result, stories []*story.Story, sem model.Semantics) *Results {
	r := &Results{Rows: rows, Aggregate: scoring.Summarize(rows), Semantics: sem}
	if stories != nil {
		r.Extras = make([]*Extras, len(stories))
		for i, st := range stories {
			if st != nil {
				r.Extras[i] = NewExtras(st)
				// The row's own F1: under the observed lens its final
				// context can differ from the evaluator's.
				r.Extras[i].setF1(&rows[i])
				r.Extras[i].ParseGaveUp = rows[i].ParseGaveUp
			}
		}
	}
	return r
}

// SetTasks records each row's language and benchmark split from its gold,
// instances being the batch the rows were scored from (one row each, in
// order). An error row whose task or run is known gets extras too, so
// tables per language count it where it belongs (as 0, like every error
// row). Without analysis (no extras at all) there is nothing to add to.
func (r *Results) SetTasks(instances []scoring.Instance) {
	if r.Extras == nil {
		return
	}
	for i := range min(len(instances), len(r.Extras)) {
		in := &instances[i]
		e := r.Extras[i]
		if e == nil {
			if in.Gold == nil && (in.Run == nil || in.Run.Agent == "" && in.Run.Model == "") {
				continue
			}
			e = &Extras{Semantics: r.Semantics.String()}
			if in.Run != nil {
				o := story.OutcomeOf(in.Run)
				e.runInfo(in.Run, &o)
			}
			r.Extras[i] = e
		}
		if in.Gold != nil {
			e.Language, e.Source = in.Gold.Language, in.Gold.Source
		}
	}
}

// WriteJSONL writes the upstream per-instance rows, one JSON line each: the
// --out file, byte-identical to the reference evaluator's under its semantics.
func (r *Results) WriteJSONL(w io.Writer) error {
	var buf []byte
	for i := range r.Rows {
		buf = scoring.AppendResultJSON(buf[:0], &r.Rows[i], r.Semantics)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// extras returns instance i's analysis, nil when there is none.
func (r *Results) extras(i int) *Extras {
	if i < len(r.Extras) {
		return r.Extras[i]
	}
	return nil
}

// run wraps the results as a report run, so the text and JSON summaries use
// the same definitions as `trajscope report`.
func (r *Results) run() *ResultFile {
	run := &ResultFile{Label: "score", Format: "json", Instances: make([]Instance, len(r.Rows))}
	for i := range r.Rows {
		run.Instances[i] = Instance{Result: r.Rows[i], Where: fmt.Sprintf("result %d", i+1), Extras: r.extras(i)}
	}
	return run
}

// WriteJSON writes {"results": [...], "aggregate": {...}, "summary": {...}}.
// Each result is the upstream row byte for byte, with trajscope's analysis
// added under a last "trajscope" key; "aggregate" is upstream's aggregate
// dict; "summary" holds the report rows (every aggregate definition) per lens.
func (r *Results) WriteJSON(w io.Writer) error {
	// Written row by row: a batch of thousands of analysed instances is
	// never held as one document.
	buf := []byte(`{"results": [`)
	for i := range r.Rows {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = scoring.AppendResultJSON(buf, &r.Rows[i], r.Semantics)
		if e := r.extras(i); e != nil {
			if b, ok := extrasJSON(e); ok {
				buf = append(buf[:len(buf)-1], `, "trajscope": `...) // before the row's closing brace
				buf = append(append(buf, b...), '}')
			}
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
		buf = buf[:0]
	}
	buf = append(buf, `], "aggregate": `...)
	buf = scoring.AppendAggregateJSON(buf, &r.Aggregate)
	run := r.run()
	summary := map[string]Row{}
	for _, l := range model.Lenses {
		row := Summarize(run, l.String())
		row.Label, row.Path = "", ""
		summary[l.String()] = row
	}
	if b, err := json.Marshal(summary); err == nil {
		buf = append(buf, `, "summary": `...)
		buf = append(buf, termsafe.JSON(b)...)
	}
	buf = append(buf, "}\n"...)
	_, err := w.Write(buf)
	return err
}

// maxListedSpans caps the gold spans listed per lens in text output; JSON
// lists them all.
const maxListedSpans = 100

// WriteText writes each instance's figures, diagnosis and file ranking, then
// the aggregates with their definitions: the human form of a score run.
func (r *Results) WriteText(out io.Writer) error {
	w := &errWriter{w: out}
	results, agg := r.Rows, &r.Aggregate
	for i := range results {
		res := &results[i]
		fmt.Fprintf(w, "%s\n", termsafe.Line(res.InstanceID))
		if res.Error != "" {
			fmt.Fprintf(w, "  error: %s", res.Error)
			if res.Reason != "" {
				fmt.Fprintf(w, " (%s)", termsafe.Line(res.Reason))
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "  %-7s %8s %9s %7s %8s %10s   %s\n", "", "coverage", "precision", "F1", "AUC", "redundancy", "inter/gold/pred")
		for _, g := range model.Granularities {
			m := res.Final.At(g)
			if g == model.GranSymbol && res.SymbolNA {
				fmt.Fprintf(w, "  %-7s %8s %9s %7s %8s %10s   (a parse gave up: see --parse-timeout)\n", g, "n/a", "n/a", "n/a", "n/a", "n/a")
				continue
			}
			fmt.Fprintf(w, "  %-7s %8.3f %9.3f %7.3f %8.3f %10.3f   %d/%d/%d\n", g, m.Coverage, m.Precision,
				scoring.F1(m.Coverage, m.Precision), *res.Trajectory.AUCCoverage.At(g), *res.Trajectory.Redundancy.At(g),
				m.Intersection, m.GoldSize, m.PredSize)
		}
		fmt.Fprintf(w, "  steps %d", res.NumSteps)
		if e := res.EditLoc; e != nil {
			fmt.Fprintf(w, "   EditLoc (this run) recall %.3f precision %.3f (%d/%d/%d)", e.Recall, e.Precision, e.Intersection, e.GoldSize, e.PredSize)
			if r.Semantics == model.ContextBench {
				// Upstream's per-run recall divides by pred, as precision
				// does; the aggregate's divides by Σgold.
				fmt.Fprint(w, " (the evaluator's row: recall = precision = hits/pred)")
			}
		}
		fmt.Fprintln(w)
		if a := res.AtK; a != nil {
			// score --at-k: the gold covered by the first k predictions.
			for j, k := range a.K {
				c := &a.Coverage[j]
				fmt.Fprintf(w, "  first %d predictions: file %.3f  symbol %.3f  span %.3f  line %.3f\n", k, c.File, c.Symbol, c.Span, c.Line)
			}
			if cov, ok := res.InitialRecall(); ok {
				fmt.Fprintf(w, "  initial recall (after step 1): file %.3f  symbol %.3f  span %.3f  line %.3f\n", cov.File, cov.Symbol, cov.Span, cov.Line)
			}
		}
		fmt.Fprintf(w, "  (F1 = 2·coverage·precision/(coverage+precision) of this instance)\n")
		d := diagnose.LastStepToFinal(res)
		fmt.Fprintf(w, "  usage drop, last step → final (from the result): file %.3f  symbol %.3f  span %.3f  line %.3f",
			d.File.Drop, d.Symbol.Drop, d.Span.Drop, d.Line.Drop)
		if d.Line.RecallDrop != nil {
			fmt.Fprintf(w, "   recall drop line %.3f", *d.Line.RecallDrop)
		}
		fmt.Fprintln(w)
		if e := r.extras(i); e != nil {
			writeLensText(w, "contextbench", e.Lenses.ContextBench)
			writeLensText(w, "observed", e.Lenses.Observed)
		}
	}
	fmt.Fprintf(w, "\n%d/%d instances scored", agg.NumValid, agg.NumTotal)
	if len(agg.Errors) > 0 {
		keys := make([]string, 0, len(agg.Errors))
		for k := range agg.Errors {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, ", %s=%d", k, agg.Errors[k])
		}
	}
	fmt.Fprintln(w)
	if agg.NumTotal == 0 {
		return w.err
	}
	row := Summarize(r.run(), model.LensContextBench.String())
	fmt.Fprintf(w, "\n  %-7s %8s %8s %8s %10s %8s %8s %10s %12s\n", "", "R macro", "P macro", "F1 mean", "F1(macro)", "R micro", "P micro", "F1(micro)", "usage drop")
	for _, g := range model.Granularities {
		s := row.Final.At(g)
		fmt.Fprintf(w, "  %-7s %8.3f %8.3f %8.3f %10.3f %8.3f %8.3f %10.3f %12.3f\n", g, s.RecallMacro, s.PrecisionMacro, s.F1Mean, s.F1OfMacro,
			s.RecallMicro, s.PrecisionMicro, s.F1OfMicro, s.DropLastStep.Mean)
	}
	fmt.Fprintln(w, "  macro: mean over all instances, errors count 0; F1 mean: mean of per-instance F1 (the leaderboard's);")
	fmt.Fprintln(w, "  micro: Σ intersection / Σ size over valid instances (the evaluator's); F1(x): 2RP/(R+P) of those R and P;")
	fmt.Fprintln(w, "  usage drop: last step → final, mean over all instances (errors count 1.0).")
	if row.UnionDrop != nil {
		fmt.Fprintf(w, "  usage drop, union of steps → final (lines, contextbench lens): mean %.3f over %d instances\n", row.UnionDrop.Mean, row.UnionDrop.N)
	}
	if e := agg.EditLoc; e != nil {
		fmt.Fprintf(w, "  EditLoc (all runs, the evaluator's aggregate: Σhits/Σgold, Σhits/Σpred over valid runs): recall %.3f precision %.3f\n", e.Recall, e.Precision)
	}
	// What the means rest on, as report says it.
	row.Label = "the batch"
	for _, n := range (&Report{Rows: []Row{row}}).Notes() {
		fmt.Fprintf(w, "  %s\n", n)
	}
	return w.err
}

// writeLensText prints one lens's diagnosis, union drop and file ranking.
func writeLensText(w io.Writer, lens string, le *LensExtras) {
	if le == nil {
		return
	}
	if le.Error != "" {
		fmt.Fprintf(w, "  lens %s: not scored: %s\n", lens, le.Error)
		if le.Error == "no_gold" || le.Error == "changes_not_found" {
			return // the evaluator's figures above measure nothing
		}
	}
	u := le.UsageDropUnion
	fmt.Fprintf(w, "  lens %s: usage drop, union of steps → final (lines): %.3f (%d gold lines seen, %d in the final context)\n", lens, u.Drop, u.Seen, u.Kept)
	if d := le.Diagnosis; d != nil {
		fmt.Fprintf(w, "    gold files: %s\n", d.FileCounts.Summary())
		fmt.Fprintf(w, "    gold spans: %s\n", d.SpanSummary())
		width := 0
		for k := range d.Spans {
			if k == maxListedSpans {
				break
			}
			width = max(width, len(spanName(&d.Spans[k])))
		}
		for k := range d.Spans {
			if k == maxListedSpans {
				fmt.Fprintf(w, "      … %d more (--format json lists all)\n", len(d.Spans)-k)
				break
			}
			sp := &d.Spans[k]
			fmt.Fprintf(w, "      %-*s  %s\n", width, spanName(sp), sp.Describe())
		}
		for k := range d.Files {
			f := &d.Files[k]
			if len(d.ForFile(f.File)) == 0 {
				// A gold file with no gold lines is only diagnosed here.
				fmt.Fprintf(w, "      %-*s  %s\n", width, termsafe.Line(f.File), f.Describe())
			}
		}
	}
	if m := le.IR; m != nil {
		if !m.Computable {
			fmt.Fprintf(w, "    file ranking: not computable (%s)\n", m.Reason)
			return
		}
		fmt.Fprintf(w, "    file ranking: MRR %.3f  MAP %.3f  nDCG@10 %.3f  P@1 %.3f  P@5 %.3f  R@5 %.3f  R@10 %.3f  file recall %.3f  efficiency %.3f",
			m.MRR, m.MAP, m.NDCG.At(10), m.Precision.At(1), m.Precision.At(5), m.Recall.At(5), m.Recall.At(10), m.FileRecall, m.ContextEfficiency)
		if m.TTFRStep != nil {
			fmt.Fprintf(w, "  first gold file at action %d", *m.TTFRStep+1)
		}
		fmt.Fprintln(w)
	}
}

// spanName is "file:start-end", safe for one terminal line.
func spanName(sp *diagnose.Span) string {
	return fmt.Sprintf("%s:%d-%d", termsafe.Line(sp.File), sp.Start, sp.End)
}

// WriteCSV writes one row per instance: the final figures, F1, AUC and
// redundancy per granularity, and EditLoc. Numbers keep full precision.
func (r *Results) WriteCSV(out io.Writer) error {
	cols := []string{"instance_id", "error", "num_steps"}
	for _, g := range model.Granularities {
		for _, c := range []string{"coverage", "precision", "f1", "intersection", "gold_size", "pred_size", "auc", "redundancy"} {
			cols = append(cols, g.String()+"_"+c)
		}
	}
	cols = append(cols, "editloc_recall", "editloc_precision", "editloc_intersection", "editloc_gold_size", "editloc_pred_size")
	// score --at-k: each rank's coverage per granularity, then the initial
	// recall, after the evaluator's columns (the ranks of the first row
	// that has them: one run asks for one list).
	var ks []int
	for i := range r.Rows {
		if a := r.Rows[i].AtK; a != nil {
			ks = a.K
			break
		}
	}
	atCol := len(cols)
	for _, k := range ks {
		for _, g := range model.Granularities {
			cols = append(cols, fmt.Sprintf("at%d_%s", k, g))
		}
	}
	if ks != nil {
		for _, g := range model.Granularities {
			cols = append(cols, "initial_recall_"+g.String())
		}
	}
	recs := [][]string{cols}
	for i := range r.Rows {
		res := &r.Rows[i]
		row := []string{res.InstanceID, res.Error, ""}
		if res.Error == "" {
			row[2] = fmt.Sprint(res.NumSteps)
			for _, g := range model.Granularities {
				m := res.Final.At(g)
				if g == model.GranSymbol && res.SymbolNA {
					row = append(row, "", "", "", "", "", "", "", "")
					continue
				}
				row = append(row, num(m.Coverage), num(m.Precision), num(scoring.F1(m.Coverage, m.Precision)),
					fmt.Sprint(m.Intersection), fmt.Sprint(m.GoldSize), fmt.Sprint(m.PredSize),
					num(*res.Trajectory.AUCCoverage.At(g)), num(*res.Trajectory.Redundancy.At(g)))
			}
			if e := res.EditLoc; e != nil {
				row = append(row, num(e.Recall), num(e.Precision), fmt.Sprint(e.Intersection), fmt.Sprint(e.GoldSize), fmt.Sprint(e.PredSize))
			}
			if a := res.AtK; a != nil && ks != nil {
				for len(row) < atCol {
					row = append(row, "")
				}
				for j := range a.K {
					for _, g := range model.Granularities {
						v := ""
						if !(g == model.GranSymbol && res.SymbolNA) {
							v = num(*a.Coverage[j].At(g))
						}
						row = append(row, v)
					}
				}
				if cov, ok := res.InitialRecall(); ok {
					for _, g := range model.Granularities {
						row = append(row, num(*cov.At(g)))
					}
				}
			}
		}
		for len(row) < len(cols) {
			row = append(row, "")
		}
		recs = append(recs, row)
	}
	return writeCSV(out, recs)
}

// errWriter keeps the first write error, so a long text renderer can write
// freely and report it once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// ResultFormats are the forms Results.Write produces.
var ResultFormats = []string{"jsonl", "json", "text", "csv"}

// CheckResultFormat accepts a ResultFormats name, or "" for none.
func CheckResultFormat(format string) error {
	if format == "" || slices.Contains(ResultFormats, format) {
		return nil
	}
	return fmt.Errorf("unknown --format %q (want jsonl, json, text or csv)", format)
}

// Write writes the results in format (see ResultFormats); "" writes nothing.
func (r *Results) Write(w io.Writer, format string) error {
	switch format {
	case "jsonl":
		return r.WriteJSONL(w)
	case "json":
		return r.WriteJSON(w)
	case "text":
		return r.WriteText(w)
	case "csv":
		return r.WriteCSV(w)
	case "":
		return nil
	}
	return CheckResultFormat(format)
}
