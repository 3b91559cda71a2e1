// Package metrics is the explorer's bottom bar: a sparkline per granularity
// of cumulative coverage up to the current action, the current values, the
// redundancy counter, the final context's scores and EditLoc at the end.
package metrics

import (
	"fmt"
	"math"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/ui/common"
)

// Model is the metrics bar.
type Model struct {
	ctx  *common.Context
	w, h int
}

// New returns a metrics bar.
func New(ctx *common.Context) *Model { return &Model{ctx: ctx} }

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

// Update does nothing: the bar has no keys.
func (m *Model) Update(tea.Msg) tea.Cmd { return nil }

var blocks = []rune("▁▂▃▄▅▆▇█")

// Spark renders values[0..cur] as a sparkline of width w over the whole run,
// so the axis does not move while stepping; columns after cur are dots.
func Spark(values []float64, cur, w int) (past, future string) {
	n := len(values)
	if n == 0 || w <= 0 {
		return "", ""
	}
	var p, f strings.Builder
	for c := 0; c < w; c++ {
		var i int
		if n >= w {
			i = (c+1)*n/w - 1 // the last action of the column's bucket
		} else {
			i = c * n / w
		}
		if i > cur {
			f.WriteRune('·')
			continue
		}
		v := values[i]
		if v <= 0 {
			p.WriteRune(' ')
			continue
		}
		k := int(math.Ceil(v*8)) - 1
		p.WriteRune(blocks[min(max(k, 0), 7)])
	}
	return p.String(), f.String()
}

// Ratio formats a/b as a two-decimal value, "-" when b is zero.
func Ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// View renders the bar.
func (m *Model) View() string {
	if m.w <= 0 || m.h <= 0 {
		return ""
	}
	ctx, t, d := m.ctx, m.ctx.Theme, m.ctx.Data
	ld := ctx.L()
	cur := ctx.Cur
	res := ld.Result
	title := common.Title(ctx, "Coverage", fmt.Sprintf("%s lens · cumulative up to step %d", ctx.Lens, cur+1), false, m.w)
	lines := []string{title}

	reread := fmt.Sprintf("re-read %d/%d lines (%s)", ld.CumReread[cur], ld.CumRead[cur], Ratio(ld.CumReread[cur], ld.CumRead[cur]))
	editloc := "EditLoc: at the last step"
	if cur == d.N-1 {
		if e := res.EditLoc; e != nil {
			editloc = fmt.Sprintf("EditLoc recall %.2f precision %.2f", e.Recall, e.Precision)
		} else {
			editloc = "EditLoc: no patch"
		}
	}
	if res.Error != "" {
		editloc = "score: " + res.Error
	}

	spark := func(g int, w int) string {
		past, fut := Spark(ld.Cov[g], cur, w)
		return t.Spark[g].Render(past) + t.SparkFuture.Render(fut)
	}
	val := func(g int) string { return t.Value.Render(fmt.Sprintf("%.2f", ld.Cov[g][cur])) }

	if m.h >= 5 {
		infoW := min(44, m.w/3)
		info := []string{reread, fmt.Sprintf("%s steps %d/%d", ctx.Lens, ld.StepsDone[cur], ld.NumSteps), editloc,
			fmt.Sprintf("AUC line %.2f · redundancy line %.2f", res.Trajectory.AUCCoverage.Line, res.Trajectory.Redundancy.Line)}
		for g, name := range model.Granularities {
			fm := res.Final.At(name)
			final := fmt.Sprintf("final %.2f p %.2f", fm.Coverage, fm.Precision)
			sw := max(m.w-7-1-4-2-len(final)-3-infoW-1, 4)
			row := fmt.Sprintf(" %-6s %s %s  %s %s %s", name, spark(g, sw), val(g), t.Muted.Render(final),
				t.Separator.Render("│"), common.Fit(info[g], infoW))
			lines = append(lines, row)
		}
		return strings.Join(common.Block(lines, m.w, m.h), "\n")
	}
	// Compact: two granularities a row, then one info row.
	half := (m.w - 1) / 2
	for r := 0; r < 2; r++ {
		var parts []string
		for g := 2 * r; g < 2*r+2; g++ {
			sw := max(half-7-1-4-2, 4)
			parts = append(parts, common.Fit(fmt.Sprintf(" %-6s %s %s", model.Granularities[g], spark(g, sw), val(g)), half))
		}
		lines = append(lines, strings.Join(parts, " "))
	}
	fl := res.Final.Line
	info := fmt.Sprintf(" %s · final line %.2f p %.2f · %s", reread, fl.Coverage, fl.Precision, editloc)
	if ansi.StringWidth(info) > m.w {
		info = fmt.Sprintf(" %s · %s", reread, editloc)
	}
	lines = append(lines, t.Muted.Render(info))
	return strings.Join(common.Block(lines, m.w, m.h), "\n")
}

// ShortHelp: the bar has no keys.
func (m *Model) ShortHelp() []key.Binding { return nil }

// FullHelp: the bar has no keys.
func (m *Model) FullHelp() [][]key.Binding { return nil }
