package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Against no gold the metrics show no figure at any size: "no gold" where
// the sparkline would be, "–" for the values and the final line.
func TestMetricsWithoutGold(t *testing.T) {
	demo := demoAnalysis(t)
	a := scoring.Analyze(demo.Run, &model.Gold{ID: demo.Run.InstanceID}, demo.Files, model.ContextBench)
	for _, size := range [][2]int{{80, 24}, {160, 45}} {
		screen := ansi.Strip(newModel(t, a, Options{}, size[0], size[1]).Render())
		if !strings.Contains(screen, "no gold") || strings.Contains(screen, "final line 1.00") || strings.Contains(screen, "final 1.00") {
			t.Errorf("%dx%d:\n%s", size[0], size[1], screen)
		}
	}
}

// What the reader skipped is on the explorer's status line as on every
// surface: the first warning and how many more (issue 47 #6).
func TestReadingWarningOnStatus(t *testing.T) {
	a := demoAnalysis(t)
	a.Run.Warnings = []string{`line 3 skipped: not a JSON record (text: "Error: rate limited")`, "line 9 skipped: not a JSON record (4 bytes of binary data)"}
	screen := ansi.Strip(newModel(t, a, Options{}, 160, 40).Render())
	if !strings.Contains(screen, `warning: line 3 skipped: not a JSON record (text: "Error: rate limited") (1 more`) {
		t.Errorf("status:\n%s", screen)
	}
}

// The demo says it is one, and how to open a run of one's own, at 80x24
// (issue 50 #15).
func TestDemoSaysItIsTheDemo(t *testing.T) {
	screen := ansi.Strip(newModel(t, demoAnalysis(t), Options{Status: "the embedded demo task · trajscope view RUN opens your own · ? for keys"}, 80, 24).Render())
	if !strings.Contains(screen, "the embedded demo task · trajscope view RUN opens your own") {
		t.Errorf("80x24:\n%s", screen)
	}
}
