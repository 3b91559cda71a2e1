package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/scoring/ir"
)

// WriteCSV writes one table, the most specific one asked for: with a
// comparison its deltas (per instance when per-instance rows are asked
// for too); else the per-instance table; else the missed-gold table; else
// the summary per run × group; else the per-run summary, with the cost
// columns. Numbers keep full precision.
func (r *Report) WriteCSV(out io.Writer) error {
	var recs [][]string
	switch {
	case r.Impact != nil:
		// --resolved names a harness report to relate retrieval to: the
		// table it asks for.
		recs = r.impactCSV()
	case r.Compare != nil && r.Instances != nil:
		recs = r.compareInstancesCSV()
	case r.Compare != nil:
		recs = r.compareCSV()
	case r.Instances != nil:
		recs = r.instancesCSV()
	case r.Missed != nil:
		recs = r.missedCSV()
	case r.Groups != nil:
		recs = r.groupsCSV()
	default:
		recs = r.summaryCSV()
	}
	return writeCSV(out, recs)
}

// writeCSV writes records with every cell made safe for one terminal line
// and for a spreadsheet.
func writeCSV(out io.Writer, recs [][]string) error {
	for _, rec := range recs {
		for i := range rec {
			rec[i] = inertCell(termsafe.Line(rec[i]))
		}
	}
	w := csv.NewWriter(out)
	if err := w.WriteAll(recs); err != nil {
		return err
	}
	return w.Error()
}

// inertCell keeps a spreadsheet from reading a text cell as a formula: an
// instance id such as =HYPERLINK(...) would otherwise become a live link.
// Text starting with a character that opens a formula (= + - @, or a tab or
// carriage return that some spreadsheets skip first) gets a leading quote,
// which spreadsheets take as "this is text" and do not display. Numbers,
// negative ones included, stay as they are.
func inertCell(s string) string {
	if s == "" || !strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return s
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return s
	}
	return "'" + s
}

func num(v float64) string { return python.JSONFloat(v) }

func optNum(p *float64) string {
	if p == nil {
		return ""
	}
	return num(*p)
}

func statNum(s Stats) string {
	if s.N == 0 {
		return ""
	}
	return num(s.Mean)
}

// summaryCSV is the per-run summary, with each run's cost and tokens.
func (r *Report) summaryCSV() [][]string {
	recs := summaryRecords(r.Rows)
	recs[0] = append(recs[0], "cost_n", "mean_cost_usd", "tokens_n", "mean_tokens", "pareto_front")
	for i := range r.Rows {
		if r.Cost == nil {
			recs[i+1] = append(recs[i+1], "", "", "", "", "")
			continue
		}
		c := &r.Cost.Rows[i]
		front := ""
		if _, ok := c.X(r.Cost.Axis); ok {
			front = fmt.Sprint(c.Front)
		}
		recs[i+1] = append(recs[i+1], fmt.Sprint(c.CostN), optNum(c.MeanCostUSD), fmt.Sprint(c.TokensN), optNum(c.MeanTokens), front)
	}
	if t := r.AtK; t != nil {
		// Ranked retrieval's means (score --at-k), when runs have them.
		byRun := map[string]*AtKRow{}
		for i := range t.Rows {
			byRun[t.Rows[i].Run] = &t.Rows[i]
		}
		for _, g := range model.Granularities {
			for _, k := range t.K {
				recs[0] = append(recs[0], fmt.Sprintf("%s_at_%d", g, k))
			}
			recs[0] = append(recs[0], g.String()+"_initial_recall")
		}
		for i := range r.Rows {
			row := byRun[r.Rows[i].Label]
			for _, g := range model.Granularities {
				for _, k := range t.K {
					v := ""
					if row != nil {
						if m, ok := row.at(k); ok {
							v = num(*m.At(g))
						}
					}
					recs[i+1] = append(recs[i+1], v)
				}
				v := ""
				if row != nil && row.Initial != nil {
					v = num(*row.Initial.At(g))
				}
				recs[i+1] = append(recs[i+1], v)
			}
		}
	}
	return recs
}

// groupsCSV is the summary per run × group: the per-run columns with the
// group after the run.
func (r *Report) groupsCSV() [][]string {
	rows := make([]Row, len(r.Groups.Rows))
	for i, g := range r.Groups.Rows {
		rows[i] = g.Row
	}
	recs := summaryRecords(rows)
	recs[0] = append([]string{recs[0][0], r.Groups.By}, recs[0][1:]...)
	for i, g := range r.Groups.Rows {
		recs[i+1] = append([]string{recs[i+1][0], g.Group}, recs[i+1][1:]...)
	}
	return recs
}

