package report

import (
	"maps"
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
	// ScoredUnder is the lens the rows themselves were scored under
	// (contextbench, observed, or mixed), FinalStandIn the rows whose
	// final context is the union of their steps (none declared).
	ScoredUnder  string `json:"scored_under"`
	FinalStandIn int    `json:"final_stand_in,omitempty"`
	// LeftOut counts the rows --skip-infra left out (checkout_failed).
	LeftOut int `json:"left_out_checkout_failed,omitempty"`
	// UnionDrop is the usage drop, union of steps → final (lines), over
	// instances with trajscope extras; nil without any.
	UnionDrop *Stats `json:"usage_drop_union,omitempty"`
	// SpanDiagnosis and FileDiagnosis total the diagnosis categories over
	// instances with extras.
	SpanDiagnosis *diagnose.Counts `json:"span_diagnosis,omitempty"`
	FileDiagnosis *diagnose.Counts `json:"file_diagnosis,omitempty"`
	// FoundLines qualifies SpanDiagnosis's found: the lines of the found
	// spans the final contexts kept, summed.
	FoundLines *diagnose.Kept `json:"found_lines,omitempty"`
	IR         *IRSummary     `json:"ir,omitempty"`
}

// Summarize builds a run's row; lens picks which lens's extras feed the
// run-derived columns.
func Summarize(run *ResultFile, lens string) Row {
	var f summaryFold
	for i := range run.Instances {
		f.add(&run.Instances[i], lens)
	}
	return f.row(run.Label, run.Path, lens)
}

// summaryFold is a Row's figures taken one instance at a time, holding the
// running sums and, for the quantiles, the values (floats, not instances):
// a report over many files keeps one per row, not the files' rows. Sums
// are added in instance order, so the floats are those of a single pass.
type summaryFold struct {
	agg scoring.Summarizer
	// total counts instances; per granularity, n those in the macro means
	// and cov, prec, f1 their sums.
	total          int
	n              [4]int
	cov, prec, f1  [4]float64
	drops, recalls [4][]float64
	union          []float64
	spans, files   diagnose.Counts
	foundLines     diagnose.Kept
	withDiag       bool
	ir             irFold
	// lenses counts rows by the lens they were scored under; standIn those
	// scored on the union of their steps.
	lenses  [2]int
	standIn int
}

func (f *summaryFold) add(in *Instance, lens string) {
	r := &in.Result
	f.agg.Add(r)
	f.total++
	f.lenses[r.Lens]++
	if r.FinalStandIn {
		f.standIn++
	}
	drops := diagnose.LastStepToFinal(r)
	for k, g := range model.Granularities {
		if g == model.GranSymbol && r.SymbolNA {
			continue // not computable: left out of the means, not counted as 0
		}
		f.n[k]++
		if r.Error == "" {
			m := r.Final.At(g)
			f.cov[k] += m.Coverage
			f.prec[k] += m.Precision
			f.f1[k] += scoring.F1(m.Coverage, m.Precision)
		}
		d := drops.At(g)
		f.drops[k] = append(f.drops[k], d.Drop)
		if d.RecallDrop != nil {
			f.recalls[k] = append(f.recalls[k], *d.RecallDrop)
		}
	}
	le := in.Extras.Lens(lens)
	if le == nil {
		return
	}
	f.union = append(f.union, le.UsageDropUnion.Drop)
	if d := le.Diagnosis; d != nil {
		f.withDiag = true
		for c := range f.spans {
			f.spans[c] += d.SpanCounts[c]
			f.files[c] += d.FileCounts[c]
		}
		f.foundLines.Add(d.FoundLines)
	}
	if le.IR != nil && le.IR.Computable {
		f.ir.add(le.IR)
	}
}

func (f *summaryFold) row(label, path, lens string) Row {
	agg := f.agg.Aggregate()
	row := Row{Label: label, Path: path, Instances: agg.NumTotal, Valid: agg.NumValid, Errors: agg.Errors, Lens: lens,
		ScoredUnder: scoredUnder(f.lenses), FinalStandIn: f.standIn}
	for k, g := range model.Granularities {
		gs := row.Final.At(g)
		if n := float64(f.n[k]); n > 0 {
			gs.RecallMacro, gs.PrecisionMacro, gs.F1Mean = f.cov[k]/n, f.prec[k]/n, f.f1[k]/n
		}
		gs.F1OfMacro = scoring.F1(gs.RecallMacro, gs.PrecisionMacro)
		if agg.NumValid > 0 {
			m := agg.Final.At(g)
			gs.RecallMicro, gs.PrecisionMicro = m.Coverage, m.Precision
			gs.F1OfMicro = scoring.F1(m.Coverage, m.Precision)
			gs.AUC, gs.Redundancy = *agg.AUC.At(g), *agg.Redundancy.At(g)
		}
		gs.DropLastStep, gs.RecallDrop = NewStats(f.drops[k]), NewStats(f.recalls[k])
	}
	if agg.EditLoc != nil {
		row.EditLoc = &EditLocSummary{Recall: agg.EditLoc.Recall, Precision: agg.EditLoc.Precision}
	}
	if len(f.union) > 0 {
		s := NewStats(f.union)
		row.UnionDrop = &s
	}
	if f.withDiag {
		spans, files, kept := f.spans, f.files, f.foundLines
		row.SpanDiagnosis, row.FileDiagnosis, row.FoundLines = &spans, &files, &kept
	}
	row.IR = f.ir.summary()
	return row
}

