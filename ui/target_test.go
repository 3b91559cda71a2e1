package ui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// When the target is the run's own edits, every width says so: the panel
// is "Edits" (not "Gold", which read as a perfect score against human
// gold) and the coverage pane names what it covers (issue 46).
func TestEditsTargetNamedAtEveryWidth(t *testing.T) {
	task, err := demo.Load(demo.FS())
	if err != nil {
		t.Fatal(err)
	}
	g := model.EditsGold(task.Run)
	a := scoring.Analyze(task.Run, g, scoring.NewFileCache(source.NewFS(task.Repo)), model.ContextBench)
	for _, size := range [][2]int{{80, 24}, {120, 40}, {160, 50}} {
		m := newModel(t, a, Options{}, size[0], size[1])
		send(m, press("G"))
		screen := ansi.Strip(m.View().Content)
		if !strings.Contains(screen, "Coverage of the run's edits") || strings.Contains(screen, "Gold ") {
			t.Errorf("%dx%d: the target is not named:\n%s", size[0], size[1], screen)
		}
		if size[0] >= 120 && !strings.Contains(screen, "Edits ") {
			t.Errorf("%dx%d: the target's panel is not titled Edits:\n%s", size[0], size[1], screen)
		}
	}
}
