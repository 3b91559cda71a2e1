package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// The columns a renderer treats apart, by index into ListColumns.
const (
	ColPos      = 0
	ColInstance = 1
	ColWho      = 2
	ColActions  = 3
	ColFound    = 7
	ColNever    = 11
)

// ListColumn is one column of a run list, as the explorer's list and the
// piped table (WriteRunList) both show it: its title, its width (0: the
// instance, which takes the room left), how its rows compare and how a row
// shows.
type ListColumn struct {
	Title  string
	Width  int
	Metric bool // filled in by the analysis; sorted descending first
	Less   func(a, b *story.Row, l model.Lens) bool
	Cell   func(r *story.Row, l model.Lens) string // nil for the instance (see story.Labels)
}

func byInt(f func(r *story.Row, l model.Lens) int) func(a, b *story.Row, l model.Lens) bool {
	return func(a, b *story.Row, l model.Lens) bool { return f(a, l) < f(b, l) }
}

func byFloat(f func(l *story.Figures) float64) func(a, b *story.Row, l model.Lens) bool {
	return func(a, b *story.Row, l model.Lens) bool { return f(&a.Lenses[l]) < f(&b.Lenses[l]) }
}

func ratio(f func(l *story.Figures) float64) func(r *story.Row, l model.Lens) string {
	return func(r *story.Row, l model.Lens) string {
		if r.Lenses[l].Error != "" {
			return "-"
		}
		if r.NoRepo != "" {
			return NoRepoMark + fmt.Sprintf("%.2f", f(&r.Lenses[l]))
		}
		return fmt.Sprintf("%.2f", f(&r.Lenses[l]))
	}
}

// NoRepoMark marks the figures of a run scored without its repository
// (from the lines it displayed): comparable with each other, not with runs
// scored against theirs. Every list shows it and says what it means.
const NoRepoMark = "~"

// NoRepoLegend is what NoRepoMark means, for a list's footer.
const NoRepoLegend = NoRepoMark + " scored without the repository, from the lines the run displayed"

// LessScored orders rows for a metric column: runs with figures first, and
// among them those scored against their repository before those scored
// without it (NoRepoMark); ok is false when both stand alike and the
// column decides.
func LessScored(a, b *story.Row, l model.Lens) (less, ok bool) {
	fa, fb := a.Analysed && a.Lenses[l].Error == "", b.Analysed && b.Lenses[l].Error == ""
	if fa != fb {
		return fa, true
	}
	if !fa {
		return false, true
	}
	if ra, rb := a.NoRepo == "", b.NoRepo == ""; ra != rb {
		return ra, true
	}
	return false, false
}

// SortRows orders view (indices into rows) by column col under lens l, as
// every run list sorts: a metric column puts runs without figures last
// whatever the direction (LessScored); desc reverses the column's order.
// The sort is stable.
func SortRows(view []int, rows []story.Row, col int, l model.Lens, desc bool) {
	c := ListColumns[col]
	sort.SliceStable(view, func(a, b int) bool {
		ra, rb := &rows[view[a]], &rows[view[b]]
		if c.Metric {
			if less, ok := LessScored(ra, rb, l); ok {
				return less
			}
		}
		if desc {
			return c.Less(rb, ra, l)
		}
		return c.Less(ra, rb, l)
	})
}

func count(f func(l *story.Figures) int) (func(a, b *story.Row, l model.Lens) bool, func(r *story.Row, l model.Lens) string) {
	return byInt(func(r *story.Row, l model.Lens) int { return f(&r.Lenses[l]) }),
		func(r *story.Row, l model.Lens) string {
			if r.Lenses[l].Error != "" {
				return "-"
			}
			return fmt.Sprint(f(&r.Lenses[l]))
		}
}

var (
	foundLess, foundCell   = count((*story.Figures).Found)
	droppedLess, dropCell  = count((*story.Figures).Dropped)
	nearLess, nearCell     = count((*story.Figures).NearMiss)
	searchLess, searchCell = count((*story.Figures).Searched)
	neverLess, neverCell   = count((*story.Figures).Never)

	cov = func(l *story.Figures) float64 { return l.Coverage }
	auc = func(l *story.Figures) float64 { return l.AUC }
	red = func(l *story.Figures) float64 { return l.Redundancy }
	// initial sorts runs without one (a single step) below 0.
	initial = func(l *story.Figures) float64 {
		if l.Initial == nil {
			return -1
		}
		return *l.Initial
	}
)

