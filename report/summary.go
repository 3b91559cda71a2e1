package report

import (
	"math"
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/scoring/ir"
)

// Stats summarises one metric over instances.
type Stats struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	// Std is the sample standard deviation (0 when N < 2), Median the
	// middle value (the mean of the two middle ones for even N).
	Std    float64 `json:"std"`
	Median float64 `json:"median"`
	// P50, P90 and P99 interpolate linearly between closest ranks, as the
	// usage-drop script's quantile does.
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
}

// NewStats summarises values (N 0 and zeros when there are none).
func NewStats(values []float64) Stats {
	s := Stats{N: len(values)}
	if s.N == 0 {
		return s
	}
	sorted := append([]float64(nil), values...)
	sort.Float64s(sorted)
	sum := 0.0
	for _, v := range values {
		sum += v
	}
	s.Mean = sum / float64(s.N)
	if s.N > 1 {
		ss := 0.0
		for _, v := range values {
			ss += (v - s.Mean) * (v - s.Mean)
		}
		s.Std = math.Sqrt(ss / float64(s.N-1))
	}
	if s.N%2 == 1 {
		s.Median = sorted[s.N/2]
	} else {
		s.Median = (sorted[s.N/2-1] + sorted[s.N/2]) / 2
	}
	s.P50, s.P90, s.P99 = quantile(sorted, 0.5), quantile(sorted, 0.9), quantile(sorted, 0.99)
	return s
}

// quantile interpolates linearly at (n−1)·q in sorted values.
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	pos := float64(len(sorted)-1) * q
	lo := int(pos)
	hi := min(lo+1, len(sorted)-1)
	frac := pos - float64(lo)
	return sorted[lo]*(1-frac) + sorted[hi]*frac
}

// GranSummary is one granularity's aggregates, each under its definition.
type GranSummary struct {
	// RecallMacro and PrecisionMacro are the means of per-instance coverage
	// and precision over all instances, errors counting 0 (ContextBench
	// scripts/statistics.py, the leaderboard's averaging).
	RecallMacro    float64 `json:"recall_macro"`
	PrecisionMacro float64 `json:"precision_macro"`
	// F1Mean is the mean of per-instance F1, errors counting 0 (the
	// leaderboard's F1).
	F1Mean float64 `json:"f1_mean"`
	// F1OfMacro is 2RP/(R+P) of RecallMacro and PrecisionMacro.
	F1OfMacro float64 `json:"f1_of_macro"`
	// RecallMicro and PrecisionMicro are Σintersection/Σgold_size and
	// Σintersection/Σpred_size over valid instances (the evaluator's own
	// summary).
	RecallMicro    float64 `json:"recall_micro"`
	PrecisionMicro float64 `json:"precision_micro"`
	// F1OfMicro is 2RP/(R+P) of RecallMicro and PrecisionMicro (the README
	// tables' F1 of aggregate numbers).
	F1OfMicro float64 `json:"f1_of_micro"`
	// AUC and Redundancy are means over valid instances (the evaluator's).
	AUC        float64 `json:"auc_coverage"`
	Redundancy float64 `json:"redundancy"`
	// DropLastStep is the usage drop, last step → final, over all
	// instances (errors count 1.0); RecallDrop over valid ones.
	DropLastStep Stats `json:"usage_drop_laststep"`
	RecallDrop   Stats `json:"recall_drop_laststep"`
}

// EditLocSummary is the evaluator's EditLoc aggregate: micro, recall =
// Σhits/Σgold_size, precision = Σhits/Σpred_size, over valid instances with
// a patch.
type EditLocSummary struct {
	Recall    float64 `json:"recall_micro"`
	Precision float64 `json:"precision_micro"`
}