// missedCSV lists the most missed gold spans, then files (start and end
// blank).
func (r *Report) missedCSV() [][]string {
	head := []string{"kind", "instance_id", "file", "start", "end", "runs", "missed"}
	for c := diagnose.NumCategories - 1; c >= 0; c-- {
		head = append(head, diagnose.Category(c).Key())
	}
	recs := [][]string{head}
	for _, kind := range []struct {
		name  string
		items []MissedItem
	}{{"span", r.Missed.Spans}, {"file", r.Missed.Files}} {
		for _, it := range kind.items {
			rec := []string{kind.name, it.InstanceID, it.File, "", "", fmt.Sprint(it.Runs), fmt.Sprint(it.Missed)}
			if kind.name == "span" {
				rec[3], rec[4] = fmt.Sprint(it.Start), fmt.Sprint(it.End)
			}
			for c := diagnose.NumCategories - 1; c >= 0; c-- {
				rec = append(rec, fmt.Sprint(it.Counts[c]))
			}
			recs = append(recs, rec)
		}
	}
	return recs
}

// summaryRecords is a header and one record per summary row.
func summaryRecords(rows []Row) [][]string {
	head := []string{"run", "path", "instances", "valid", "errors"}
	for _, g := range model.Granularities {
		for _, col := range []string{"recall_macro", "precision_macro", "f1_mean", "f1_of_macro", "recall_micro", "precision_micro",
			"f1_of_micro", "auc_mean", "redundancy_mean", "usage_drop_laststep_mean", "recall_drop_laststep_mean"} {
			head = append(head, g.String()+"_"+col)
		}
	}
	head = append(head, "editloc_recall_micro", "editloc_precision_micro", "lens", "usage_drop_union_line_mean", "usage_drop_union_n")
	for c := diagnose.NumCategories - 1; c >= 0; c-- {
		head = append(head, "spans_"+diagnose.Category(c).Key())
	}
	irHead := []string{"ir_n", "mrr", "map", "file_recall", "context_efficiency"}
	for _, k := range ir.Ks {
		irHead = append(irHead, fmt.Sprintf("precision_at_%d", k), fmt.Sprintf("recall_at_%d", k), fmt.Sprintf("f1_at_%d", k), fmt.Sprintf("ndcg_at_%d", k))
	}
	irHead = append(irHead, "ttfr_step", "ttfr_seconds", "ttfr_tokens", "read_overlap", "write_overlap", "read_before_write",
		"irrelevant_retrieval", "missed_key_evidence", "wrong_evidence_used", "unused_correct_retrieval", "ambiguity_near_miss")
	recs := [][]string{append(head, irHead...)}
	for _, row := range rows {
		rec := []string{row.Label, row.Path, fmt.Sprint(row.Instances), fmt.Sprint(row.Valid), errorsText(row.Errors)}
		for _, g := range model.Granularities {
			s := row.Final.At(g)
			rec = append(rec, num(s.RecallMacro), num(s.PrecisionMacro), num(s.F1Mean), num(s.F1OfMacro),
				num(s.RecallMicro), num(s.PrecisionMicro), num(s.F1OfMicro), num(s.AUC), num(s.Redundancy),
				statNum(s.DropLastStep), statNum(s.RecallDrop))
		}
		if row.EditLoc != nil {
			rec = append(rec, num(row.EditLoc.Recall), num(row.EditLoc.Precision))
		} else {
			rec = append(rec, "", "")
		}
		rec = append(rec, row.Lens)
		if row.UnionDrop != nil {
			rec = append(rec, num(row.UnionDrop.Mean), fmt.Sprint(row.UnionDrop.N))
		} else {
			rec = append(rec, "", "")
		}
		for c := diagnose.NumCategories - 1; c >= 0; c-- {
			if row.SpanDiagnosis != nil {
				rec = append(rec, fmt.Sprint(row.SpanDiagnosis[c]))
			} else {
				rec = append(rec, "")
			}
		}
		if s := row.IR; s != nil {
			rec = append(rec, fmt.Sprint(s.N), statNum(s.MRR), statNum(s.MAP), statNum(s.FileRecall), statNum(s.ContextEfficiency))
			for i := range ir.Ks {
				rec = append(rec, statNum(s.Precision[i]), statNum(s.Recall[i]), statNum(s.F1[i]), statNum(s.NDCG[i]))
			}
			rec = append(rec, statNum(s.TTFRStep), statNum(s.TTFRSeconds), statNum(s.TTFRTokens), statNum(s.ReadOverlap), statNum(s.WriteOverlap), statNum(s.ReadBeforeWrite),
				statNum(s.IrrelevantRetrieval), statNum(s.MissedKeyEvidence), statNum(s.WrongEvidenceUsed), statNum(s.UnusedCorrectRetrieval), statNum(s.AmbiguityNearMiss))
		} else {
			rec = append(rec, make([]string, len(irHead))...)
		}
		recs = append(recs, rec)
	}
	return recs
}

