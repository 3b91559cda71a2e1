package ui

import "github.com/trajscope/trajscope/ui/metrics"

// place is where a pane sits in the layout. On smaller screens several
// places share one slot.
type place int

const (
	placeList   place = iota // the left column: the timeline
	placeMain                // the large area: the source
	placeDetail              // under the main area: the observation
	placeSide                // a column of its own on wide screens, under the list on medium ones: the gold panel
	placeTask                // under a short list on wide screens, else with the detail: the task and patch
)

// need is how many rows the list and the side panes would fill (title
// included): the layout gives a short timeline only the rows it fills and
// the rest to the pane below it.
type need struct{ list, side int }

// slot is one pane's place in a column.
type slot struct {
	p paneID // -1: no pane has the slot's places
	h int
}

// column is a stack of panes of one width.
type column struct {
	w     int
	slots []slot
}

// layout places the panes for a screen size. Places that share a slot
// (narrow screens) are resolved by pick when the layout is computed.
type layout struct {
	w, h         int
	headerH      int
	bodyY, bodyH int
	metricsY     int
	metricsH     int
	footerY      int
	cols         []column
	name         string
}

// rect is a pane's position, for mouse routing.
type rect struct{ x, y, w, h int }

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// pickPane chooses the pane a slot shows: of the panes whose place is one of
// places, the one focused last (stamp), else the first registered for the
// first place.
func pickPane(places []place, stamp func(paneID) int) paneID {
	best, bestStamp := paneID(-1), -1
	for _, pl := range places {
		for id, r := range registry {
			if s := stamp(paneID(id)); r.place == pl && s > bestStamp {
				best, bestStamp = paneID(id), s
			}
		}
	}
	return best
}

// stack splits a column of total rows between an upper pane that fills up
// rows and a lower one that fills down rows: each gets what it fills when
// both fit, else a share in proportion, never less than min rows each.
func stack(total, up, down, min int) (int, int) {
	if up+down <= total {
		return up, total - up
	}
	a := clamp(total*up/max(up+down, 1), min, max(total-min, min))
	return a, total - a
}

// computeLayout lays out a w×h screen for panes that fill n rows; pick
// chooses the pane of a slot that several places share.
func computeLayout(w, h int, n need, pick func(places ...place) paneID) layout {
	l := layout{w: w, h: h, headerH: 1}
	l.metricsH = metrics.Height(h)
	if h < 16 {
		l.metricsH = 0 // too short: the panes need every row
	}
	l.bodyY = l.headerH
	l.bodyH = max(h-l.headerH-l.metricsH-1, 0)
	l.metricsY = l.bodyY + l.bodyH
	l.footerY = h - 1
	split := func(total int, frac float64, minA, minB int) (int, int) {
		a := clamp(int(float64(total)*frac), minA, max(total-minB, minA))
		return min(a, total), max(total-a, 0)
	}
	bh := l.bodyH
	switch {
	case w >= 150 && h >= 30:
		l.name = "wide"
		tlW := clamp(w*26/100, 30, 56)
		goldW := clamp(w*28/100, 44, 60)
		srcH, obsH := split(bh, 0.62, 5, 4)
		left := []slot{{pick(placeList), bh}}
		right := []slot{{pick(placeSide), bh}}
		detail := pick(placeDetail, placeTask)
		switch {
		case n.side+10 <= bh:
			// A short gold list: the task and patch take the rows under it.
			right = []slot{{pick(placeSide), n.side}, {pick(placeTask), bh - n.side}}
			detail = pick(placeDetail)
		case n.list+10 <= bh:
			// A short timeline: under it, then.
			left = []slot{{pick(placeList), n.list}, {pick(placeTask), bh - n.list}}
			detail = pick(placeDetail)
		}
		l.cols = []column{
			{tlW, left},
			{w - tlW - goldW - 2, []slot{{pick(placeMain), srcH}, {detail, obsH}}},
			{goldW, right},
		}
	case w >= 110:
		l.name = "medium"
		tlW := clamp(w*36/100, 34, 56)
		tlH, goldH := stack(bh, n.list, n.side, 5)
		srcH, obsH := split(bh, 0.6, 5, 4)
		l.cols = []column{
			{tlW, []slot{{pick(placeList), tlH}, {pick(placeSide), goldH}}},
			{w - tlW - 1, []slot{{pick(placeMain), srcH}, {pick(placeDetail, placeTask), obsH}}},
		}
	case w >= 60:
		l.name = "narrow"
		tlW := clamp(w*37/100, 24, 40)
		srcH, obsH := split(bh, 0.58, 5, 4)
		left := []slot{{pick(placeList), bh}}
		detail := pick(placeDetail, placeTask, placeSide)
		if n.list+5 <= bh || bh >= 20 {
			// Room under the timeline (or enough rows to share): the gold
			// panel stays in view.
			tlH, goldH := stack(bh, n.list, n.side, 6)
			left = []slot{{pick(placeList), tlH}, {pick(placeSide), goldH}}
			detail = pick(placeDetail, placeTask)
		}
		l.cols = []column{
			{tlW, left},
			{w - tlW - 1, []slot{{pick(placeMain), srcH}, {detail, obsH}}},
		}
	default:
		l.name = "tiny"
		topH, botH := split(bh, 0.6, 3, 3)
		l.cols = []column{{w, []slot{{pick(placeMain, placeList), topH}, {pick(placeDetail, placeTask, placeSide), botH}}}}
	}
	return l
}

// rects returns where each visible pane is.
func (l layout) rects() map[paneID]rect {
	out := map[paneID]rect{}
	x := 0
	for _, c := range l.cols {
		y := l.bodyY
		for _, s := range c.slots {
			if s.p >= 0 {
				out[s.p] = rect{x, y, c.w, s.h}
			}
			y += s.h
		}
		x += c.w + 1
	}
	return out
}

// visible reports whether a pane has a place in the layout.
func (l layout) visible(p paneID) bool {
	_, ok := l.rects()[p]
	return ok
}
