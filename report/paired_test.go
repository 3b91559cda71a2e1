package report_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/trajscope/trajscope/report"
)

// TestSignFlipHandComputed: p-values enumerated by hand.
func TestSignFlipHandComputed(t *testing.T) {
	cases := []struct {
		name   string
		deltas []float64
		p      float64
		exact  bool
	}{
		// Σ = 6; of the 8 sign assignments only +++ and −−− reach |6|.
		{"1 2 3", []float64{1, 2, 3}, 2.0 / 8, true},
		// Zeros do not change under a flip: the same 2 of 8.
		{"zeros ignored", []float64{0, 1, 0, 2, 3}, 2.0 / 8, true},
		// ±2 ± 1 ∈ {3, 1, −1, −3}; |3| is reached twice.
		{"2 1", []float64{2, 1}, 2.0 / 4, true},
		// Observed 0: every assignment reaches it.
		{"cancelling", []float64{1, -1}, 1, true},
		{"all zero", []float64{0, 0, 0}, 1, true},
		{"empty", nil, 1, true},
		// 0.1 + 0.2 + 0.3 and its negation differ from 0.6 in the last
		// bits; both must still count: 2/8, not 1/8.
		{"float ties", []float64{0.1, 0.2, 0.3}, 2.0 / 8, true},
		// 16 non-zero: still enumerated, 2 of 65536.
		{"16 ones", ones(16), 2.0 / 65536, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, exact := report.SignFlipP(c.deltas, report.Resamples, report.NewRNG(1, "t"))
			if p != c.p || exact != c.exact {
				t.Errorf("p = %v (exact %v), want %v (exact %v)", p, exact, c.p, c.exact)
			}
		})
	}
	// 17 non-zero: sampled. The exact p is 2/2^17, so 10,000 draws hit ±17
	// about 0.15 times: p = (count+1)/(10000+1) with a count of 0 to 2,
	// never 0.
	p, exact := report.SignFlipP(ones(17), report.Resamples, report.NewRNG(1, "t"))
	if k := p * 10001; exact || math.Abs(k-math.Round(k)) > 1e-9 || k < 1 || k > 3 {
		t.Errorf("17 ones: p = %v (exact %v), want (count+1)/10001 with count ≤ 2, sampled", p, exact)
	}
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// TestBootstrapHandComputed: intervals whose resampling distribution is
// known exactly.
func TestBootstrapHandComputed(t *testing.T) {
	cases := []struct {
		name   string
		deltas []float64
		lo, hi float64
	}{
		// Means of two draws from {0, 1}: 0 (1/4), 1/2 (1/2), 1 (1/4); the
		// 2.5 % and 97.5 % points fall in the outer quarters.
		{"0 1", []float64{0, 1}, 0, 1},
		// −2/3 and 1/3: the same shape.
		{"two pairs", []float64{1.0 / 3, -2.0 / 3}, -2.0 / 3, 1.0 / 3},
		{"one pair", []float64{0.5}, 0.5, 0.5},
		{"none", nil, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lo, hi := report.BootstrapCI(c.deltas, 0.95, report.Resamples, report.NewRNG(1, "t"))
			if lo != c.lo || hi != c.hi {
				t.Errorf("interval [%v, %v], want [%v, %v]", lo, hi, c.lo, c.hi)
			}
		})
	}
	// Equal deltas: every resample has the same mean, a zero-width interval.
	lo, hi := report.BootstrapCI([]float64{0.1, 0.1, 0.1, 0.1, 0.1}, 0.95, report.Resamples, report.NewRNG(1, "t"))
	if lo != hi || math.Abs(lo-0.1) > 1e-15 {
		t.Errorf("equal deltas: [%v, %v], want zero width at 0.1", lo, hi)
	}
}

// TestSignFlipUniformUnderH0: with symmetric differences of mean 0 the
// p-values are uniform, so P(p ≤ α) ≈ α, for the exact (n = 10) and the
// sampled (n = 30) test; a real effect is detected.
func TestSignFlipUniformUnderH0(t *testing.T) {
	const sims = 1000
	norm := distuv.Normal{Mu: 0, Sigma: 1, Src: rand.NewPCG(42, 1)}
	for _, n := range []int{10, 30} {
		below05, below50 := 0, 0
		for s := range sims {
			d := make([]float64, n)
			for i := range d {
				d[i] = norm.Rand()
			}
			p, _ := report.SignFlipP(d, 1000, report.NewRNG(uint64(s), "h0"))
			if p <= 0.05 {
				below05++
			}
			if p <= 0.5 {
				below50++
			}
		}
		// Binomial(1000, α) has standard deviation 6.9 at α = .05 and 16
		// at .5: the bounds are about 3 of them.
		if f := float64(below05) / sims; f < 0.03 || f > 0.07 {
			t.Errorf("n=%d: P(p ≤ .05) = %v under H0", n, f)
		}
		if f := float64(below50) / sims; f < 0.45 || f > 0.55 {
			t.Errorf("n=%d: P(p ≤ .5) = %v under H0", n, f)
		}
	}
	// Mean 1, sd 1, n = 20: a t-test has power above 0.99.
	shifted := distuv.Normal{Mu: 1, Sigma: 1, Src: rand.NewPCG(42, 2)}
	detected := 0
	for s := range 200 {
		d := make([]float64, 20)
		for i := range d {
			d[i] = shifted.Rand()
		}
		if p, _ := report.SignFlipP(d, 1000, report.NewRNG(uint64(s), "h1")); p <= 0.05 {
			detected++
		}
	}
	if detected < 190 {
		t.Errorf("detected a shift of one sd in %d of 200 samples", detected)
	}
}

