// Package ir computes file-ranking metrics the way CodeScaleBench does
// (sourcegraph CodeContextBench, scripts/csb_metrics/ir_metrics.py and
// retrieval_eval_pipeline.py): the run's files in first-seen order are a
// ranked list, the gold files the relevant set.
//
// Differences from CodeScaleBench, all deliberate: paths are repository
// files resolved the way ContextBench resolves them (not lower-cased
// strings), so unresolvable paths are not retrieved; per-task values keep full
// precision (CodeScaleBench rounds each to 4 places before averaging, a
// difference below 5e-5); and the events come from trajscope's lenses rather
// than Claude Code tool names, so shell reads count.
package ir

import (
	"math"
	"slices"
)

// Relevant is the relevant set: sorted, each file once. A sorted list
// rather than a map, so a gold of a million files costs a string header
// each (the prepared gold's own list is one already).
type Relevant []string

// Has reports whether f is relevant.
func (r Relevant) Has(f string) bool {
	_, ok := slices.BinarySearch(r, f)
	return ok
}

// Ks are the cut-offs of the @K metrics.
var Ks = [4]int{1, 3, 5, 10}

// PrecisionAtK is |relevant ∩ retrieved[:k]| / k, with k the divisor even
// when fewer files were retrieved; 0 when k ≤ 0 or nothing was retrieved.
func PrecisionAtK(retrieved []string, relevant Relevant, k int) float64 {
	if k <= 0 || len(retrieved) == 0 {
		return 0
	}
	hits := 0
	for _, f := range retrieved[:min(k, len(retrieved))] {
		if relevant.Has(f) {
			hits++
		}
	}
	return float64(hits) / float64(k)
}

// RecallAtK is |relevant ∩ retrieved[:k]| / |relevant|; 1.0 when nothing is
// relevant, 0 when nothing was retrieved.
func RecallAtK(retrieved []string, relevant Relevant, k int) float64 {
	if len(relevant) == 0 {
		return 1
	}
	if len(retrieved) == 0 || k <= 0 {
		return 0
	}
	return float64(countRelevant(retrieved[:min(k, len(retrieved))], relevant)) / float64(len(relevant))
}

// F1AtK is the harmonic mean of PrecisionAtK and RecallAtK, 0 when both are.
func F1AtK(retrieved []string, relevant Relevant, k int) float64 {
	p, r := PrecisionAtK(retrieved, relevant, k), RecallAtK(retrieved, relevant, k)
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// MRR is 1/rank of the first relevant file, 0 when there is none.
func MRR(retrieved []string, relevant Relevant) float64 {
	for i, f := range retrieved {
		if relevant.Has(f) {
			return 1 / float64(i+1)
		}
	}
	return 0
}

// NDCGAtK is binary-gain nDCG: Σ_{i<k, relevant} 1/log2(i+2) over the ideal
// Σ_{i<min(k,|relevant|)} 1/log2(i+2); 0 when k ≤ 0 or nothing is relevant.
func NDCGAtK(retrieved []string, relevant Relevant, k int) float64 {
	if k <= 0 || len(relevant) == 0 {
		return 0
	}
	dcg := 0.0
	for i, f := range retrieved[:min(k, len(retrieved))] {
		if relevant.Has(f) {
			dcg += 1 / log2(i+2)
		}
	}
	idcg := 0.0
	for i := 0; i < min(k, len(relevant)); i++ {
		idcg += 1 / log2(i+2)
	}
	if idcg == 0 {
		return 0
	}
	return dcg / idcg
}

// AveragePrecision is Σ over relevant ranks of (hits so far)/(rank), over
// |relevant| (CodeScaleBench's "map" for one task); 1.0 when nothing is
// relevant, 0 when nothing relevant was retrieved.
func AveragePrecision(retrieved []string, relevant Relevant) float64 {
	if len(relevant) == 0 {
		return 1
	}
	sum, hits := 0.0, 0
	for i, f := range retrieved {
		if relevant.Has(f) {
			hits++
			sum += float64(hits) / float64(i+1)
		}
	}
	if hits == 0 {
		return 0
	}
	return sum / float64(len(relevant))
}

// FileRecall is the share of relevant files retrieved anywhere; 1.0 when
// nothing is relevant.
func FileRecall(retrieved []string, relevant Relevant) float64 {
	if len(relevant) == 0 {
		return 1
	}
	return float64(countRelevant(retrieved, relevant)) / float64(len(relevant))
}

// ContextEfficiency is the share of retrieved files that are relevant; 0
// when nothing was retrieved.
func ContextEfficiency(retrieved []string, relevant Relevant) float64 {
	if len(retrieved) == 0 {
		return 0
	}
	hits := 0
	for _, f := range retrieved {
		if relevant.Has(f) {
			hits++
		}
	}
	return float64(hits) / float64(len(retrieved))
}

// countRelevant counts distinct relevant files in a list.
func countRelevant(files []string, relevant Relevant) int {
	seen := map[string]bool{}
	for _, f := range files {
		if relevant.Has(f) && !seen[f] {
			seen[f] = true
		}
	}
	return len(seen)
}

// pyLog2 is Python's math.log2(n) for n = 2..11, the discounts of ranks up
// to 10. Go's math.Log2 is one ulp off C's log2 for 3 and 9, which would
// make nDCG differ from CodeScaleBench's in the last digit.
var pyLog2 = [...]float64{2: 1, 3: 1.584962500721156, 4: 2, 5: 2.321928094887362, 6: 2.584962500721156,
	7: 2.807354922057604, 8: 3, 9: 3.169925001442312, 10: 3.321928094887362, 11: 3.4594316186372973}

func log2(n int) float64 {
	if n < len(pyLog2) {
		return pyLog2[n]
	}
	return math.Log2(float64(n))
}
