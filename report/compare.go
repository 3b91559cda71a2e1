package report

import (
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// metric is one per-instance number compared between runs; ok is false
// when the instance has no value (no patch, no extras).
type metric struct {
	name string
	get  func(in *Instance, lens string) (float64, bool)
}

func finalMetric(g model.Granularity, what string) metric {
	return metric{g.String() + " " + what, func(in *Instance, _ string) (float64, bool) {
		m := in.Result.Final.At(g)
		switch what {
		case "recall":
			return m.Coverage, true
		case "precision":
			return m.Precision, true
		}
		return scoring.F1(m.Coverage, m.Precision), true
	}}
}

// compareMetrics lists what Compare reports, in order.
func compareMetrics() []metric {
	var ms []metric
	for _, g := range model.Granularities {
		ms = append(ms, finalMetric(g, "recall"), finalMetric(g, "precision"), finalMetric(g, "F1"))
	}
	for _, g := range model.Granularities {
		ms = append(ms, metric{g.String() + " AUC", func(in *Instance, _ string) (float64, bool) {
			return *in.Result.Trajectory.AUCCoverage.At(g), true
		}})
	}
	ms = append(ms,
		metric{"line redundancy", func(in *Instance, _ string) (float64, bool) { return in.Result.Trajectory.Redundancy.Line, true }},
		metric{"EditLoc recall", func(in *Instance, _ string) (float64, bool) {
			if in.Result.EditLoc == nil {
				return 0, false
			}
			return in.Result.EditLoc.Recall, true
		}},
		metric{"line usage drop (last step)", func(in *Instance, _ string) (float64, bool) {
			return diagnose.LastStepToFinal(&in.Result).Line.Drop, true
		}},
		metric{"line usage drop (union)", func(in *Instance, lens string) (float64, bool) {
			le := in.Extras.Lens(lens)
			if le == nil {
				return 0, false
			}
			return le.UsageDropUnion.Drop, true
		}},
		irMetric("MRR", func(le *LensExtras) float64 { return le.IR.MRR }),
		irMetric("MAP", func(le *LensExtras) float64 { return le.IR.MAP }),
		irMetric("file recall (IR)", func(le *LensExtras) float64 { return le.IR.FileRecall }),
	)
	return ms
}

func irMetric(name string, f func(le *LensExtras) float64) metric {
	return metric{name, func(in *Instance, lens string) (float64, bool) {
		le := in.Extras.Lens(lens)
		if le == nil || le.IR == nil || !le.IR.Computable {
			return 0, false
		}
		return f(le), true
	}}
}

// Delta summarises B − A for one metric over the matched instances that
// have it in both runs (CodeScaleBench's matched comparison).
type Delta struct {
	Metric      string  `json:"metric"`
	N           int     `json:"n"`
	MeanA       float64 `json:"mean_a"`
	MeanB       float64 `json:"mean_b"`
	MeanDelta   float64 `json:"mean_delta"`
	MedianDelta float64 `json:"median_delta"`
	StdDelta    float64 `json:"std_delta"`
	// IQR is sorted[3n/4] − sorted[n/4] of the deltas.
	IQR      float64 `json:"iqr"`
	Positive int     `json:"positive"`
	Negative int     `json:"negative"`
	Zero     int     `json:"zero"`
	// CILow and CIHigh bound the percentile bootstrap interval of the mean
	// difference at Comparison.Confidence; PValue is the paired test's,
	// and Test says whether it was exact or sampled.
	CILow  float64 `json:"ci_low"`
	CIHigh float64 `json:"ci_high"`
	PValue float64 `json:"p_value"`
	Test   string  `json:"test"`
}

// InstanceDelta is one matched instance's values in both runs.
type InstanceDelta struct {
	InstanceID string `json:"instance_id"`
	// A, B and Delta are aligned with Paired.Metrics; Has is false
	// (and the values 0) where either run lacks the metric.
	A     []float64 `json:"a"`
	B     []float64 `json:"b"`
	Delta []float64 `json:"delta"`
	Has   []bool    `json:"has"`
}

// Paired is results file B against results file A on the instances both
// scored: the mean differences with their intervals and paired tests.
type Paired struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Lens string `json:"lens"`
	// Matched counts instances valid in both runs; OnlyA and OnlyB those
	// present in one run only; ErrorA and ErrorB those present in both but
	// an error row in that run.
	Matched int `json:"matched"`
	OnlyA   int `json:"only_a"`
	OnlyB   int `json:"only_b"`
	ErrorA  int `json:"error_a"`
	ErrorB  int `json:"error_b"`
	// ScoredUnder is the lens each run's rows were scored under
	// (contextbench, observed or mixed); StandIn counts each run's matched
	// instances whose final is the union of its steps (none declared), a
	// final that credits everything the run looked at.
	ScoredUnder [2]string `json:"scored_under"`
	StandIn     [2]int    `json:"final_stand_in"`
	// TestName, Seed, Resamples and Confidence say how each metric's
	// interval and p-value were computed, so they can be reproduced.
	TestName    string          `json:"test"`
	Seed        uint64          `json:"seed"`
	Resamples   int             `json:"bootstrap_resamples"`
	Confidence  float64         `json:"confidence"`
	Metrics     []Delta         `json:"metrics"`
	PerInstance []InstanceDelta `json:"per_instance"`
}

