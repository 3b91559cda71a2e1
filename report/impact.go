package report

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"

	gstat "gonum.org/v1/gonum/stat"

	"github.com/trajscope/trajscope/model"
)

// Downstream impact (CodeScaleBench's pipeline stage 5): how a run's
// retrieval relates to whether its task was solved, what it cost and how
// long it took. Every figure is an association over the runs given, never
// a cause: a run that read more may have been given an easier task.

// MinImpactGroup is the fewest runs on each side (resolved, unresolved)
// a difference and an association are computed from; fewer say so.
const MinImpactGroup = 2

// MinSliceCell is the fewest runs a calibration slice's rate and mean are
// given for.
const MinSliceCell = 3

// Impact is the downstream-impact section of a report: one entry per run.
type Impact struct {
	Harness    string      `json:"harness"`
	Seed       uint64      `json:"seed"`
	Resamples  int         `json:"bootstrap_resamples"`
	Confidence float64     `json:"confidence"`
	Runs       []RunImpact `json:"runs"`
}

// RunImpact is one run's (results file's) figures: instances scored and
// resolved or not, each metric's comparison, cost and time per outcome,
// and the calibration slices.
type RunImpact struct {
	Run        string         `json:"run"`
	Resolved   int            `json:"resolved"`
	Unresolved int            `json:"unresolved"`
	Metrics    []ImpactMetric `json:"metrics"`
	Spend      []OutcomeSpend `json:"cost_and_time"`
	Slices     []SliceCell    `json:"calibration_slices"`
}

// ImpactMetric compares a retrieval metric between resolved and
// unresolved instances: the means, their difference (resolved −
// unresolved) with a bootstrap interval, and the point-biserial
// correlation of the metric with being resolved, with its own interval.
// Note says why the figures are absent (too few runs, no variation).
type ImpactMetric struct {
	Metric         string   `json:"metric"`
	NResolved      int      `json:"n_resolved"`
	NUnresolved    int      `json:"n_unresolved"`
	MeanResolved   *float64 `json:"mean_resolved"`
	MeanUnresolved *float64 `json:"mean_unresolved"`
	Diff           *float64 `json:"difference"`
	DiffLow        *float64 `json:"difference_ci_low"`
	DiffHigh       *float64 `json:"difference_ci_high"`
	PointBiserial  *float64 `json:"point_biserial_r"`
	RLow           *float64 `json:"point_biserial_ci_low"`
	RHigh          *float64 `json:"point_biserial_ci_high"`
	Note           string   `json:"note,omitempty"`
}

// OutcomeSpend is coverage against cost and time for one outcome: the
// mean final line coverage and the mean tokens, cost and seconds of the
// instances that record them (n of each).
type OutcomeSpend struct {
	Outcome     string   `json:"outcome"`
	N           int      `json:"n"`
	LineRecall  float64  `json:"mean_line_recall"`
	TokensN     int      `json:"tokens_n"`
	MeanTokens  *float64 `json:"mean_tokens"`
	CostN       int      `json:"cost_n"`
	MeanCostUSD *float64 `json:"mean_cost_usd"`
	SecondsN    int      `json:"seconds_n"`
	MeanSeconds *float64 `json:"mean_seconds"`
}

// SliceCell is one calibration slice: the runs of a candidate-set size
// (small ≤ 5 retrieved files, medium 6–20, large > 20) or of an evidence
// type (local, mcp), their resolution rate and mean line recall; nil
// figures when the cell holds fewer than MinSliceCell runs.
type SliceCell struct {
	Slice      string   `json:"slice"`
	Value      string   `json:"value"`
	N          int      `json:"n"`
	Resolved   int      `json:"resolved"`
	Rate       *float64 `json:"resolution_rate"`
	LineRecall *float64 `json:"mean_line_recall"`
}

// impactMetrics are the metrics compared, and how each is read of an
// instance (ok false: the instance does not have it).
var impactMetrics = []struct {
	name string
	get  func(in *Instance, lens string) (float64, bool)
}{
	{"file recall", final(model.GranFile, true)},
	{"line recall", final(model.GranLine, true)},
	{"file precision", final(model.GranFile, false)},
	{"line precision", final(model.GranLine, false)},
	{"line AUC", func(in *Instance, _ string) (float64, bool) { return in.Result.Trajectory.AUCCoverage.Line, true }},
	{"line redundancy", func(in *Instance, _ string) (float64, bool) { return in.Result.Trajectory.Redundancy.Line, true }},
	{"first gold-file step", func(in *Instance, lens string) (float64, bool) {
		le := in.Extras.Lens(lens)
		if le == nil || le.IR == nil || le.IR.TTFRStep == nil {
			return 0, false
		}
		return float64(*le.IR.TTFRStep + 1), true // 1-based, as every surface numbers actions
	}},
}

