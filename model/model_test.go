package model

import (
	"reflect"
	"testing"
)

func TestMergeIntervals(t *testing.T) {
	cases := []struct {
		in, want []Interval
	}{
		{nil, nil},
		{[]Interval{{5, 9}, {1, 2}, {3, 4}}, []Interval{{1, 9}}}, // adjacent spans join
		{[]Interval{{1, 2}, {4, 5}}, []Interval{{1, 2}, {4, 5}}},
		{[]Interval{{1, 10}, {2, 3}}, []Interval{{1, 10}}},
		{[]Interval{{10, 4}}, []Interval{{10, 4}}}, // reversed ranges are kept as upstream keeps them
	}
	for _, c := range cases {
		in := append([]Interval(nil), c.in...)
		if got := MergeIntervals(in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("MergeIntervals(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestObservedReadResolve(t *testing.T) {
	cases := []struct {
		r     ObservedRead
		lines int
		want  Interval
		ok    bool
	}{
		{ObservedRead{Kind: ReadRange, Start: 3, End: 9}, 100, Interval{3, 9}, true},
		{ObservedRead{Kind: ReadRange, Start: 3, End: 900}, 100, Interval{3, 100}, true},
		{ObservedRead{Kind: ReadWhole}, 40, Interval{1, 40}, true},
		{ObservedRead{Kind: ReadHead, End: 10}, 4, Interval{1, 4}, true},
		{ObservedRead{Kind: ReadTail, End: 10}, 40, Interval{31, 40}, true},
		{ObservedRead{Kind: ReadTail, End: 10}, 4, Interval{1, 4}, true},
		{ObservedRead{Kind: ReadFrom, Start: 9}, 40, Interval{9, 40}, true},
		{ObservedRead{Kind: ReadFrom, Start: 50}, 40, Interval{50, 40}, false},
		{ObservedRead{Kind: ReadWhole}, 0, Interval{1, 0}, false},
		// SWE-agent 0.x: "open f 293" in a 372-line file keeps line 327
		// at 322, showing 273-372 (a real pydicom run shows exactly that).
		{ObservedRead{Kind: ReadWindow, Start: 327, End: 100}, 372, Interval{273, 372}, true},
		{ObservedRead{Kind: ReadWindow, Start: 154, End: 100}, 1000, Interval{105, 204}, true},
		{ObservedRead{Kind: ReadWindow, Start: 50, End: 100}, 18, Interval{1, 18}, true},
		{ObservedRead{Kind: ReadWindow, Start: 20, End: 100}, 500, Interval{1, 100}, true},
	}
	for _, c := range cases {
		got, ok := c.r.Resolve(c.lines)
		if got != c.want || ok != c.ok {
			t.Errorf("%+v.Resolve(%d) = %v %v, want %v %v", c.r, c.lines, got, ok, c.want, c.ok)
		}
	}
}
