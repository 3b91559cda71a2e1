package runlist

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
)

// column is one column of the list: its title, its width (0: the instance,
// which takes the room left), how its rows compare and how a row shows.
type column struct {
	title  string
	w      int
	metric bool // filled in by the analysis; descending first
	less   func(a, b *report.ListRow, l model.Lens) bool
	cell   func(r *report.ListRow, l model.Lens) string
}

func byInt(f func(r *report.ListRow, l model.Lens) int) func(a, b *report.ListRow, l model.Lens) bool {
	return func(a, b *report.ListRow, l model.Lens) bool { return f(a, l) < f(b, l) }
}

func byFloat(f func(l *report.ListLens) float64) func(a, b *report.ListRow, l model.Lens) bool {
	return func(a, b *report.ListRow, l model.Lens) bool { return f(&a.Lenses[l]) < f(&b.Lenses[l]) }
}

func ratio(f func(l *report.ListLens) float64) func(r *report.ListRow, l model.Lens) string {
	return func(r *report.ListRow, l model.Lens) string {
		if r.Lenses[l].Error != "" {
			return "-"
		}
		return fmt.Sprintf("%.2f", f(&r.Lenses[l]))
	}
}

func count(f func(l *report.ListLens) int) (func(a, b *report.ListRow, l model.Lens) bool, func(r *report.ListRow, l model.Lens) string) {
	return byInt(func(r *report.ListRow, l model.Lens) int { return f(&r.Lenses[l]) }),
		func(r *report.ListRow, l model.Lens) string {
			if r.Lenses[l].Error != "" {
				return "-"
			}
			return fmt.Sprint(f(&r.Lenses[l]))
		}
}

var (
	foundLess, foundCell   = count((*report.ListLens).Found)
	droppedLess, dropCell  = count((*report.ListLens).Dropped)
	nearLess, nearCell     = count((*report.ListLens).NearMiss)
	searchLess, searchCell = count((*report.ListLens).Searched)
	neverLess, neverCell   = count((*report.ListLens).Never)

	cov = func(l *report.ListLens) float64 { return l.Coverage }
	auc = func(l *report.ListLens) float64 { return l.AUC }
	red = func(l *report.ListLens) float64 { return l.Redundancy }
)

// columns, in display order. Column 2 (agent · model) is left out on a
// narrow screen.
var columns = []column{
	{"#", 4, false, byInt(func(r *report.ListRow, _ model.Lens) int { return r.Pos }),
		func(r *report.ListRow, _ model.Lens) string { return fmt.Sprint(r.Pos) }},
	{"instance", 0, false, func(a, b *report.ListRow, _ model.Lens) bool { return strings.ToLower(a.ID) < strings.ToLower(b.ID) }, nil},
	{"agent · model", 26, false, func(a, b *report.ListRow, _ model.Lens) bool {
		return strings.ToLower(a.Who()) < strings.ToLower(b.Who())
	},
		func(r *report.ListRow, _ model.Lens) string { return who(r, 26) }},
	{"acts", 5, true, byInt(func(r *report.ListRow, _ model.Lens) int { return r.Actions }),
		func(r *report.ListRow, _ model.Lens) string {
			if !r.Loaded {
				return ""
			}
			return fmt.Sprint(r.Actions)
		}},
	{"cov", 5, true, byFloat(cov), ratio(cov)},
	{"auc", 5, true, byFloat(auc), ratio(auc)},
	{"red", 5, true, byFloat(red), ratio(red)},
	{"found", 5, true, foundLess, foundCell},
	{"drop", 4, true, droppedLess, dropCell},
	{"near", 4, true, nearLess, nearCell},
	{"srch", 4, true, searchLess, searchCell},
	{"never", 5, true, neverLess, neverCell},
	// What the run spent, when runs record it (hidden otherwise).
	{"tokens", 6, false, byInt(func(r *report.ListRow, _ model.Lens) int { return r.Tokens }), spendCell(0)},
	{"time", 6, false, func(a, b *report.ListRow, _ model.Lens) bool { return a.Seconds < b.Seconds }, spendCell(1)},
	{"cost", 7, false, func(a, b *report.ListRow, _ model.Lens) bool { return a.CostUSD < b.CostUSD }, spendCell(2)},
}

// spendCell is the k-th of a row's spend cells (tokens, time, cost).
func spendCell(k int) func(r *report.ListRow, _ model.Lens) string {
	return func(r *report.ListRow, _ model.Lens) string { return r.Spend().Cells()[k] }
}

// spendCols are the columns of what runs spent, by index: each is shown
// only when some run records it.
var spendCols = []func(r *report.ListRow) bool{
	func(r *report.ListRow) bool { return r.Tokens > 0 },
	func(r *report.ListRow) bool { return r.Seconds > 0 },
	func(r *report.ListRow) bool { return r.CostUSD > 0 },
}

// who is the agent and model in w cells: the model alone when both do
// not fit, since it tells runs of one agent apart.
func who(r *report.ListRow, w int) string {
	s := termsafe.Line(r.Who())
	if ansi.StringWidth(s) > w && r.Model != "" {
		s = termsafe.Line(model.Who("", r.Model))
	}
	return display.Middle(s, w)
}

// whoCol is the agent · model column, shown when the instance keeps
// instanceMin cells beside it.
const (
	whoCol      = 2
	instanceMin = 28
)

// widths are the columns' widths at the list's width: the instance takes
// what the others leave; 0 hides a column (agent · model on a narrow
// screen, or when no run names one).
func (m *Model) widths() []int {
	ws := make([]int, len(columns))
	fixed := 1 // the leading space
	for i, c := range columns {
		ws[i] = c.w
		if i != 1 {
			fixed += c.w + 1
		}
	}
	fixed++ // the instance's own gap
	anyWho := false
	for i := range m.rows {
		anyWho = anyWho || m.rows[i].Who() != ""
	}
	// A spend column shows when some run records it and the instance
	// keeps its room.
	for k, recorded := range spendCols {
		i := len(columns) - len(spendCols) + k
		any := false
		for k := range m.rows {
			any = any || recorded(&m.rows[k])
		}
		if !any || m.w-fixed < instanceMin {
			fixed -= ws[i] + 1
			ws[i] = 0
		}
	}
	// Prediction records name no agent: the column would stay empty.
	if m.w-fixed < instanceMin || !anyWho {
		fixed -= ws[whoCol] + 1
		ws[whoCol] = 0
	}
	ws[1] = max(m.w-fixed, 8)
	return ws
}