// ListColumns are a run list's columns, in display order. ColWho (agent ·
// model) is left out on a narrow screen; the last len(OptionalShown) (blind
// edits, then what the run spent) show only where some run fills them.
var ListColumns = []ListColumn{
	ColPos: {"#", 4, false, byInt(func(r *story.Row, _ model.Lens) int { return r.Pos }),
		func(r *story.Row, _ model.Lens) string { return fmt.Sprint(r.Pos) }},
	ColInstance: {"instance", 0, false, func(a, b *story.Row, _ model.Lens) bool { return strings.ToLower(a.ID) < strings.ToLower(b.ID) }, nil},
	ColWho: {"agent · model", 26, false, func(a, b *story.Row, _ model.Lens) bool {
		return strings.ToLower(a.Who()) < strings.ToLower(b.Who())
	},
		func(r *story.Row, _ model.Lens) string { return Who(r, 26) }},
	ColActions: {"acts", 5, true, byInt(func(r *story.Row, _ model.Lens) int { return r.Actions }),
		func(r *story.Row, _ model.Lens) string {
			if !r.Loaded {
				return ""
			}
			return fmt.Sprint(r.Actions)
		}},
	{"cov", 5, true, byFloat(cov), ratio(cov)},
	{"auc", 5, true, byFloat(auc), ratio(auc)},
	{"red", 5, true, byFloat(red), ratio(red)},
	ColFound: {"found", 5, true, foundLess, foundCell},
	{"drop", 4, true, droppedLess, dropCell},
	{"near", 4, true, nearLess, nearCell},
	{"srch", 4, true, searchLess, searchCell},
	ColNever: {"never", 5, true, neverLess, neverCell},
	// Initial recall: line coverage after the first of several steps
	// (hidden when no run has several).
	{"init", 5, true, byFloat(initial), func(r *story.Row, l model.Lens) string {
		if f := &r.Lenses[l]; f.Error == "" && f.Initial != nil {
			return fmt.Sprintf("%.2f", *f.Initial)
		}
		return "-"
	}},
	// Edits changed unread, for runs whose gold is their own edits
	// (hidden otherwise).
	{"blind", 5, true, byInt(func(r *story.Row, l model.Lens) int {
		if b := r.Lenses[l].BlindEdits; b != nil {
			return *b
		}
		return -1
	}), func(r *story.Row, l model.Lens) string {
		if b := r.Lenses[l].BlindEdits; b != nil {
			return fmt.Sprint(*b)
		}
		return "-"
	}},
	// What the run spent, when runs record it (hidden otherwise).
	{"tokens", 6, false, byInt(func(r *story.Row, _ model.Lens) int { return r.Tokens }), spendCell(0)},
	{"time", 6, false, func(a, b *story.Row, _ model.Lens) bool { return a.Seconds < b.Seconds }, spendCell(1)},
	{"cost", 7, false, func(a, b *story.Row, _ model.Lens) bool { return a.CostUSD < b.CostUSD }, spendCell(2)},
}

// spendCell is the k-th of a row's spend cells (tokens, time, cost).
func spendCell(k int) func(r *story.Row, _ model.Lens) string {
	return func(r *story.Row, _ model.Lens) string { return display.SpendCells(r.Spend())[k] }
}

// OptionalShown says, for each optional column in order (the last ones),
// whether a row fills it: a column shows only when some row does.
var OptionalShown = []func(r *story.Row) bool{
	func(r *story.Row) bool { return r.Lenses[0].Initial != nil || r.Lenses[1].Initial != nil },
	func(r *story.Row) bool { return r.GoldFrom == model.GoldFromEdits.String() },
	func(r *story.Row) bool { return r.Tokens > 0 },
	func(r *story.Row) bool { return r.Seconds > 0 },
	func(r *story.Row) bool { return r.CostUSD > 0 },
}

// Who is the agent and model in w cells: the model alone when both do not
// fit, since it tells runs of one agent apart.
func Who(r *story.Row, w int) string {
	s := termsafe.Line(r.Who())
	if ansi.StringWidth(s) > w && r.Model != "" {
		s = termsafe.Line(model.Who("", r.Model))
	}
	return display.Middle(s, w)
}
