package metrics

import (
	"fmt"
	"math"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
)

// Bars draws per-action values as bars of eight levels over the whole run
// (w columns; a column holds the largest value of its actions), scaled to
// the run's largest; columns after cur are dots. It is the spend chart's:
// what each step cost, not a running total.
func Bars(values []float64, cur, w int) (past, future string) {
	n := len(values)
	if n == 0 || w <= 0 {
		return "", ""
	}
	top := 0.0
	for _, v := range values {
		top = math.Max(top, v)
	}
	var p, f strings.Builder
	for c := 0; c < w; c++ {
		from, to := c*n/w, max((c+1)*n/w, c*n/w+1) // the column's actions
		if n < w {
			from, to = c*n/w, c*n/w+1
		}
		if from > cur {
			f.WriteRune('·')
			continue
		}
		v := 0.0
		for i := from; i < min(to, cur+1); i++ {
			v = math.Max(v, values[i])
		}
		if v <= 0 || top <= 0 {
			p.WriteRune('_')
			continue
		}
		k := int(math.Ceil(v/top*8)) - 1
		p.WriteRune(Blocks[min(max(k, 0), 7)])
	}
	return p.String(), f.String()
}

// spendView is the bar in spend mode (u): what each step took in time and
// tokens, as bars over the run, and the totals so far and for the run.
func (m *Model) spendView() string {
	ctx, t := m.ctx, m.ctx.Theme
	cur := ctx.Cur
	sr := m.spendSeries()
	secs, toks, total := sr.secs, sr.toks, sr.total
	lines := []string{pane.Title(ctx, "Spend", fmt.Sprintf("per step, up to step %d (u: coverage)", cur+1), false, m.w)}
	if display.SpendWords(total) == "" {
		lines = append(lines, t.Muted.Render(" this run records no timestamps, tokens or cost"))
		return strings.Join(fit.Block(lines, m.w, m.h), "\n")
	}
	step := sr.steps[cur]
	ss, sk := step.Seconds, step.Tokens
	infoW := min(46, max(m.w/2-2, 30)) // the totals say more than the bars on a narrow screen
	soFar := sr.soFar[cur]
	soFar.Timed = total.Timed
	step.Timed = total.Timed
	info := []string{"this step: " + display.SpendWords(step), "so far: " + display.SpendWords(soFar), "run: " + display.SpendWords(total)}
	if split := display.TokenSplit(total.Tokens); split != "" && total.Tokens.CacheRead+total.Tokens.CacheWrite > 0 {
		// Where the tokens went: the cache is most of an agent's.
		info[2] += " (" + split + ")"
	}
	rows := []struct {
		name string
		vals []float64
		val  string
	}{
		{"time", secs, display.Duration(ss)},
		{"tokens", toks, display.Compact(sk.Total())},
	}
	sw := max(m.w-8-8-3-infoW-1, 4)
	for r, row := range rows {
		past, fut := Bars(row.vals, cur, sw)
		line := fmt.Sprintf(" %-6s %s %7s ", row.name, t.Spark[3*r].Render(past)+t.SparkFuture.Render(fut), row.val)
		line += t.Separator.Render("│") + " " + fit.Line(info[r], infoW)
		lines = append(lines, line)
	}
	lines = append(lines, strings.Repeat(" ", 17+sw)+t.Separator.Render("│")+" "+fit.Line(info[2], infoW))
	return strings.Join(fit.Block(lines, m.w, m.h), "\n")
}

// spendSeries is a run's spend by step, worked out once per run: the chart
// is drawn on every frame while it is shown.
type spendSeries struct {
	run        *model.Run
	steps      []story.Spend
	soFar      []story.Spend // running totals, steps 0..i
	secs, toks []float64
	total      story.Spend
}

func (m *Model) spendSeries() *spendSeries {
	run := m.ctx.Data.Run
	if m.spend != nil && m.spend.run == run {
		return m.spend
	}
	sr := &spendSeries{run: run, steps: story.StepSpends(run), total: story.RunSpend(run)}
	n := len(sr.steps)
	sr.soFar, sr.secs, sr.toks = make([]story.Spend, n), make([]float64, n), make([]float64, n)
	var acc story.Spend
	for i, sp := range sr.steps {
		acc.Seconds += sp.Seconds
		acc.Tokens.Input += sp.Tokens.Input
		acc.Tokens.Output += sp.Tokens.Output
		acc.Tokens.CacheRead += sp.Tokens.CacheRead
		acc.Tokens.CacheWrite += sp.Tokens.CacheWrite
		acc.CostUSD += sp.CostUSD
		sr.soFar[i] = acc
		sr.secs[i], sr.toks[i] = sp.Seconds, float64(sp.Tokens.Total())
	}
	m.spend = sr
	return sr
}