// IRSummary aggregates the file-ranking metrics of one lens over instances
// whose gold names files (CodeScaleBench's computable tasks).
type IRSummary struct {
	N                 int      `json:"n"`
	MRR               Stats    `json:"mrr"`
	MAP               Stats    `json:"map"`
	FileRecall        Stats    `json:"file_recall"`
	ContextEfficiency Stats    `json:"context_efficiency"`
	Precision         [4]Stats `json:"precision_at"`
	Recall            [4]Stats `json:"recall_at"`
	F1                [4]Stats `json:"f1_at"`
	NDCG              [4]Stats `json:"ndcg_at"`
	// TTFR statistics cover the instances where a gold file was found and
	// the value is known.
	TTFRStep    Stats `json:"ttfr_step"`
	TTFRSeconds Stats `json:"ttfr_seconds"`
	TTFRTokens  Stats `json:"ttfr_tokens"`
	// Utilization: read overlap over all N; the write probes over instances
	// that wrote files.
	ReadOverlap     Stats `json:"read_overlap_with_relevant_files"`
	WriteOverlap    Stats `json:"write_overlap_with_relevant_files"`
	ReadBeforeWrite Stats `json:"read_before_write_ratio"`
	// Taxonomy means per instance.
	IrrelevantRetrieval    Stats `json:"irrelevant_retrieval"`
	MissedKeyEvidence      Stats `json:"missed_key_evidence"`
	WrongEvidenceUsed      Stats `json:"wrong_evidence_used"`
	UnusedCorrectRetrieval Stats `json:"unused_correct_retrieval"`
	AmbiguityNearMiss      Stats `json:"ambiguity_near_miss"`
	// CandidateSets counts instances per candidate-set size.
	CandidateSets map[string]int `json:"candidate_set_sizes"`
}

// Row is one run's summary.
type Row struct {
	Label string `json:"label"`
	Path  string `json:"path"`
	// Instances counts rows, Valid those without an error.
	Instances int                              `json:"instances"`
	Valid     int                              `json:"valid"`
	Errors    map[string]int                   `json:"errors"`
	Final     model.ByGranularity[GranSummary] `json:"final"`
	EditLoc   *EditLocSummary                  `json:"editloc,omitempty"`
	// Lens names the lens the run-derived metrics below come from.
	Lens string `json:"lens"`
	// UnionDrop is the usage drop, union of steps → final (lines), over
	// instances with trajscope extras; nil without any.
	UnionDrop *Stats `json:"usage_drop_union,omitempty"`
	// SpanDiagnosis and FileDiagnosis total the diagnosis categories over
	// instances with extras.
	SpanDiagnosis *diagnose.Counts `json:"span_diagnosis,omitempty"`
	FileDiagnosis *diagnose.Counts `json:"file_diagnosis,omitempty"`
	IR            *IRSummary       `json:"ir,omitempty"`
}

// Summarize builds a run's row; lens picks which lens's extras feed the
// run-derived columns.
func Summarize(run *ResultFile, lens string) Row {
	results := make([]model.Result, len(run.Instances))
	for i := range run.Instances {
		results[i] = run.Instances[i].Result
	}
	agg := scoring.Summarize(results)
	row := Row{Label: run.Label, Path: run.Path, Instances: agg.NumTotal, Valid: agg.NumValid, Errors: agg.Errors, Lens: lens}
	n := float64(len(results))
	lastDrops := make([]model.ByGranularity[diagnose.LastStepDrop], len(results))
	for i := range results {
		lastDrops[i] = diagnose.LastStepToFinal(&results[i])
	}
	for _, g := range model.Granularities {
		gs := row.Final.At(g)
		var cov, prec, f1 float64
		var drops, recallDrops []float64
		n := n
		for i := range results {
			r := &results[i]
			if g == model.GranSymbol && r.SymbolNA {
				n-- // not computable: left out of the means, not counted as 0
				continue
			}
			if r.Error == "" {
				m := r.Final.At(g)
				cov += m.Coverage
				prec += m.Precision
				f1 += scoring.F1(m.Coverage, m.Precision)
			}
			d := lastDrops[i].At(g)
			drops = append(drops, d.Drop)
			if d.RecallDrop != nil {
				recallDrops = append(recallDrops, *d.RecallDrop)
			}
		}
		if n > 0 {
			gs.RecallMacro, gs.PrecisionMacro, gs.F1Mean = cov/n, prec/n, f1/n
		}
		gs.F1OfMacro = scoring.F1(gs.RecallMacro, gs.PrecisionMacro)
		if agg.NumValid > 0 {
			m := agg.Final.At(g)
			gs.RecallMicro, gs.PrecisionMicro = m.Coverage, m.Precision
			gs.F1OfMicro = scoring.F1(m.Coverage, m.Precision)
			gs.AUC, gs.Redundancy = *agg.AUC.At(g), *agg.Redundancy.At(g)
		}
		gs.DropLastStep, gs.RecallDrop = NewStats(drops), NewStats(recallDrops)
	}
	if agg.EditLoc != nil {
		row.EditLoc = &EditLocSummary{Recall: agg.EditLoc.Recall, Precision: agg.EditLoc.Precision}
	}

	var union []float64
	var spans, files diagnose.Counts
	var metrics []*ir.Metrics
	withDiag := false
	for i := range run.Instances {
		le := run.Instances[i].Extras.Lens(lens)
		if le == nil {
			continue
		}
		union = append(union, le.UsageDropUnion.Drop)
		if d := le.Diagnosis; d != nil {
			withDiag = true
			for c := range spans {
				spans[c] += d.SpanCounts[c]
				files[c] += d.FileCounts[c]
			}
		}
		if le.IR != nil && le.IR.Computable {
			metrics = append(metrics, le.IR)
		}
	}
	if len(union) > 0 {
		s := NewStats(union)
		row.UnionDrop = &s
	}
	if withDiag {
		row.SpanDiagnosis, row.FileDiagnosis = &spans, &files
	}
	if len(metrics) > 0 {
		row.IR = summarizeIR(metrics)
	}
	return row
}

