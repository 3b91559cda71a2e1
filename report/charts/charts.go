// Package charts draws report's figures as SVG charts (report --plot):
// the one door to the plotting library, so what only renders tables (the
// explorer's run list among them) does not link it.
package charts

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/report"
)

// Chart file names, fixed so scripts and documents can link them. Each is
// written as SVG (for pages and papers) and beside it as PNG of the same
// name (for slides): coverage_by_step.png.
const (
	CoverageByStep = "coverage_by_step.svg"
	CostVsCoverage = "cost_vs_coverage.svg"
	// CoverageAtK is line coverage by rank (score --at-k).
	CoverageAtK = "coverage_at_k.svg"
)

// pngDPI is the PNG's resolution: 8x5 inches at 200 dpi is 1600x1000
// pixels, sharp on a projector.
const pngDPI = 200

// markersUpTo is the most steps a coverage curve marks each step of; more
// marks would blur into the line.
const markersUpTo = 40

// Write writes r's SVG charts into dir (created when missing): the
// coverage curves when any run has trajectory steps, cost against coverage
// when the runs record cost or tokens, coverage by rank for runs scored
// --at-k. note, when not nil, hears one line per chart, written or why
// not. It returns the files written.
func Write(r *report.Report, dir string, note func(string)) ([]string, error) {
	if note == nil {
		note = func(string) {}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var written []string
	for _, c := range []struct {
		name, none string
		make       func(*report.Report) (*plot.Plot, error)
	}{
		{CoverageByStep, "no run has trajectory steps", coveragePlot},
		{CostVsCoverage, "no run records cost or tokens", costPlot},
		{CoverageAtK, "", atKPlot}, // only for runs scored --at-k: no word otherwise
	} {
		p, err := c.make(r)
		if err != nil {
			return written, err
		}
		path := filepath.Join(dir, c.name)
		if p == nil {
			if c.none != "" {
				note(fmt.Sprintf("no %s: %s", c.name, c.none))
			}
			continue
		}
		if err := p.Save(8*vg.Inch, 5*vg.Inch, path); err != nil {
			return written, fmt.Errorf("writing %s: %w", path, err)
		}
		png := strings.TrimSuffix(path, ".svg") + ".png"
		if err := savePNG(p, png); err != nil {
			return written, fmt.Errorf("writing %s: %w", png, err)
		}
		note("wrote " + termsafe.Line(path) + " and " + filepath.Base(png))
		written = append(written, path, png)
	}
	return written, nil
}

// savePNG writes p as a PNG of pngDPI.
func savePNG(p *plot.Plot, path string) error {
	c := vgimg.NewWith(vgimg.UseWH(8*vg.Inch, 5*vg.Inch), vgimg.UseDPI(pngDPI))
	p.Draw(draw.New(c))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// blank is a legend entry's empty thumbnail: a run that has no curve or
// point is still named, with why.
type blank struct{}

func (blank) Thumbnail(*draw.Canvas) {}

// newPlot is a plot with titles and labels in a sans-serif face, a grid,
// and the legend where rising curves leave room.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	sans := func(f *font.Font) { f.Variant = "Sans" }
	sans(&p.Title.TextStyle.Font)
	sans(&p.Legend.TextStyle.Font)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		sans(&a.Label.TextStyle.Font)
		sans(&a.Tick.Label.Font)
	}
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, x, y
	p.Title.Padding = vg.Points(8)
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs, p.Legend.YOffs = vg.Points(8), -vg.Points(4)
	p.Add(plotter.NewGrid())
	return p
}

// label is a run's name made inert for a chart: no control character
// reaches the SVG (the renderer escapes <, & and quotes itself).
func label(s string) string { return termsafe.Line(s) }

