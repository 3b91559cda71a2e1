package metrics

import "testing"

func TestSpark(t *testing.T) {
	cases := []struct {
		name         string
		vals         []float64
		cur, w       int
		past, future string
	}{
		{"one column per action, a zero a baseline", []float64{0, 0.1, 0.5, 1}, 3, 4, "_▁▄█", ""},
		{"future is dotted", []float64{0, 0.1, 0.5, 1}, 1, 4, "_▁", "··"},
		{"stretched", []float64{0.5, 1}, 1, 4, "▄▄██", ""},
		{"bucketed: last action of each bucket", []float64{0, 0.25, 0.5, 0.75, 1, 1}, 5, 3, "▂▆█", ""},
		// The column of the current action shows the curve as far as it: a
		// step that finds gold fills its column then, not a step late
		// (issue 50: at 100x30 the block came one step after the find).
		{"bucketed, cur mid-bucket", []float64{0, 0.25, 0.5, 0.75, 1, 1}, 2, 3, "▂▄", "·"},
		{"bucketed, cur at a bucket's start", []float64{0, 0, 0, 1, 1, 1}, 2, 3, "__", "·"},
		{"bucketed, the find mid-bucket", []float64{0, 0, 1, 1, 1, 1}, 2, 3, "_█", "·"},
		{"empty", nil, 0, 5, "", ""},
		{"tiny value shows", []float64{0.001}, 0, 1, "▁", ""},
	}
	for _, c := range cases {
		p, f := SparkOf(Blocks, len(c.vals), func(i int) float64 { return c.vals[i] }, c.cur, c.w)
		if p != c.past || f != c.future {
			t.Errorf("%s: got %q+%q, want %q+%q", c.name, p, f, c.past, c.future)
		}
	}
}
