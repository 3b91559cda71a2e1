package report_test

import (
	"encoding/xml"
	"errors"
	stdpng "image/png"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/report/charts"
)

// stepped is a valid instance whose cumulative line coverage after each
// step is given.
func stepped(id string, line ...float64) report.Instance {
	in := inst(id, line[len(line)-1], "")
	for i, v := range line {
		sc := model.StepCoverage{Step: i + 1}
		sc.Coverage.Line = v
		in.Result.Trajectory.Steps = append(in.Result.Trajectory.Steps, sc)
	}
	return in
}

func TestCoverageCurve(t *testing.T) {
	run := &report.ResultFile{Instances: []report.Instance{
		stepped("a", 0.2, 0.6, 0.8),
		stepped("b", 0.4), // holds 0.4 after its only step
		inst("c", 0, "checkout_failed"),
		inst("d", 1, ""), // no steps: no curve to hold
	}}
	c := build(t, []*report.ResultFile{run}, report.Options{}).Curves[0]
	curve, n := c.Mean, c.N
	// Step 1: (.2 + .4)/2; step 2: (.6 + .4)/2; step 3: (.8 + .4)/2.
	want := []float64{0.3, 0.5, 0.6}
	if n != 2 || len(curve) != 3 {
		t.Fatalf("curve %v over %d", curve, n)
	}
	for i := range want {
		if !near(curve[i], want[i]) {
			t.Errorf("step %d: %v, want %v", i+1, curve[i], want[i])
		}
	}
	if c := build(t, []*report.ResultFile{{Instances: []report.Instance{inst("e", 0, "x")}}}, report.Options{}).Curves[0]; c.Mean != nil || c.N != 0 {
		t.Errorf("no steps: %v, %d", c.Mean, c.N)
	}
}

// svgTexts parses an SVG as XML (failing on invalid XML) and returns the
// content of its text elements, unescaped.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := xml.NewDecoder(f)
	var texts []string
	inText := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s: invalid XML: %v", path, err)
		}
		switch v := tok.(type) {
		case xml.StartElement:
			inText = v.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(v))
			}
		case xml.EndElement:
			inText = false
		}
	}
	return texts
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// TestWritePlots: both charts, valid XML with titles, axis labels and one
// legend entry per run; hostile run labels arrive escaped and inert.
func TestWritePlots(t *testing.T) {
	hostile := `a<b & "c"` + "\x1b[31m"
	runs := []*report.ResultFile{
		costRun(hostile, 0.5, 0, 0.4),
		costRun("plain", 1.5, 0, 0.7),
		costRun("dominated", 2, 0, 0.3),
	}
	runs[0].Instances = append(runs[0].Instances, stepped("s1", 0.1, 0.4), stepped("s2", 0.2))
	runs[1].Instances = append(runs[1].Instances, stepped("s1", 0.5, 0.6, 0.7))
	// The third run has no trajectory: no coverage curve.
	rep, err := report.Build(runs, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "charts")
	var notes []string
	written, err := charts.Write(rep, dir, func(s string) { notes = append(notes, s) })
	if err != nil {
		t.Fatal(err)
	}
	cov, cost := filepath.Join(dir, charts.CoverageByStep), filepath.Join(dir, charts.CostVsCoverage)
	png := func(svg string) string { return strings.TrimSuffix(svg, ".svg") + ".png" }
	if len(written) != 4 || written[0] != cov || written[1] != png(cov) || written[2] != cost || len(notes) != 2 || notes[0] != "wrote "+cov+" and coverage_by_step.png" {
		t.Fatalf("written %v, notes %q", written, notes)
	}
	// The PNG beside each SVG, for slides: 8x5 inches at 200 dpi.
	for _, p := range []string{png(cov), png(cost)} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := stdpng.DecodeConfig(f)
		f.Close()
		if err != nil || cfg.Width != 1600 || cfg.Height != 1000 {
			t.Errorf("%s: %dx%d (%v), want a 1600x1000 PNG", p, cfg.Width, cfg.Height, err)
		}
	}
	inert := `a<b & "c"\e[31m`
	texts := svgTexts(t, cov)
	// The lens the rows were scored under is stated; a run without a curve
	// is still in the legend, saying why.
	for _, want := range []string{"Mean cumulative line coverage per step", "rows scored under the contextbench lens", "step", "mean cumulative line coverage (valid instances)",
		inert + " (n=2)", "plain (n=1)", "dominated (no valid task with steps: not drawn)"} {
		if count(texts, want) != 1 {
			t.Errorf("%s: %q appears %d times in %q", charts.CoverageByStep, want, count(texts, want), texts)
		}
	}
	legend := 0
	for _, s := range texts {
		if strings.Contains(s, " (n=") {
			legend++
		}
	}
	if legend != 2 {
		t.Errorf("%d legend entries, want one per run with steps (2)", legend)
	}
	texts = svgTexts(t, cost)
	// Each point says its n; the runs' means are over unlike sets (the
	// first run records a cost on 2 of its 4 instances) and the title says so.
	for _, want := range []string{"Cost vs final line coverage (Pareto front joined)", "rows scored under the contextbench lens; means over unlike task sets",
		"mean cost per instance (USD)", "mean final line coverage (errors count 0)", inert + " (n=4) (front)", "plain (n=3) (front)", "dominated (n=2)", "Pareto front"} {
		if count(texts, want) != 1 {
			t.Errorf("%s: %q appears %d times in %q", charts.CostVsCoverage, want, count(texts, want), texts)
		}
	}
	raw, _ := os.ReadFile(cov)
	if !strings.Contains(string(raw), "a&lt;b &amp; &#34;c&#34;") || strings.Contains(string(raw), "\x1b") {
		t.Errorf("label not escaped in %s", cov)
	}

	// Without trajectories or cost there is nothing to chart.
	rep, _ = report.Build([]*report.ResultFile{{Label: "x", Instances: []report.Instance{inst("a", 1, "")}}}, report.Options{})
	notes = nil
	if written, err := charts.Write(rep, filepath.Join(t.TempDir(), "none"), func(s string) { notes = append(notes, s) }); err != nil || len(written) != 0 ||
		len(notes) != 2 || notes[1] != "no cost_vs_coverage.svg: no run records cost or tokens" {
		t.Errorf("written %v, notes %q, err %v", written, notes, err)
	}
}
