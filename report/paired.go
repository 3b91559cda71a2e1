package report

import (
	"hash/fnv"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
	gstat "gonum.org/v1/gonum/stat"
)

// Paired statistics of a comparison: how sure B − A is, not only how large.
const (
	// DefaultSeed seeds the bootstrap and the permutation test unless
	// --seed says otherwise, so two reports of the same files agree.
	DefaultSeed uint64 = 1
	// Resamples is the number of bootstrap resamples and of random sign
	// assignments.
	Resamples = 10000
	// Confidence is the level of the bootstrap interval.
	Confidence = 0.95
	// ExactSignFlipMax is the most non-zero differences whose 2^k sign
	// assignments are enumerated; beyond it they are sampled.
	ExactSignFlipMax = 16
)

// Test names, as the JSON output gives them per metric.
const (
	TestSignFlipExact      = "sign-flip exact"
	TestSignFlipMonteCarlo = "sign-flip Monte Carlo"
)

// PairedTestName describes the test every comparison uses.
const PairedTestName = "two-sided paired sign-flip permutation test of the mean difference"

// NewRNG returns the generator of one named stream under a seed. Each metric
// and each procedure draws from its own stream, so adding a metric or
// reordering them does not change another's figures.
func NewRNG(seed uint64, stream string) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(stream))
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// intN draws from [0, n) by multiply-shift on one 64-bit output. rand.IntN
// would do, but its reduction is not promised stable across Go releases;
// this one is, given PCG's fixed output, so a seed means the same numbers
// everywhere. Its bias, under n/2^64, is far below the Monte Carlo error.
func intN(r *rand.Rand, n int) int {
	hi, _ := bits.Mul64(r.Uint64(), uint64(n))
	return int(hi)
}

// BootstrapCI is the percentile bootstrap interval of the mean of deltas:
// the (1−level)/2 and (1+level)/2 empirical quantiles of the means of
// resamples drawn with replacement. Each delta is one matched pair's B − A,
// so resampling deltas resamples pairs. Empty deltas give (0, 0).
func BootstrapCI(deltas []float64, level float64, resamples int, r *rand.Rand) (lo, hi float64) {
	n := len(deltas)
	if n == 0 || resamples <= 0 {
		return 0, 0
	}
	means := make([]float64, resamples)
	for b := range means {
		sum := 0.0
		for range n {
			sum += deltas[intN(r, n)]
		}
		means[b] = sum / float64(n)
	}
	slices.Sort(means)
	alpha := (1 - level) / 2
	return gstat.Quantile(alpha, gstat.Empirical, means, nil), gstat.Quantile(1-alpha, gstat.Empirical, means, nil)
}

// SignFlipP is the two-sided p-value of the paired sign-flip permutation
// test of "the mean difference is 0": under that hypothesis each
// difference is as likely negated, so p is the share of sign assignments
// whose |Σ ±d| reaches the observed |Σ d|. Zero differences do not change
// under a flip, so only the k non-zero ones are flipped: all 2^k
// assignments when k ≤ ExactSignFlipMax (exact), else draws random ones
// with p = (count+1)/(draws+1), which never reports an impossible 0.
func SignFlipP(deltas []float64, draws int, r *rand.Rand) (p float64, exact bool) {
	var d []float64
	for _, v := range deltas {
		if v != 0 {
			d = append(d, v)
		}
	}
	k := len(d)
	if k == 0 {
		return 1, true
	}
	obs := math.Abs(floats.Sum(d))
	// Sums of the same values in another order can differ in the last
	// bits; a tie must count as reaching the observed value.
	tol := 1e-12 * floats.Norm(d, 1)
	reaches := func(s float64) bool { return math.Abs(s) >= obs-tol }
	if k <= ExactSignFlipMax {
		count := 0
		for mask := range uint32(1) << k {
			s := 0.0
			for i, v := range d {
				if mask&(1<<i) != 0 {
					s -= v
				} else {
					s += v
				}
			}
			if reaches(s) {
				count++
			}
		}
		return float64(count) / float64(uint32(1)<<k), true
	}
	count := 0
	for range draws {
		s := 0.0
		var word uint64
		for i, v := range d {
			if i%64 == 0 {
				word = r.Uint64()
			}
			if word&1 != 0 {
				s -= v
			} else {
				s += v
			}
			word >>= 1
		}
		if reaches(s) {
			count++
		}
	}
	return float64(count+1) / float64(draws+1), false
}