func summarizeIR(ms []*ir.Metrics) *IRSummary {
	s := &IRSummary{N: len(ms), CandidateSets: map[string]int{}}
	pick := func(f func(m *ir.Metrics) (float64, bool)) Stats {
		var vs []float64
		for _, m := range ms {
			if v, ok := f(m); ok {
				vs = append(vs, v)
			}
		}
		return NewStats(vs)
	}
	all := func(f func(m *ir.Metrics) float64) Stats {
		return pick(func(m *ir.Metrics) (float64, bool) { return f(m), true })
	}
	s.MRR = all(func(m *ir.Metrics) float64 { return m.MRR })
	s.MAP = all(func(m *ir.Metrics) float64 { return m.MAP })
	s.FileRecall = all(func(m *ir.Metrics) float64 { return m.FileRecall })
	s.ContextEfficiency = all(func(m *ir.Metrics) float64 { return m.ContextEfficiency })
	for i := range ir.Ks {
		s.Precision[i] = all(func(m *ir.Metrics) float64 { return m.Precision[i] })
		s.Recall[i] = all(func(m *ir.Metrics) float64 { return m.Recall[i] })
		s.F1[i] = all(func(m *ir.Metrics) float64 { return m.F1[i] })
		s.NDCG[i] = all(func(m *ir.Metrics) float64 { return m.NDCG[i] })
	}
	s.TTFRStep = pick(func(m *ir.Metrics) (float64, bool) {
		if m.TTFRStep == nil {
			return 0, false
		}
		return float64(*m.TTFRStep), true
	})
	s.TTFRSeconds = pick(func(m *ir.Metrics) (float64, bool) {
		if m.TTFRSeconds == nil {
			return 0, false
		}
		return *m.TTFRSeconds, true
	})
	s.TTFRTokens = pick(func(m *ir.Metrics) (float64, bool) {
		if m.TTFRTokens == nil {
			return 0, false
		}
		return float64(*m.TTFRTokens), true
	})
	s.ReadOverlap = all(func(m *ir.Metrics) float64 { return m.Utilization.ReadOverlap })
	s.WriteOverlap = pick(func(m *ir.Metrics) (float64, bool) {
		if m.Utilization.WriteOverlap == nil {
			return 0, false
		}
		return *m.Utilization.WriteOverlap, true
	})
	s.ReadBeforeWrite = pick(func(m *ir.Metrics) (float64, bool) {
		if m.Utilization.ReadBeforeWrite == nil {
			return 0, false
		}
		return *m.Utilization.ReadBeforeWrite, true
	})
	s.IrrelevantRetrieval = all(func(m *ir.Metrics) float64 { return float64(m.Errors.IrrelevantRetrieval) })
	s.MissedKeyEvidence = all(func(m *ir.Metrics) float64 { return float64(m.Errors.MissedKeyEvidence) })
	s.WrongEvidenceUsed = all(func(m *ir.Metrics) float64 { return float64(m.Errors.WrongEvidenceUsed) })
	s.UnusedCorrectRetrieval = all(func(m *ir.Metrics) float64 { return float64(m.Errors.UnusedCorrectRetrieval) })
	s.AmbiguityNearMiss = all(func(m *ir.Metrics) float64 { return float64(m.Errors.AmbiguityNearMiss) })
	for _, m := range ms {
		s.CandidateSets[m.Slice.CandidateSetSize]++
	}
	return s
}