// scoredUnder names the lens rows were scored under, given their counts
// per lens: "mixed" when both hold rows.
func scoredUnder(n [2]int) string {
	switch {
	case n[model.LensObserved] == 0:
		return model.LensContextBench.String()
	case n[model.LensContextBench] == 0:
		return model.LensObserved.String()
	}
	return "mixed"
}

// irFold gathers, one instance at a time, the file-ranking values an
// IRSummary takes statistics of (not the metrics themselves, whose ranked
// lists a report over many files would otherwise hold).
type irFold struct {
	n                                    int
	mrr, mAP, fileRecall, efficiency     []float64
	precision, recall, f1, ndcg          [4][]float64
	ttfrStep, ttfrSeconds, ttfrTokens    []float64
	readOverlap, writeOverlap, readFirst []float64
	irrelevant, missedKey, wrong, unused []float64
	ambiguity                            []float64
	candidateSets                        map[string]int
}

func (f *irFold) add(m *ir.Metrics) {
	f.n++
	f.mrr = append(f.mrr, m.MRR)
	f.mAP = append(f.mAP, m.MAP)
	f.fileRecall = append(f.fileRecall, m.FileRecall)
	f.efficiency = append(f.efficiency, m.ContextEfficiency)
	for i := range ir.Ks {
		f.precision[i] = append(f.precision[i], m.Precision[i])
		f.recall[i] = append(f.recall[i], m.Recall[i])
		f.f1[i] = append(f.f1[i], m.F1[i])
		f.ndcg[i] = append(f.ndcg[i], m.NDCG[i])
	}
	if m.TTFRStep != nil {
		f.ttfrStep = append(f.ttfrStep, float64(*m.TTFRStep))
	}
	if m.TTFRSeconds != nil {
		f.ttfrSeconds = append(f.ttfrSeconds, *m.TTFRSeconds)
	}
	if m.TTFRTokens != nil {
		f.ttfrTokens = append(f.ttfrTokens, float64(*m.TTFRTokens))
	}
	u := &m.Utilization
	f.readOverlap = append(f.readOverlap, u.ReadOverlap)
	if u.WriteOverlap != nil {
		f.writeOverlap = append(f.writeOverlap, *u.WriteOverlap)
	}
	if u.ReadBeforeWrite != nil {
		f.readFirst = append(f.readFirst, *u.ReadBeforeWrite)
	}
	e := &m.Errors
	f.irrelevant = append(f.irrelevant, float64(e.IrrelevantRetrieval))
	f.missedKey = append(f.missedKey, float64(e.MissedKeyEvidence))
	f.wrong = append(f.wrong, float64(e.WrongEvidenceUsed))
	f.unused = append(f.unused, float64(e.UnusedCorrectRetrieval))
	f.ambiguity = append(f.ambiguity, float64(e.AmbiguityNearMiss))
	if f.candidateSets == nil {
		f.candidateSets = map[string]int{}
	}
	f.candidateSets[m.Slice.CandidateSetSize]++
}

// summary is the IRSummary, nil when no instance's metrics were computable.
func (f *irFold) summary() *IRSummary {
	if f.n == 0 {
		return nil
	}
	s := &IRSummary{N: f.n, CandidateSets: maps.Clone(f.candidateSets),
		MRR: NewStats(f.mrr), MAP: NewStats(f.mAP), FileRecall: NewStats(f.fileRecall), ContextEfficiency: NewStats(f.efficiency),
		TTFRStep: NewStats(f.ttfrStep), TTFRSeconds: NewStats(f.ttfrSeconds), TTFRTokens: NewStats(f.ttfrTokens),
		ReadOverlap: NewStats(f.readOverlap), WriteOverlap: NewStats(f.writeOverlap), ReadBeforeWrite: NewStats(f.readFirst),
		IrrelevantRetrieval: NewStats(f.irrelevant), MissedKeyEvidence: NewStats(f.missedKey), WrongEvidenceUsed: NewStats(f.wrong),
		UnusedCorrectRetrieval: NewStats(f.unused), AmbiguityNearMiss: NewStats(f.ambiguity)}
	for i := range ir.Ks {
		s.Precision[i], s.Recall[i] = NewStats(f.precision[i]), NewStats(f.recall[i])
		s.F1[i], s.NDCG[i] = NewStats(f.f1[i]), NewStats(f.ndcg[i])
	}
	return s
}
