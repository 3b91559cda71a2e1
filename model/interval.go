package model

import (
	"cmp"
	"slices"
)

// Interval is an inclusive [Start, End] range of lines (1-based, as
// ContextBench writes {"type": "line", "start": a, "end": b}) or of bytes.
// Start may exceed End: upstream keeps such line ranges as they are, with a
// negative length, so the type does not normalise.
type Interval struct {
	Start int
	End   int
}

// MergeIntervals sorts ivs and joins overlapping or adjacent intervals in
// place, exactly as upstream's merge: sort by (start, end), then join while
// cur.Start <= last.End+1. It returns the merged prefix of ivs; callers that
// still need the input pass a copy.
func MergeIntervals(ivs []Interval) []Interval {
	if len(ivs) < 2 {
		return ivs
	}
	slices.SortFunc(ivs, func(a, b Interval) int {
		if a.Start != b.Start {
			return cmp.Compare(a.Start, b.Start)
		}
		return cmp.Compare(a.End, b.End)
	})
	out := ivs[:1]
	for _, cur := range ivs[1:] {
		last := &out[len(out)-1]
		if cur.Start <= last.End+1 {
			last.End = max(last.End, cur.End)
			continue
		}
		out = append(out, cur)
	}
	return out
}

// Merge is ivs sorted and merged into a new list (reversed intervals
// dropped: they hold no lines), or ivs themselves when they are so already
// (one range, as most reads are): nothing here changes ivs.
func Merge(ivs []Interval) []Interval {
	if Merged(ivs) {
		return ivs
	}
	out := make([]Interval, 0, len(ivs))
	for _, iv := range ivs {
		if iv.Start <= iv.End {
			out = append(out, iv)
		}
	}
	return MergeIntervals(out)
}

// Merged reports intervals that are well formed, sorted and apart (not
// overlapping or adjacent), as MergeIntervals leaves them.
func Merged(ivs []Interval) bool {
	for i, iv := range ivs {
		if iv.Start > iv.End || i > 0 && iv.Start <= ivs[i-1].End+1 {
			return false
		}
	}
	return true
}

// TotalLength is Σ(End-Start+1) over merged intervals.
func TotalLength(ivs []Interval) int {
	n := 0
	for _, iv := range ivs {
		n += iv.End - iv.Start + 1
	}
	return n
}

// IntersectLength is the two-pointer intersection size of two merged lists.
func IntersectLength(a, b []Interval) int {
	n := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		s, e := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if s <= e {
			n += e - s + 1
		}
		switch {
		case a[i].End < b[j].End:
			i++
		case b[j].End < a[i].End:
			j++
		default:
			i++
			j++
		}
	}
	return n
}

// IntersectIntervals returns the intersection of two merged lists.
func IntersectIntervals(a, b []Interval) []Interval {
	var out []Interval
	for i, j := 0, 0; i < len(a) && j < len(b); {
		s, e := max(a[i].Start, b[j].Start), min(a[i].End, b[j].End)
		if s <= e {
			out = append(out, Interval{s, e})
		}
		if a[i].End < b[j].End {
			i++
		} else {
			j++
		}
	}
	return out
}