func (r *Report) instancesCSV() [][]string {
	head := []string{"run", "instance_id", "error"}
	for _, g := range model.Granularities {
		head = append(head, g.String()+"_recall", g.String()+"_precision", g.String()+"_f1", g.String()+"_auc", g.String()+"_usage_drop_laststep")
	}
	head = append(head, "usage_drop_union", "mrr", "file_recall_ir")
	for c := diagnose.NumCategories - 1; c >= 0; c-- {
		head = append(head, "spans_"+diagnose.Category(c).Key())
	}
	recs := [][]string{head}
	for _, in := range r.Instances {
		rec := []string{in.Run, in.InstanceID, in.Error}
		for _, g := range model.Granularities {
			if in.Error != "" {
				rec = append(rec, "", "", "", "", num(*in.DropLastStep.At(g)))
				continue
			}
			rec = append(rec, num(*in.Recall.At(g)), num(*in.Precision.At(g)), num(*in.F1.At(g)), num(*in.AUC.At(g)), num(*in.DropLastStep.At(g)))
		}
		rec = append(rec, optNum(in.UnionDrop), optNum(in.MRR), optNum(in.FileRecallIR))
		for c := diagnose.NumCategories - 1; c >= 0; c-- {
			if in.SpanDiagnosis != nil {
				rec = append(rec, fmt.Sprint(in.SpanDiagnosis[c]))
			} else {
				rec = append(rec, "")
			}
		}
		recs = append(recs, rec)
	}
	return recs
}

func (r *Report) compareCSV() [][]string {
	c := r.Compare
	recs := [][]string{{"a", "b", "metric", "n", "mean_a", "mean_b", "mean_delta", "median_delta", "std_delta", "iqr", "positive", "negative", "zero",
		"ci_low", "ci_high", "confidence", "p_value", "test", "seed", "bootstrap_resamples", "matched", "only_a", "only_b", "error_a", "error_b"}}
	for _, d := range c.Metrics {
		// With no matched instance nothing was measured: every figure is
		// empty, as the interval is (not a mean of 0).
		rec := []string{c.A, c.B, d.Metric, fmt.Sprint(d.N), "", "", "", "", "", "",
			fmt.Sprint(d.Positive), fmt.Sprint(d.Negative), fmt.Sprint(d.Zero), "", "", "", "", ""}
		if d.N > 0 {
			copy(rec[4:], []string{num(d.MeanA), num(d.MeanB), num(d.MeanDelta), num(d.MedianDelta), num(d.StdDelta), num(d.IQR)})
			copy(rec[13:], []string{num(d.CILow), num(d.CIHigh), num(c.Confidence), num(d.PValue), d.Test})
		}
		recs = append(recs, append(rec, fmt.Sprint(c.Seed), fmt.Sprint(c.Resamples),
			fmt.Sprint(c.Matched), fmt.Sprint(c.OnlyA), fmt.Sprint(c.OnlyB), fmt.Sprint(c.ErrorA), fmt.Sprint(c.ErrorB)))
	}
	return recs
}

func (r *Report) compareInstancesCSV() [][]string {
	c := r.Compare
	head := []string{"instance_id"}
	for _, d := range c.Metrics {
		head = append(head, d.Metric+" a", d.Metric+" b", d.Metric+" delta")
	}
	recs := [][]string{head}
	for _, in := range c.PerInstance {
		rec := []string{in.InstanceID}
		for k := range c.Metrics {
			if in.Has[k] {
				rec = append(rec, num(in.A[k]), num(in.B[k]), num(in.Delta[k]))
			} else {
				rec = append(rec, "", "", "")
			}
		}
		recs = append(recs, rec)
	}
	return recs
}
