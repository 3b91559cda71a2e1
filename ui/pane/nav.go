package pane

import (
	"sort"

	"github.com/trajscope/trajscope/display"
)

// rows are the actions the category filter keeps, computed once per
// context revision: stepping, the timeline and search all walk them.
type rows struct {
	list []int
	pos  []int // action -> row, -1 when filtered out
	rev  int
	ok   bool
}

func (c *Context) sync() {
	if c.rows.ok && c.rows.rev == c.Rev {
		return
	}
	c.rows.ok, c.rows.rev = true, c.Rev
	d := c.Data
	c.rows.list = c.rows.list[:0]
	c.rows.pos = make([]int, d.N)
	for i := range d.Run.Actions {
		c.rows.pos[i] = -1
		act := &d.Run.Actions[i]
		if (c.Filter == "" || display.Category(act).String() == c.Filter) && !(c.Folded && act.Sidechain()) {
			c.rows.pos[i] = len(c.rows.list)
			c.rows.list = append(c.rows.list, i)
		}
	}
}

// Rows returns the action indices the current filter shows.
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
	rows := c.Rows()
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
