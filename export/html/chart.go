package html

import (
	"math"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// The coverage charts' geometry, shared with the script through the page
// data: x runs over the actions, y over coverage 0..1.
const (
	chartW   = 320.0
	chartH   = 64.0
	chartPad = 4.0
)

type chart struct {
	Gran string
	G    int
	// Lines[lens] is the whole curve as SVG polyline points.
	Lines [2]string
}

func chartX(i, n int) float64 {
	if n <= 1 {
		return chartW
	}
	return float64(i) * chartW / float64(n-1)
}

func chartY(v float64) float64 { return chartPad + (1-v)*(chartH-2*chartPad) }

// points draws a curve as steps: coverage changes at an action and holds
// until the next.
func points(curve []float64) string {
	var b strings.Builder
	n := len(curve)
	prev := 0.0
	for i, v := range curve {
		x := chartX(i, n)
		if i > 0 {
			b.WriteString(pt(x, chartY(prev)))
		}
		b.WriteString(pt(x, chartY(v)))
		prev = v
	}
	return strings.TrimSpace(b.String())
}

func pt(x, y float64) string {
	return strconv.FormatFloat(x, 'f', 1, 64) + "," + strconv.FormatFloat(y, 'f', 1, 64) + " "
}

func charts(p *pageData) []chart {
	var out []chart
	for _, g := range model.Granularities {
		c := chart{Gran: g.String(), G: int(g)}
		for l := range p.L {
			c.Lines[l] = p.L[l].Points[g]
		}
		out = append(out, c)
	}
	return out
}

// bar is one action's bar of the spend chart.
type bar struct{ X, Y, W, H float64 }

// spendBars draws tokens per action as bars scaled to the largest (time
// when the run records no tokens); what says which. nil when the run
// records neither.
func spendBars(run *model.Run) (bars []bar, what string) {
	n := len(run.Actions)
	vals := make([]float64, n)
	top, what := 0.0, "tokens per step"
	spends := story.StepSpends(run)
	for i := range vals {
		vals[i] = float64(spends[i].Tokens.Total())
		top = math.Max(top, vals[i])
	}
	if top == 0 {
		what = "time per step"
		for i := range vals {
			vals[i] = spends[i].Seconds
			top = math.Max(top, vals[i])
		}
	}
	if top == 0 || n == 0 {
		return nil, ""
	}
	w := chartW / float64(n)
	for i, v := range vals {
		h := v / top * (chartH - 2*chartPad)
		bars = append(bars, bar{X: float64(i) * w, Y: chartH - chartPad - h, W: math.Max(w*0.8, 0.5), H: h})
	}
	return bars, what
}