func final(g model.Granularity, recall bool) func(in *Instance, _ string) (float64, bool) {
	return func(in *Instance, _ string) (float64, bool) {
		m := in.Result.Final.At(g)
		if recall {
			return m.Coverage, true
		}
		return m.Precision, true
	}
}

// impactFold keeps, per instance scored, what the impact section needs:
// whether it was resolved, each metric, its spend and its slices.
type impactFold struct {
	resolved []bool
	values   [][]float64 // values[k][i], NaN when instance i lacks metric k
	line     []float64
	tokens   []float64 // NaN: not recorded
	cost     []float64
	seconds  []float64
	setSize  []string
	evidence []string
}

func (f *impactFold) add(in *Instance, resolved map[string]bool, lens string) {
	if in.Result.Error != "" {
		return // not scored: no retrieval figure to relate
	}
	if f.values == nil {
		f.values = make([][]float64, len(impactMetrics))
	}
	f.resolved = append(f.resolved, resolved[in.Result.InstanceID])
	for k, m := range impactMetrics {
		v, ok := m.get(in, lens)
		if !ok {
			v = math.NaN()
		}
		f.values[k] = append(f.values[k], v)
	}
	f.line = append(f.line, in.Result.Final.Line.Coverage)
	tok, cost, secs := math.NaN(), math.NaN(), math.NaN()
	size, ev := "", ""
	if e := in.Extras; e != nil {
		if e.Tokens != nil && e.Tokens.Total() > 0 {
			tok = float64(e.Tokens.Total())
		}
		if e.CostUSD > 0 {
			cost = e.CostUSD
		}
		if e.Seconds > 0 {
			secs = e.Seconds
		}
		if le := e.Lens(lens); le != nil && le.IR != nil {
			size, ev = le.IR.Slice.CandidateSetSize, le.IR.Slice.EvidenceType
		}
	}
	f.tokens, f.cost, f.seconds = append(f.tokens, tok), append(f.cost, cost), append(f.seconds, secs)
	f.setSize, f.evidence = append(f.setSize, size), append(f.evidence, ev)
}

// finish computes the run's impact, drawing each metric's resamples from
// its own stream of seed.
func (f *impactFold) finish(run string, seed uint64) RunImpact {
	out := RunImpact{Run: run}
	for _, r := range f.resolved {
		if r {
			out.Resolved++
		} else {
			out.Unresolved++
		}
	}
	for k, m := range impactMetrics {
		var res, unres, xs, ys []float64
		if f.values != nil {
			for i, v := range f.values[k] {
				if math.IsNaN(v) {
					continue
				}
				xs = append(xs, v)
				if f.resolved[i] {
					res = append(res, v)
					ys = append(ys, 1)
				} else {
					unres = append(unres, v)
					ys = append(ys, 0)
				}
			}
		}
		out.Metrics = append(out.Metrics, compareOutcomes(m.name, res, unres, xs, ys, NewRNG(seed, "impact "+run+" "+m.name)))
	}
	for _, outcome := range []bool{true, false} {
		s := OutcomeSpend{Outcome: map[bool]string{true: "resolved", false: "unresolved"}[outcome]}
		var line, tok, cost, secs []float64
		for i, r := range f.resolved {
			if r != outcome {
				continue
			}
			s.N++
			line = append(line, f.line[i])
			tok, cost, secs = appendKnown(tok, f.tokens[i]), appendKnown(cost, f.cost[i]), appendKnown(secs, f.seconds[i])
		}
		if s.N > 0 {
			s.LineRecall = gstat.Mean(line, nil)
		}
		s.TokensN, s.MeanTokens = len(tok), meanOf(tok)
		s.CostN, s.MeanCostUSD = len(cost), meanOf(cost)
		s.SecondsN, s.MeanSeconds = len(secs), meanOf(secs)
		out.Spend = append(out.Spend, s)
	}
	for _, dim := range []struct {
		name   string
		values []string
		of     []string
	}{{"candidate set", []string{"small", "medium", "large"}, f.setSize}, {"evidence", []string{"local", "mcp"}, f.evidence}} {
		for _, v := range dim.values {
			c := SliceCell{Slice: dim.name, Value: v}
			var line []float64
			for i, got := range dim.of {
				if got != v {
					continue
				}
				c.N++
				line = append(line, f.line[i])
				if f.resolved[i] {
					c.Resolved++
				}
			}
			if c.N >= MinSliceCell {
				rate := float64(c.Resolved) / float64(c.N)
				c.Rate, c.LineRecall = &rate, meanOf(line)
			}
			out.Slices = append(out.Slices, c)
		}
	}
	return out
}