func coveragePlot(r *report.Report) (*plot.Plot, error) {
	p := newPlot("Mean cumulative line coverage per step\n"+r.ScoredUnder(), "step", "mean cumulative line coverage (valid instances)")
	p.Y.Min, p.Y.Max = 0, 1
	series := 0
	var undrawn []string
	for i, c := range r.Curves {
		curve, n := c.Mean, c.N
		if n == 0 {
			undrawn = append(undrawn, label(r.Rows[i].Label))
			continue
		}
		pts := make(plotter.XYs, len(curve))
		for k, v := range curve {
			pts[k] = plotter.XY{X: float64(k + 1), Y: v}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes, line.Width = plotutil.Color(i), plotutil.Dashes(i), vg.Points(1.5)
		points.Color, points.Shape = plotutil.Color(i), plotutil.Shape(i)
		if len(curve) > markersUpTo {
			points.Radius = 0
		}
		p.Add(line, points)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", label(r.Rows[i].Label), n), line, points)
		series++
	}
	if series == 0 {
		return nil, nil
	}
	for _, name := range undrawn {
		p.Legend.Add(name+" (no valid task with steps: not drawn)", blank{})
	}
	p.X.Min = 1
	return p, nil
}

func costPlot(r *report.Report) (*plot.Plot, error) {
	t := r.Cost
	if t == nil || t.Axis == "" {
		return nil, nil
	}
	x := "mean cost per instance (USD)"
	if t.Axis == report.AxisTokens {
		x = "mean tokens per instance (input + output)"
	}
	title := "Cost vs final line coverage (Pareto front joined)\n" + r.ScoredUnder()
	if t.Unlike != "" {
		title += "; means over unlike task sets"
	}
	p := newPlot(title, x, "mean final line coverage (errors count 0)")
	// Coverage is a fraction and cost starts at 0: fixed origins keep
	// the points off the frame and the distances honest; the cheap, high
	// corner where the legend sits is rarely occupied.
	p.X.Min, p.Y.Min, p.Y.Max = 0, 0, 1
	var front plotter.XYs
	for i := range t.Rows {
		c := &t.Rows[i]
		xv, ok := c.X(t.Axis)
		if !ok {
			p.Legend.Add(label(c.Run)+" (none recorded: not drawn)", blank{})
			continue
		}
		pt := plotter.XY{X: xv, Y: c.LineCoverage}
		sc, err := plotter.NewScatter(plotter.XYs{pt})
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape, sc.Radius = plotutil.Color(i), plotutil.Shape(i), vg.Points(5)
		p.Add(sc)
		p.X.Max = max(p.X.Max, xv*1.1)
		name := fmt.Sprintf("%s (n=%d)", label(c.Run), c.Instances)
		if c.Front {
			name += " (front)"
			front = append(front, pt)
		}
		p.Legend.Add(name, sc)
	}
	if len(front) > 1 {
		sort.Slice(front, func(i, j int) bool { return front[i].X < front[j].X })
		l, err := plotter.NewLine(front)
		if err != nil {
			return nil, err
		}
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		p.Add(l)
		p.Legend.Add("Pareto front", l)
	}
	return p, nil
}

// atKPlot charts mean line coverage by rank, one line per run.
func atKPlot(r *report.Report) (*plot.Plot, error) {
	t := r.AtK
	if t == nil {
		return nil, nil
	}
	p := newPlot("Line coverage of the first k predictions\n"+r.ScoredUnder(), "k (rank)", "mean line coverage")
	p.Y.Min, p.Y.Max = 0, 1
	for i, row := range t.Rows {
		pts := make(plotter.XYs, len(row.Mean))
		for j := range row.Mean {
			pts[j] = plotter.XY{X: float64(row.K[j]), Y: row.Mean[j].Line}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err
		}
		line.Color, line.Dashes, line.Width = plotutil.Color(i), plotutil.Dashes(i), vg.Points(1.5)
		points.Color, points.Shape = plotutil.Color(i), plotutil.Shape(i)
		p.Add(line, points)
		p.Legend.Add(fmt.Sprintf("%s (n=%d)", label(row.Run), row.Instances), line, points)
	}
	return p, nil
}
