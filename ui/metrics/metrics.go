// Package metrics is the explorer's bottom bar: a sparkline per granularity
// of cumulative coverage up to the current action, the current values, the
// redundancy counter, the final context's scores and EditLoc at the end.
package metrics

import (
	"fmt"
	"github.com/trajscope/trajscope/story"
	"math"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
)

// Model is the metrics bar.
type Model struct {
	ctx   *pane.Context
	w, h  int
	spend *spendSeries // the spend chart's figures, for the run shown
}

// New returns a metrics bar.
func New(ctx *pane.Context) *Model { return &Model{ctx: ctx} }

// SetSize sets the bar's size, title row included.
func (m *Model) SetSize(w, h int) { m.w, m.h = w, h }

// Height is the bar's height for a screen height: one row per granularity
// when there is room, two granularities a row otherwise.
func Height(screenH int) int {
	if screenH >= 30 {
		return 5
	}
	return 4
}

// Blocks are the sparkline's eight levels.
var Blocks = []rune("▁▂▃▄▅▆▇█")

// SparkOf renders values at(0..cur) of n as a sparkline of width w over
// the whole run, in eight level glyphs lowest first, so the axis does not
// move while stepping; a zero is "_", columns after cur are dots. A long run's curve is
// read only where a column samples it.
func SparkOf(levels []rune, n int, at func(int) float64, cur, w int) (past, future string) {
	if n == 0 || w <= 0 {
		return "", ""
	}
	var p, f strings.Builder
	for c := 0; c < w; c++ {
		first := c * n / w // the column's first action
		i := first
		if n >= w {
			// The column stands for its bucket of actions, shown as far as
			// the current one: the step that finds gold fills its column
			// at that step, not when its bucket ends.
			i = min((c+1)*n/w-1, cur)
		}
		if first > cur {
			f.WriteRune('·')
			continue
		}
		v := at(i)
		if v <= 0 {
			// Nothing yet: a baseline, not a gap, so every curve starts
			// in the same column whatever the lens.
			p.WriteRune('_')
			continue
		}
		k := int(math.Ceil(v*8)) - 1
		p.WriteRune(levels[min(max(k, 0), 7)])
	}
	return p.String(), f.String()
}

// View renders the bar.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	if m.ctx.Spend {
		return m.spendView()
	}
	ctx, t, d := m.ctx, m.ctx.Theme, m.ctx.Data
	ld := ctx.L()
	cur := ctx.Cur
	res := &ld.Result
	detail := fmt.Sprintf("%s lens · cumulative up to step %d", ctx.Lens, cur+1)
	if ld.FinalStandIn {
		detail += " · " + story.FinalStandIn
	}
	if d.A.Partial != nil {
		detail = display.NoRepoMetrics + " · " + detail
	}
	lines := []string{pane.Title(ctx, display.CoverageTitle(d.S.Target.From), detail, false, m.w)}

	at := &ld.Actions[cur]
	reread := fmt.Sprintf("re-read %d/%d lines (%s)", at.CumReread, at.CumRead, display.Ratio(at.CumReread, at.CumRead))
	editloc := "EditLoc: at the last step"
	if cur == d.N-1 {
		if e := res.EditLoc; e != nil {
			editloc = fmt.Sprintf("EditLoc (run) recall %.2f precision %.2f", e.Recall, e.Precision)
			if d.A.EditLocFromGold {
				editloc = fmt.Sprintf("EditLoc %.2f/%.2f · %s", e.Recall, e.Precision, display.EditLocGoldPatch)
			}
		} else {
			editloc = "EditLoc: no patch"
		}
		if why := d.A.Uncomputable(ctx.Lens, model.GranLine); why != "" && res.EditLoc != nil {
			editloc = "EditLoc: n/a (" + why + ")" // it counts gold lines
		}
	}
	if res.Error != "" {
		editloc = "not scored: " + res.Error
	}

	spark := func(g model.Granularity, w int) string {
		if why := d.A.Uncomputable(ctx.Lens, g); why != "" {
			// A row of dots would read as "not yet": say why instead.
			return t.Muted.Render(fit.Line(why, w))
		}
		past, fut := SparkOf(Blocks, len(ld.Actions), func(i int) float64 { return ld.CurveAt(g, i) }, cur, w)
		return t.Spark[g].Render(past) + t.SparkFuture.Render(fut)
	}
	val := func(g model.Granularity) string {
		if !d.A.Computable(ctx.Lens, g) {
			return t.Muted.Render(fmt.Sprintf("%4s", display.Missing(d.A.GoldEmpty())))
		}
		return t.Value.Render(fmt.Sprintf("%.2f", ld.CurveAt(g, cur)))
	}

	if m.h >= 5 {
		// Wide enough for the longest note (the gold-patch caveat).
		infoW := min(44, max(m.w/3, ansi.StringWidth(display.EditLocGoldPatch)+1))
		info := []string{reread, fmt.Sprintf("%s steps %d/%d", ctx.Lens, ld.DoneAt(cur), ld.NumSteps), editloc,
			fmt.Sprintf("AUC line %s · redundancy line %.2f", display.Figure(res.Trajectory.AUCCoverage.Line, !d.A.GoldEmpty(), d.A.GoldEmpty()), res.Trajectory.Redundancy.Line)}
		if cur == d.N-1 && d.A.EditLocFromGold && res.EditLoc != nil {
			// The quirk takes the row below the figures: the info column
			// is too narrow for both.
			e := res.EditLoc
			info[2] = fmt.Sprintf("EditLoc recall %.2f precision %.2f", e.Recall, e.Precision)
			info[3] = display.EditLocGoldPatch
		}
		for _, g := range model.Granularities {
			fm := res.Final.At(g)
			final := fmt.Sprintf("final %.2f p %.2f", fm.Coverage, fm.Precision)
			if !d.A.Computable(ctx.Lens, g) {
				na := display.Missing(d.A.GoldEmpty())
				final = fmt.Sprintf("final %-4s p %-4s", na, na)
			}
			sw := max(m.w-7-1-4-2-len(final)-3-infoW-1, 4)
			row := fmt.Sprintf(" %-6s %s %s  %s %s %s", g, spark(g, sw), val(g), t.Muted.Render(final),
				t.Separator.Render("│"), fit.Line(info[g], infoW))
			lines = append(lines, row)
		}
		return strings.Join(fit.Block(lines, m.w, m.h), "\n")
	}
	// Compact: two granularities a row, then one info row.
	half := (m.w - 1) / 2
	for r := 0; r < 2; r++ {
		var parts []string
		for _, g := range model.Granularities[2*r : 2*r+2] {
			sw := max(half-7-1-4-2, 4)
			parts = append(parts, fit.Line(fmt.Sprintf(" %-6s %s %s", g, spark(g, sw), val(g)), half))
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	fl, ok := res.Final.Line, d.A.Computable(ctx.Lens, model.GranLine)
	info := fmt.Sprintf(" %s · final line %s p %s · %s", reread, display.Figure(fl.Coverage, ok, d.A.GoldEmpty()),
		display.Figure(fl.Precision, ok, d.A.GoldEmpty()), editloc)
	if ansi.StringWidth(info) > m.w {
		info = fmt.Sprintf(" %s · %s", reread, editloc)
	}
	if ansi.StringWidth(info) > m.w && cur == d.N-1 {
		info = " " + editloc // at the end, EditLoc and its caveat matter most
	}
	lines = append(lines, t.Muted.Render(info))
	return strings.Join(fit.Block(lines, m.w, m.h), "\n")
}