func appendKnown(s []float64, v float64) []float64 {
	if math.IsNaN(v) {
		return s
	}
	return append(s, v)
}

func meanOf(s []float64) *float64 {
	if len(s) == 0 {
		return nil
	}
	m := gstat.Mean(s, nil)
	return &m
}

// compareOutcomes is one metric's comparison; x and y are the metric and
// the outcome (1 resolved) of every instance that has the metric.
func compareOutcomes(name string, res, unres, x, y []float64, r *rand.Rand) ImpactMetric {
	m := ImpactMetric{Metric: name, NResolved: len(res), NUnresolved: len(unres)}
	m.MeanResolved, m.MeanUnresolved = meanOf(res), meanOf(unres)
	if len(res) < MinImpactGroup || len(unres) < MinImpactGroup {
		m.Note = "too few runs: at least 2 resolved and 2 unresolved are needed"
		return m
	}
	d := *m.MeanResolved - *m.MeanUnresolved
	lo, hi := BootstrapDiffCI(res, unres, Confidence, Resamples, r)
	m.Diff, m.DiffLow, m.DiffHigh = &d, &lo, &hi
	if gstat.Variance(x, nil) == 0 {
		m.Note = "the metric does not vary: no association to measure"
		return m
	}
	rpb := gstat.Correlation(x, y, nil)
	rlo, rhi := BootstrapCorrelationCI(x, y, Confidence, Resamples, r)
	m.PointBiserial, m.RLow, m.RHigh = &rpb, &rlo, &rhi
	return m
}

// BootstrapDiffCI is the percentile bootstrap interval of mean(a) −
// mean(b), each group resampled with replacement on its own.
func BootstrapDiffCI(a, b []float64, level float64, resamples int, r *rand.Rand) (lo, hi float64) {
	diffs := make([]float64, resamples)
	for k := range diffs {
		diffs[k] = resampleMean(a, r) - resampleMean(b, r)
	}
	return quantiles(diffs, level)
}

// BootstrapCorrelationCI is the percentile bootstrap interval of the
// Pearson correlation of x and y (the point-biserial one when y is 0 or
// 1), pairs resampled with replacement; a resample without variation in
// either is drawn again, at most as many times as there are resamples.
func BootstrapCorrelationCI(x, y []float64, level float64, resamples int, r *rand.Rand) (lo, hi float64) {
	n := len(x)
	rs := make([]float64, 0, resamples)
	bx, by := make([]float64, n), make([]float64, n)
	for tries := 0; len(rs) < resamples && tries < 2*resamples; tries++ {
		for i := range n {
			j := intN(r, n)
			bx[i], by[i] = x[j], y[j]
		}
		if gstat.Variance(bx, nil) == 0 || gstat.Variance(by, nil) == 0 {
			continue
		}
		rs = append(rs, gstat.Correlation(bx, by, nil))
	}
	if len(rs) == 0 {
		return math.NaN(), math.NaN()
	}
	return quantiles(rs, level)
}

func resampleMean(s []float64, r *rand.Rand) float64 {
	sum := 0.0
	for range s {
		sum += s[intN(r, len(s))]
	}
	return sum / float64(len(s))
}

func quantiles(v []float64, level float64) (lo, hi float64) {
	slices.Sort(v)
	alpha := (1 - level) / 2
	return gstat.Quantile(alpha, gstat.Empirical, v, nil), gstat.Quantile(1-alpha, gstat.Empirical, v, nil)
}

