package pane

import (
	"sort"

	"github.com/trajscope/trajscope/display"
)

// rows are the actions the category filter keeps, computed once per
// context revision: stepping, the timeline and search all walk them.
// list is the timeline's order (each agent's actions under the call that
// started it, Data.Grouped); byTime the same actions in time order, which
// stepping and playing follow.
type rows struct {
	list   []int
	byTime []int
	pos    []int // action -> row of list, -1 when filtered out
	rev    int
	ok     bool
}

func (c *Context) sync() {
	if c.rows.ok && c.rows.rev == c.Rev {
		return
	}
	c.rows.ok, c.rows.rev = true, c.Rev
	d := c.Data
	c.rows.list, c.rows.byTime = c.rows.list[:0], c.rows.byTime[:0]
	c.rows.pos = make([]int, d.N)
	for i := range d.Run.Actions {
		c.rows.pos[i] = -1
		act := &d.Run.Actions[i]
		if (c.Filter == "" || display.Category(act).String() == c.Filter) && !(c.Folded && act.Sidechain()) {
			c.rows.pos[i] = 0
			c.rows.byTime = append(c.rows.byTime, i)
		}
	}
	for _, i := range d.Grouped {
		if c.rows.pos[i] >= 0 {
			c.rows.pos[i] = len(c.rows.list)
			c.rows.list = append(c.rows.list, i)
		}
	}
}

// Rows returns the action indices the current filter shows, in the
// timeline's order.
func (c *Context) Rows() []int {
	c.sync()
	return c.rows.list
}

// Row returns action i's row in the filtered list, -1 when filtered out.
func (c *Context) Row(i int) int {
	c.sync()
	if i < 0 || i >= len(c.rows.pos) {
		return -1
	}
	return c.rows.pos[i]
}

// Visible reports whether the filter shows action i.
func (c *Context) Visible(i int) bool { return c.Row(i) >= 0 }

// Neighbour returns the visible action n rows after action i (before it
// when n < 0), clamped to the list; n == 0 gives i or, when the filter hides
// it, the nearest visible action. ok is false when there is nowhere to go.
func (c *Context) Neighbour(i, n int) (int, bool) {
	c.sync()
	rows := c.rows.byTime
	if len(rows) == 0 {
		return i, false
	}
	switch {
	case n > 0:
		r := sort.SearchInts(rows, i+1) // first row after i
		if r == len(rows) {
			return i, false
		}
		return rows[min(r+n-1, len(rows)-1)], true
	case n < 0:
		r := sort.SearchInts(rows, i) - 1 // last row before i
		if r < 0 {
			return i, false
		}
		return rows[max(r+n+1, 0)], true
	}
	r := sort.SearchInts(rows, i)
	if r == len(rows) {
		r--
	}
	return rows[r], true
}

// Beside returns the action n rows below action i in the timeline's order
// (above it when n < 0), clamped to the list: the timeline's own j/k, which
// walk an agent's block where stepping follows time. ok is false when i is
// not listed or there is nowhere to go.
func (c *Context) Beside(i, n int) (int, bool) {
	r := c.Row(i)
	if r < 0 {
		return c.Neighbour(i, n)
	}
	to := max(0, min(r+n, len(c.rows.list)-1))
	return c.rows.list[to], to != r
}
