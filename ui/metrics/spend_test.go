package metrics

import "testing"

// Each column is the largest step of its actions, scaled to the run's
// largest; a zero is a baseline; the future is dotted.
func TestBars(t *testing.T) {
	cases := []struct {
		name         string
		vals         []float64
		cur, w       int
		past, future string
	}{
		{"one column per action", []float64{0, 1, 4, 8}, 3, 4, "_▁▄█", ""},
		{"the future", []float64{0, 1, 4, 8}, 1, 4, "_▁", "··"},
		{"a column holds its largest", []float64{1, 8, 2, 2}, 3, 2, "█▂", ""},
		{"nothing recorded", []float64{0, 0}, 1, 2, "__", ""},
	}
	for _, c := range cases {
		p, f := Bars(c.vals, c.cur, c.w)
		if p != c.past || f != c.future {
			t.Errorf("%s: %q+%q, want %q+%q", c.name, p, f, c.past, c.future)
		}
	}
}