// writeImpactMarkdown renders downstream impact, worded as association.
func (r *Report) writeImpactMarkdown(w io.Writer) {
	im := r.Impact
	fmt.Fprintf(w, "## Downstream impact: retrieval and resolution (association, not cause)\n\n")
	fmt.Fprintf(w, "Resolved per %s; instances scored only (error rows have no retrieval figure).\n\n", cell(im.Harness))
	opt := func(p *float64) string {
		if p == nil {
			return "–"
		}
		return f3(*p)
	}
	for _, ri := range im.Runs {
		fmt.Fprintf(w, "### %s: %d resolved, %d unresolved\n\n", cell(ri.Run), ri.Resolved, ri.Unresolved)
		var rows [][]string
		for _, m := range ri.Metrics {
			ci, rci, diff, rpb := "–", "–", "–", "–"
			if m.Diff != nil {
				diff, ci = signed(*m.Diff), fmt.Sprintf("[%s, %s]", signed(*m.DiffLow), signed(*m.DiffHigh))
			}
			if m.PointBiserial != nil {
				rpb, rci = signed(*m.PointBiserial), fmt.Sprintf("[%s, %s]", signed(*m.RLow), signed(*m.RHigh))
			}
			note := m.Note
			rows = append(rows, []string{m.Metric, fmt.Sprint(m.NResolved), fmt.Sprint(m.NUnresolved), opt(m.MeanResolved), opt(m.MeanUnresolved),
				diff, ci, rpb, rci, note})
		}
		table(w, []string{"metric", "n resolved", "n unresolved", "mean resolved", "mean unresolved", "Δ (resolved − unresolved)",
			fmt.Sprintf("%g %% CI of Δ", 100*im.Confidence), "point-biserial r", fmt.Sprintf("%g %% CI of r", 100*im.Confidence), "note"}, "lrrrrrrrrl", rows)
		rows = nil
		for _, s := range ri.Spend {
			tok, cost, secs := "–", "–", "–"
			if s.MeanTokens != nil {
				tok = fmt.Sprintf("%.0f (n=%d)", *s.MeanTokens, s.TokensN)
			}
			if s.MeanCostUSD != nil {
				cost = fmt.Sprintf("%.4f (n=%d)", *s.MeanCostUSD, s.CostN)
			}
			if s.MeanSeconds != nil {
				secs = fmt.Sprintf("%.0f (n=%d)", *s.MeanSeconds, s.SecondsN)
			}
			rows = append(rows, []string{s.Outcome, fmt.Sprint(s.N), f3(s.LineRecall), tok, cost, secs})
		}
		table(w, []string{"outcome", "n", "mean line recall", "mean tokens", "mean cost (USD)", "mean seconds"}, "lrrrrr", rows)
		rows = nil
		for _, c := range ri.Slices {
			rate, rec := fmt.Sprintf("too few runs (n=%d)", c.N), "–"
			if c.Rate != nil {
				rate, rec = f3(*c.Rate), opt(c.LineRecall)
			}
			rows = append(rows, []string{c.Slice, c.Value, fmt.Sprint(c.N), fmt.Sprint(c.Resolved), rate, rec})
		}
		table(w, []string{"slice", "value", "n", "resolved", "resolution rate", "mean line recall"}, "llrrrr", rows)
	}
	legend(w,
		"Each figure relates what a run retrieved to whether its task was resolved, over the runs given: an **association**, not a cause (a run that read more may have had an easier task).",
		fmt.Sprintf("**Δ**: mean over resolved instances − mean over unresolved ones, with its percentile bootstrap interval (%d resamples of each group with replacement, seed %d, `--seed`). **point-biserial r**: the correlation of the metric with being resolved (1) or not (0), with its bootstrap interval (pairs resampled). Fewer than %d runs on a side: no figure, said in **note**.", im.Resamples, im.Seed, MinImpactGroup),
		"**first gold-file step**: the 1-based action that first retrieved a gold file (file ranking, instances where one did). **cost and time**: means over the instances that record them (n).",
		fmt.Sprintf("**Calibration slices** (CodeScaleBench): candidate set = files retrieved (small ≤ 5, medium 6–20, large > 20); evidence = mcp when a read or search went through an MCP tool, else local; cells of fewer than %d runs give no rate.", MinSliceCell),
	)
}

// impactCSV is the impact section as one table: a row per run and metric.
func (r *Report) impactCSV() [][]string {
	recs := [][]string{{"run", "metric", "n_resolved", "n_unresolved", "mean_resolved", "mean_unresolved", "difference", "difference_ci_low", "difference_ci_high",
		"point_biserial_r", "point_biserial_ci_low", "point_biserial_ci_high", "note"}}
	for _, ri := range r.Impact.Runs {
		for _, m := range ri.Metrics {
			recs = append(recs, []string{ri.Run, m.Metric, fmt.Sprint(m.NResolved), fmt.Sprint(m.NUnresolved), optNum(m.MeanResolved), optNum(m.MeanUnresolved),
				optNum(m.Diff), optNum(m.DiffLow), optNum(m.DiffHigh), optNum(m.PointBiserial), optNum(m.RLow), optNum(m.RHigh), m.Note})
		}
	}
	return recs
}
