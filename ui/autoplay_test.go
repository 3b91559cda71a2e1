package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// Options.Autoplay opens the explorer playing from Options.Step at
// Options.Speed (snapped to the +/- intervals), Init starts the clock, and
// Advance steps exactly as a tick does, ending playback at the last step.
func TestAutoplayOption(t *testing.T) {
	a := demoAnalysis(t)
	cases := []struct {
		name     string
		opts     Options
		cur      int
		interval time.Duration
		playing  bool
	}{
		{"default", Options{}, 0, time.Second, false},
		{"autoplay from a step", Options{Autoplay: true, Step: 5, Speed: 2 * time.Second}, 4, 2 * time.Second, true},
		{"speed snaps to the nearest", Options{Autoplay: true, Speed: 400 * time.Millisecond}, 0, 500 * time.Millisecond, true},
		{"speed beyond the fastest", Options{Speed: time.Millisecond}, 0, 100 * time.Millisecond, false},
		{"autoplay at the last step starts over", Options{Autoplay: true, Step: 20}, 0, time.Second, true},
	}
	defer func(d time.Duration) { idleAfter = d }(idleAfter)
	idleAfter = 0 // no idle highlighting: Init returns only the clock
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, a, c.opts, 120, 40)
			if m.Current() != c.cur || m.Interval() != c.interval || m.playing != c.playing {
				t.Fatalf("current %d interval %v playing %v, want %d %v %v", m.Current(), m.Interval(), m.playing, c.cur, c.interval, c.playing)
			}
			header := ansi.Strip(strings.SplitN(m.Render(), "\n", 2)[0])
			if c.playing != strings.Contains(header, "▶ "+speedLabel(m.speed)) {
				t.Errorf("header %q: playing %v", header, c.playing)
			}
			// Init starts the clock only when playing (the theme here is
			// fixed, so nothing else asks the terminal).
			if cmd := m.Init(); (cmd != nil) != c.playing {
				t.Errorf("Init returned %v with playing %v", cmd != nil, c.playing)
			}
		})
	}

	m := newModel(t, a, Options{Autoplay: true, Step: 18}, 120, 40)
	for want := 18; want < 20; want++ {
		if !m.Advance() || m.Current() != want {
			t.Fatalf("Advance: at %d, want %d", m.Current(), want)
		}
	}
	if m.Advance() || m.playing || m.Current() != 19 || !strings.Contains(ansi.Strip(m.Render()), "autoplay reached the last step") {
		t.Errorf("past the last step: current %d playing %v", m.Current(), m.playing)
	}
	// A tick delivered by the program steps the same way.
	m = newModel(t, a, Options{Autoplay: true}, 120, 40)
	m.Update(tickMsg{m.tickGen})
	if m.Current() != 1 {
		t.Errorf("a tick moved to %d, want 1", m.Current())
	}
	var _ tea.Model = m
}

// Changing the speed while playing goes on playing at the new speed: the
// old tick is dropped and a new one starts (playback froze before).
func TestSpeedChangeKeepsPlaying(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{Autoplay: true}, 120, 40)
	old := tick
	defer func() { tick = old }()
	tick = func(d time.Duration, f func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return f(time.Time{}) }
	}
	var asked []time.Duration
	stale := tickMsg{m.tickGen}
	for _, k := range []string{"+", "-", "-"} {
		before := m.Current()
		_, cmd := m.Update(press(k))
		asked = append(asked, m.Interval())
		if cmd == nil {
			t.Fatalf("%q while playing: no tick scheduled", k)
		}
		m.Update(cmd())
		if m.Current() != before+1 || !m.playing {
			t.Errorf("%q: at %d after the new tick, want %d", k, m.Current(), before+1)
		}
	}
	if len(asked) != 3 || asked[0] >= asked[1] || asked[1] >= asked[2] {
		t.Errorf("intervals asked for %v: faster, then slower twice", asked)
	}
	at := m.Current()
	if m.Update(stale); m.Current() != at {
		t.Error("a tick from before the speed change still steps")
	}
}

// The way to the key moment: `*` goes to each step that finds gold in turn
// (the demo's 4, 6, … then round again), autoplay holds there GoldHold
// intervals, and the footer names the key.
func TestGoldFoundSteps(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 120, 40)
	var want []int
	for i, act := range a.Lenses[m.ctx.Lens].Actions {
		if act.NewGold > 0 {
			want = append(want, i)
		}
	}
	if len(want) < 2 || want[0] != 3 {
		t.Fatalf("fixture: gold-finding actions %v, want 4 first", want)
	}
	for _, i := range append(want, want[0]) {
		typeKeys(m, "*")
		if m.Current() != i {
			t.Fatalf("* went to action %d, want %d", m.Current()+1, i+1)
		}
		if !m.FindsGold() || m.holdFor() != GoldHold*m.Interval() {
			t.Errorf("action %d: finds gold %v, hold %v", i+1, m.FindsGold(), m.holdFor())
		}
	}
	typeKeys(m, "l")
	if m.FindsGold() || m.holdFor() != m.Interval() {
		t.Errorf("action %d holds %v, want one interval", m.Current()+1, m.holdFor())
	}
	if footer := ansi.Strip(m.footer()); !strings.Contains(footer, "* gold found") {
		t.Errorf("footer lacks the key: %q", footer)
	}
}

// At 80x24 the gold panel has no place: the footer says how to reach it,
// and the panel, once focused, shows the selected span's whole diagnosis.
func TestHiddenGoldPanelHint(t *testing.T) {
	m := newModel(t, demoAnalysis(t), Options{}, 80, 24)
	if footer := ansi.Strip(m.footer()); !strings.HasPrefix(footer, " gold panel: ⇧tab") {
		t.Errorf("80x24 footer %q", footer)
	}
	typeKeys(m, "shift+tab")
	if m.focus != paneGold || strings.Contains(ansi.Strip(m.footer()), "gold panel:") {
		t.Errorf("shift+tab: focus %s, footer %q", m.focus, ansi.Strip(m.footer()))
	}
	if wide := newModel(t, demoAnalysis(t), Options{}, 160, 48); strings.Contains(ansi.Strip(wide.footer()), "gold panel:") {
		t.Error("the hint shows where the panel is in view")
	}
}
