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