// TestSignFlipAgreesWithTTest: for large normal samples the permutation
// distribution of the mean approaches the t distribution, so the two
// p-values agree closely.
func TestSignFlipAgreesWithTTest(t *testing.T) {
	norm := distuv.Normal{Mu: 0.1, Sigma: 1, Src: rand.NewPCG(7, 7)}
	for s := range 10 {
		d := make([]float64, 200)
		for i := range d {
			d[i] = norm.Rand()
		}
		mean, sd := stat.MeanStdDev(d, nil)
		tt := mean / (sd / math.Sqrt(200))
		pt := 2 * distuv.StudentsT{Mu: 0, Sigma: 1, Nu: 199}.CDF(-math.Abs(tt))
		pp, _ := report.SignFlipP(d, report.Resamples, report.NewRNG(uint64(s), "t"))
		if math.Abs(pp-pt) > 0.02 {
			t.Errorf("sample %d: sign-flip p %v, t-test p %v", s, pp, pt)
		}
	}
}

// TestBootstrapCoverage: the 95 % interval of a known mean covers it in
// about 95 % of samples (the percentile interval runs slightly narrow at
// n = 40, so the bound below 95 % is wider).
func TestBootstrapCoverage(t *testing.T) {
	const sims, mu = 400, 0.3
	norm := distuv.Normal{Mu: mu, Sigma: 1, Src: rand.NewPCG(3, 3)}
	covered := 0
	for s := range sims {
		d := make([]float64, 40)
		for i := range d {
			d[i] = norm.Rand()
		}
		lo, hi := report.BootstrapCI(d, 0.95, 2000, report.NewRNG(uint64(s), "cov"))
		if lo <= mu && mu <= hi {
			covered++
		}
	}
	if f := float64(covered) / sims; f < 0.91 || f > 0.98 {
		t.Errorf("coverage %v, want about 0.95", f)
	}
}

// manyPairs is two runs of twelve instances with spread-out line figures,
// so that the bootstrap interval depends on the draws.
func manyPairs(t *testing.T) (*report.ResultFile, *report.ResultFile) {
	var a, b []spec
	for i := range 12 {
		ca := counts{i % 5, 7 + i, 8}
		cb := counts{(i*3 + 1) % 9, 9 + i, 8}
		a = append(a, spec{id: fmt.Sprintf("i%02d", i), file: ca, sym: ca, span: ca, line: ca, steps: [][4]float64{{}}})
		b = append(b, spec{id: fmt.Sprintf("i%02d", i), file: cb, sym: cb, span: cb, line: cb, steps: [][4]float64{{}}})
	}
	ra, err := report.ReadFile(write(t, "A.jsonl", a...), "")
	if err != nil {
		t.Fatal(err)
	}
	rb, err := report.ReadFile(write(t, "B.jsonl", b...), "")
	if err != nil {
		t.Fatal(err)
	}
	return ra, rb
}

// TestCompareReproducible: the same seed gives the same bytes; another
// seed other intervals.
func TestCompareReproducible(t *testing.T) {
	a, b := manyPairs(t)
	render := func(seed uint64) (string, *report.Paired) {
		rep, err := report.Build([]*report.ResultFile{a, b}, report.Options{Compare: true, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := rep.WriteJSON(&buf); err != nil {
			t.Fatal(err)
		}
		return buf.String(), rep.Compare
	}
	one, c1 := render(7)
	two, _ := render(7)
	if one != two {
		t.Fatal("same seed, different output")
	}
	_, c2 := render(8)
	line := func(c *report.Paired) report.Delta {
		for _, d := range c.Metrics {
			if d.Metric == "line recall" {
				return d
			}
		}
		t.Fatal("no line recall")
		return report.Delta{}
	}
	d1, d2 := line(c1), line(c2)
	if d1.CILow == d2.CILow && d1.CIHigh == d2.CIHigh {
		t.Errorf("seeds 7 and 8 give the same interval [%v, %v]", d1.CILow, d1.CIHigh)
	}
	// 12 pairs, all differing: sampled? No: 12 ≤ 16 non-zero, exact, so the
	// p-value does not depend on the seed.
	if d1.N != 12 || d1.Test != report.TestSignFlipExact || d1.PValue != d2.PValue {
		t.Errorf("line recall: %+v vs %+v", d1, d2)
	}
	if !(d1.CILow <= d1.MeanDelta && d1.MeanDelta <= d1.CIHigh) || c1.Seed != 7 || c1.Resamples != report.Resamples || !strings.Contains(c1.TestName, "sign-flip") {
		t.Errorf("comparison %+v, line recall %+v", c1, d1)
	}
}