// Pair matches instances by id and summarises B − A, with a
// bootstrap interval and a paired test per metric drawn from seed. A run
// that repeats an instance id is an error: which row to match would be a
// guess.
func Pair(a, b *ResultFile, lens string, seed uint64) (*Paired, error) {
	ia, err := index(a)
	if err != nil {
		return nil, err
	}
	ib, err := index(b)
	if err != nil {
		return nil, err
	}
	c := &Paired{A: a.Label, B: b.Label, Lens: lens, TestName: PairedTestName, Seed: seed, Resamples: Resamples, Confidence: Confidence}
	var ids []string
	for i := range a.Instances {
		in := &a.Instances[i]
		id := in.Result.InstanceID
		other, ok := ib[id]
		switch {
		case !ok:
			c.OnlyA++
		case in.Result.Error != "" || other.Result.Error != "":
			if in.Result.Error != "" {
				c.ErrorA++
			}
			if other.Result.Error != "" {
				c.ErrorB++
			}
		default:
			ids = append(ids, id)
			for k, r := range [2]*model.Result{&in.Result, &other.Result} {
				if r.FinalStandIn {
					c.StandIn[k]++
				}
			}
		}
	}
	for k, run := range [2]*ResultFile{a, b} {
		var n [2]int
		for i := range run.Instances {
			n[run.Instances[i].Result.Lens]++
		}
		c.ScoredUnder[k] = scoredUnder(n)
	}
	for id := range ib {
		if _, ok := ia[id]; !ok {
			c.OnlyB++
		}
	}
	c.Matched = len(ids)
	ms := compareMetrics()
	deltas := make([][]float64, len(ms))
	sumA, sumB := make([]float64, len(ms)), make([]float64, len(ms))
	for _, id := range ids {
		x, y := ia[id], ib[id]
		row := InstanceDelta{InstanceID: id, A: make([]float64, len(ms)), B: make([]float64, len(ms)), Delta: make([]float64, len(ms)), Has: make([]bool, len(ms))}
		for k, m := range ms {
			va, okA := m.get(x, lens)
			vb, okB := m.get(y, lens)
			if !okA || !okB {
				continue
			}
			row.A[k], row.B[k], row.Delta[k], row.Has[k] = va, vb, vb-va, true
			deltas[k] = append(deltas[k], vb-va)
			sumA[k] += va
			sumB[k] += vb
		}
		c.PerInstance = append(c.PerInstance, row)
	}
	for k, m := range ms {
		d := Delta{Metric: m.name, N: len(deltas[k])}
		if d.N > 0 {
			st := NewStats(deltas[k])
			d.MeanA, d.MeanB = sumA[k]/float64(d.N), sumB[k]/float64(d.N)
			d.MeanDelta, d.MedianDelta, d.StdDelta = st.Mean, st.Median, st.Std
			sorted := append([]float64(nil), deltas[k]...)
			sort.Float64s(sorted)
			d.IQR = sorted[3*d.N/4] - sorted[d.N/4]
			for _, v := range deltas[k] {
				switch {
				case v > 0:
					d.Positive++
				case v < 0:
					d.Negative++
				default:
					d.Zero++
				}
			}
		}
		c.Metrics = append(c.Metrics, d)
	}
	pairedStats(c.Metrics, deltas, seed)
	return c, nil
}

// pairedStats fills each metric's interval and p-value. Resampling
// thousands of pairs per metric takes a while, so metrics run in parallel;
// each draws from its own stream, so the figures do not depend on the
// schedule.
func pairedStats(ds []Delta, deltas [][]float64, seed uint64) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for k := range ds {
		d := &ds[k]
		if d.N == 0 {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			d.CILow, d.CIHigh = BootstrapCI(deltas[k], Confidence, Resamples, NewRNG(seed, "bootstrap/"+d.Metric))
			var exact bool
			d.PValue, exact = SignFlipP(deltas[k], Resamples, NewRNG(seed, "sign-flip/"+d.Metric))
			d.Test = TestSignFlipMonteCarlo
			if exact {
				d.Test = TestSignFlipExact
			}
		}()
	}
	wg.Wait()
}

func index(r *ResultFile) (map[string]*Instance, error) {
	m := make(map[string]*Instance, len(r.Instances))
	for i := range r.Instances {
		in := &r.Instances[i]
		if prev, dup := m[in.Result.InstanceID]; dup {
			return nil, fmt.Errorf("%s: instance %q appears twice (%s and %s); --compare needs one row per instance", r.Path, in.Result.InstanceID, prev.Where, in.Where)
		}
		m[in.Result.InstanceID] = in
	}
	return m, nil
}
