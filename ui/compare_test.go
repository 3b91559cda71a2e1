package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/compare"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// shortDemo is the demo run cut after its first three actions, keeping the
// closing messages that declare the final context: a second run of the task.
var shortDemo = variant{edit: func(msgs []map[string]any, _ map[string]any) []map[string]any {
	return append(append([]map[string]any{}, msgs[:8]...), msgs[len(msgs)-4:]...)
}}

func newCompare(t *testing.T, w, h int, keys ...string) *CompareModel {
	t.Helper()
	c, err := compare.New(story.Tell(demoAnalysis(t)), story.Tell(shortDemo.analysis(t)), model.LensContextBench)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compare(c, Options{Theme: "dark", Dark: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	for _, k := range keys {
		m.Update(press(k))
	}
	return m
}

// TestCompareGolden: at 80x24 the runs stack, at 160x48 they sit side by
// side with a curve pair per granularity; stepping moves both.
func TestCompareGolden(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		keys []string
	}{
		{"compare_80x24", 80, 24, []string{"l", "l", "l", "l"}},
		{"compare_160x48", 160, 48, []string{"l", "l", "l", "l", "l"}},
		{"compare_aligned_160x48", 160, 48, []string{"a", "l"}},
		// The source pane in place of the timelines: discounts.py 1-40,
		// which both runs showed at their third action.
		{"compare_source_80x24", 80, 24, []string{"l", "l", "s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := newCompare(t, c.w, c.h, c.keys...).View().Content
			checkScreen(t, raw, c.w, c.h)
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

// What the comparison must say, whatever the layout.
func TestCompareSaysIt(t *testing.T) {
	m := newCompare(t, 160, 48, "l", "l", "l", "l", "l", "l")
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{
		"A · timeline  7/20", "B · timeline  4/4",
		"pricebook/discounts.py:49-62  A @4 found 7/14 kept · B declared, never shown",
		"pricebook/cart.py:45-49       A @6 read then dropped · B never (searched, not read)",
		"file   A", "line   A", // all four granularities, A and B each
	} {
		if !strings.Contains(screen, want) {
			t.Errorf("screen lacks %q:\n%s", want, screen)
		}
	}
	// B's curve is drawn in braille, A's in blocks: the pair reads apart
	// without colour.
	if !strings.ContainsAny(screen, "⡀⣀⣄⣤⣦⣶⣷⣿") || !strings.ContainsAny(screen, "▁▂▃▄▅▆▇█") {
		t.Errorf("curves not drawn in two glyph sets:\n%s", screen)
	}
	// The source gutter: at action 3 both runs have shown discounts.py
	// 1-40; at action 4 A has shown 41-75 too (49-62 gold), B nothing more.
	for _, c := range []struct {
		keys []string
		want []string
	}{
		{[]string{"l", "l"}, []string{"Source  pricebook/discounts.py:1", "AB   1 ", "AB  20 "}},
		{[]string{"l", "l", "l"}, []string{"Source  pricebook/discounts.py:49", "A   41 ", "A ● 49 "}},
	} {
		screen = ansi.Strip(newCompare(t, 160, 48, c.keys...).View().Content)
		for _, want := range c.want {
			if !strings.Contains(screen, want) {
				t.Errorf("after %v the source pane lacks %q:\n%s", c.keys, want, screen)
			}
		}
	}
	// Aligned: A jumps to its first read of gold (action 4).
	m = newCompare(t, 160, 48, "a")
	if m.ctx[0].Cur != 3 || !strings.Contains(ansi.Strip(m.View().Content), "aligned on gold first reads 1/") {
		t.Errorf("aligned: A at action %d", m.ctx[0].Cur+1)
	}
	m.Update(press("G"))
	if m.aligned && m.ctx[0].Cur == 3 {
		t.Errorf("G did not move to the last aligned stop")
	}
}

// The help reads whole at 80x24: no line is cut.
func TestCompareHelpFits(t *testing.T) {
	screen := ansi.Strip(newCompare(t, 80, 24, "?").View().Content)
	lines := strings.Split(screen, "\n")
	for _, l := range lines[3 : len(lines)-1] {
		if strings.Contains(l, "…") {
			t.Errorf("help line cut: %q", l)
		}
	}
	if !strings.Contains(screen, "close this help") {
		t.Errorf("help not shown whole:\n%s", screen)
	}
}

// The source pane keeps the last file a run showed on actions that show
// none (a test run, a search), never titles a line 0, and `v` compares
// the runs again under the other lens.
func TestCompareSourceAndLens(t *testing.T) {
	m := newCompare(t, 160, 48)
	shown := false
	for i := 0; i < m.c.Actions(); i++ {
		screen := ansi.Strip(m.View().Content)
		_, target := m.sourceTarget()
		if shown && (target.File == "" || strings.Contains(screen, "neither run has shown a file yet")) {
			t.Errorf("action %d: source pane lost the file shown before", i+1)
		}
		shown = shown || target.File != ""
		if strings.Contains(screen, ".py:0 ") {
			t.Errorf("action %d: source titled at line 0:\n%s", i+1, screen)
		}
		m.Update(press("l"))
	}
	if !shown {
		t.Fatal("no action of either run showed a file")
	}
	m.Update(press("v"))
	if m.c.Lens != "observed" || m.ctx[0].Lens != model.LensObserved || !strings.Contains(ansi.Strip(m.View().Content), "lens observed") {
		t.Errorf("v: comparison lens %s, pane lens %v", m.c.Lens, m.ctx[0].Lens)
	}
	m.Update(press("v"))
	if m.c.Lens != "contextbench" {
		t.Errorf("v twice: lens %s", m.c.Lens)
	}
}
