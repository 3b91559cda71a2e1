package ui

import "testing"

func TestLayout(t *testing.T) {
	cases := []struct {
		w, h     int
		name     string
		bottom   paneID
		visible  []paneID
		hidden   []paneID
		metricsH int
	}{
		{200, 60, "wide", paneObservation, []paneID{paneTimeline, paneSource, paneObservation, paneGold}, nil, 5},
		{120, 36, "medium", paneObservation, []paneID{paneTimeline, paneSource, paneObservation, paneGold}, nil, 5},
		{80, 24, "narrow", paneObservation, []paneID{paneTimeline, paneSource, paneObservation}, []paneID{paneGold}, 4},
		{80, 24, "narrow", paneGold, []paneID{paneTimeline, paneSource, paneGold}, []paneID{paneObservation}, 4},
		{50, 20, "tiny", paneObservation, []paneID{paneSource, paneObservation}, []paneID{paneTimeline, paneGold}, 4},
		{60, 12, "narrow", paneObservation, []paneID{paneTimeline}, nil, 0},
	}
	for _, c := range cases {
		// c.bottom was focused last, the source before it.
		stamps := map[paneID]int{paneSource: 1, c.bottom: 2}
		l := computeLayout(c.w, c.h, need{list: 40, side: 20}, func(places ...place) paneID {
			return pickPane(places, func(p paneID) int { return stamps[p] })
		})
		if l.name != c.name || l.metricsH != c.metricsH {
			t.Errorf("%dx%d: layout %s metrics %d, want %s %d", c.w, c.h, l.name, l.metricsH, c.name, c.metricsH)
		}
		for _, p := range c.visible {
			if !l.visible(p) {
				t.Errorf("%dx%d (%s): %s hidden", c.w, c.h, c.name, p)
			}
		}
		for _, p := range c.hidden {
			if l.visible(p) {
				t.Errorf("%dx%d (%s): %s shown", c.w, c.h, c.name, p)
			}
		}
		// Columns fill the width exactly (one separator between columns).
		sum := len(l.cols) - 1
		for _, col := range l.cols {
			sum += col.w
			rows := 0
			for _, s := range col.slots {
				rows += s.h
			}
			if rows != l.bodyH {
				t.Errorf("%dx%d: a column has %d rows, body %d", c.w, c.h, rows, l.bodyH)
			}
		}
		if sum != c.w {
			t.Errorf("%dx%d: columns span %d", c.w, c.h, sum)
		}
	}
}

// Stepping with a category filter skips hidden actions; a hidden current
// action steps to its visible neighbours.
func TestNeighbourWithFilter(t *testing.T) {
	m := newModel(t, demoAnalysis(t), Options{}, 80, 24)
	m.ctx.Filter = "read" // reads: 3 4 6 8 9 12 17 (1-based)
	m.ctx.Rev++
	cases := []struct{ from, n, want int }{
		{2, 1, 3}, {2, -1, 2}, {0, 1, 2}, {0, 0, 2}, {4, 1, 5}, {4, -1, 3}, {16, 1, 16}, {19, 0, 16}, {4, 3, 8}, {11, -10, 2},
	}
	for _, c := range cases {
		got, _ := m.ctx.Neighbour(c.from, c.n)
		if got != c.want {
			t.Errorf("Neighbour(%d, %d) = %d, want %d", c.from, c.n, got, c.want)
		}
	}
}
