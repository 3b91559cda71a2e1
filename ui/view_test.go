package ui

import (
	"fmt"
	"image/color"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
)

// The screens a user sees, compared as text (colours stripped; the NO_COLOR
// case also checks its raw bytes).
func TestGoldenScreens(t *testing.T) {
	a := demoAnalysis(t)
	cases := []struct {
		name string
		w, h int
		opts Options
		keys []string
	}{
		{"first_step_120x36", 120, 36, Options{}, nil},
		// Step 4 reads discounts.py 41-75: gold 49-62 is in view, read now.
		{"middle_step_gold_120x36", 120, 36, Options{}, []string{"l", "l", "l"}},
		{"last_step_120x36", 120, 36, Options{}, []string{"G"}},
		{"help_120x36", 120, 36, Options{}, []string{"?"}},
		{"help_80x24", 80, 24, Options{}, []string{"?"}},
		// Step 6 reads cart.py 40-65, whose gold 45-49 is later dropped.
		{"step6_80x24", 80, 24, Options{}, []string{"l", "l", "l", "l", "l"}},
		{"wide_step6_160x48", 160, 48, Options{}, []string{"l", "l", "l", "l", "l"}},
		// Step 12 re-reads best_tier (↺); money.py's gold is never read.
		{"no_color_step12_80x24", 80, 24, Options{Theme: "auto", NoColor: true}, []string{"/", "5", "6", ",", "6", "2", "enter"}},
		{"observed_lens_step7_120x36", 120, 36, Options{Lens: model.LensObserved, Step: 7}, nil},
		// The near miss selected and entered: step 4 read discounts.py up to
		// line 75, three lines short of voucher_discount.
		{"gold_focus_80x24", 80, 24, Options{Step: 20}, []string{"shift+tab", "j", "j", "j", "j", "j", "enter"}},
		{"gold_observed_160x48", 160, 48, Options{Step: 20, Lens: model.LensObserved}, []string{"shift+tab", "j", "j", "j", "j", "j", "j"}},
		{"picker_80x24", 80, 24, Options{Step: 9}, []string{"f", "j"}},
		{"filter_read_80x24", 80, 24, Options{}, []string{"c", "l", "l"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, a, c.opts, c.w, c.h)
			typeKeys(m, c.keys...)
			raw := m.View().Content
			checkScreen(t, raw, c.w, c.h)
			if c.opts.NoColor {
				if sgrColour.MatchString(raw) {
					t.Errorf("NO_COLOR output has colour codes: %q", sgrColour.FindString(raw))
				}
				// The current row must stay visible without colour.
				if !strings.Contains(raw, "\x1b[7m") {
					t.Error("NO_COLOR output has no reverse video for the current row")
				}
			}
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

// sgrColour finds SGR sequences that set a colour (30–49, 90–107, 38;…, 48;…).
var sgrColour = regexp.MustCompile(`\x1b\[[0-9;:]*?(?:^|[;\[])(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:[;:m])`)

// checkScreen asserts the screen is exactly w×h cells: nothing overflows.
func checkScreen(t *testing.T, raw string, w, h int) {
	t.Helper()
	lines := strings.Split(raw, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d is %d cells wide, want %d: %q", i+1, got, w, ansi.Strip(l))
		}
	}
}

// Every size from tiny to wide keeps the screen exact, at every step.
func TestResizeReflows(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 80, 24)
	for _, sz := range [][2]int{{80, 24}, {60, 20}, {40, 12}, {12, 8}, {6, 10}, {1, 3}, {100, 30}, {120, 36}, {159, 40}, {200, 60}, {80, 24}} {
		send(m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for step := 0; step < int(a.Run.Actions[len(a.Run.Actions)-1].Index)+1; step += 3 {
			send(m, press("l"), press("l"), press("l"))
			checkScreen(t, m.View().Content, sz[0], sz[1])
		}
		typeKeys(m, "tab", "?")
		checkScreen(t, m.View().Content, sz[0], sz[1])
		typeKeys(m, "?", "g")
	}
}

// What each key does to the explorer's state.
func TestKeys(t *testing.T) {
	a := demoAnalysis(t)
	type state struct {
		cur     int
		focus   paneID
		lens    model.Lens
		filter  string
		query   string
		help    bool
		playing bool
		speed   int
		picking bool
		follow  bool
	}
	get := func(m *Model) state {
		return state{m.ctx.Cur, m.focus, m.ctx.Lens, m.ctx.Filter, m.ctx.Query, m.showHelp, m.playing, m.speed,
			src(m).Picking(), src(m).Following()}
	}
	base := state{focus: paneTimeline, speed: defaultSpeed, follow: true}
	with := func(f func(*state)) state {
		s := base
		f(&s)
		return s
	}
	cases := []struct {
		name string
		keys []string
		want state
	}{
		{"l steps", []string{"l"}, with(func(s *state) { s.cur = 1 })},
		{"right steps", []string{"right", "right"}, with(func(s *state) { s.cur = 2 })},
		{"h steps back", []string{"l", "l", "h"}, with(func(s *state) { s.cur = 1 })},
		{"left at the start stays", []string{"left"}, base},
		{"G last", []string{"G"}, with(func(s *state) { s.cur = 19 })},
		{"g first", []string{"G", "g"}, base},
		{"j in the timeline steps", []string{"j", "j", "k"}, with(func(s *state) { s.cur = 1 })},
		{"tab focuses source", []string{"tab"}, with(func(s *state) { s.focus = paneSource })},
		{"tab cycles", []string{"tab", "tab", "tab", "tab", "tab"}, base},
		{"shift+tab goes back", []string{"shift+tab"}, with(func(s *state) { s.focus = paneGold })},
		{"j in source scrolls, not steps", []string{"tab", "j"}, with(func(s *state) { s.focus = paneSource })},
		{"v switches lens and keeps the action", []string{"l", "l", "v"}, with(func(s *state) { s.cur = 2; s.lens = model.LensObserved })},
		{"v twice", []string{"v", "v"}, base},
		{"0 and $ are first and last", []string{"$"}, with(func(s *state) { s.cur = 19 })},
		{"0 first", []string{"l", "l", "0"}, base},
		// H and L move between runs of a list; with one run they stay.
		{"L with one run stays", []string{"l", "L"}, with(func(s *state) { s.cur = 1 })},
		{"H with one run stays", []string{"H"}, base},
		{"? opens help", []string{"?"}, with(func(s *state) { s.help = true })},
		{"esc closes help", []string{"?", "esc"}, base},
		{"keys do not step under help", []string{"?", "l"}, with(func(s *state) { s.help = true })},
		{"/ searches and jumps", []string{"/", "u", "n", "i", "t", "t", "e", "s", "t", "enter"}, with(func(s *state) { s.cur = 7; s.query = "unittest" })},
		{"n next match", []string{"/", "u", "n", "i", "t", "t", "e", "s", "t", "enter", "n"}, with(func(s *state) { s.cur = 15; s.query = "unittest" })},
		{"n wraps", []string{"/", "u", "n", "i", "t", "t", "e", "s", "t", "enter", "n", "n"}, with(func(s *state) { s.cur = 7; s.query = "unittest" })},
		{"N previous match wraps", []string{"/", "u", "n", "i", "t", "t", "e", "s", "t", "enter", "N"}, with(func(s *state) { s.cur = 15; s.query = "unittest" })},
		{"search is case-insensitive", []string{"/", "U", "N", "I", "T", "T", "E", "S", "T", "enter"}, with(func(s *state) { s.cur = 7; s.query = "unittest" })},
		{"esc cancels the search input", []string{"/", "t", "esc"}, base},
		{"backspace edits the query", []string{"/", "u", "n", "x", "backspace", "i", "t", "t", "e", "s", "t", "enter"}, with(func(s *state) { s.cur = 7; s.query = "unittest" })},
		{"esc clears the search", []string{"/", "u", "n", "i", "t", "t", "e", "s", "t", "enter", "esc"}, with(func(s *state) { s.cur = 7 })},
		{"c filters reads", []string{"c"}, with(func(s *state) { s.cur = 2; s.filter = "read" })},
		{"l steps within the filter", []string{"c", "l"}, with(func(s *state) { s.cur = 3; s.filter = "read" })},
		// Actions 1, 2, 5, 7 are searches: from step 3 the filter moves on to 5.
		{"c cycles", []string{"c", "c"}, with(func(s *state) { s.cur = 4; s.filter = "search" })},
		{"space plays", []string{"space"}, with(func(s *state) { s.playing = true })},
		{"space pauses", []string{"space", "space"}, base},
		{"+ faster", []string{"+"}, with(func(s *state) { s.speed = defaultSpeed + 1 })},
		{"- slower", []string{"-", "-", "-", "-"}, with(func(s *state) { s.speed = 0 })},
		// The picker takes the keys, so the source pane takes the focus.
		{"f opens the picker", []string{"f"}, with(func(s *state) { s.picking = true; s.focus = paneSource })},
		{"enter picks a file", []string{"f", "j", "enter"}, with(func(s *state) { s.follow = false; s.focus = paneSource })},
		{"q closes the picker, not the app", []string{"f", "q"}, with(func(s *state) { s.focus = paneSource })},
		{"] jumps to gold and pins", []string{"]"}, with(func(s *state) { s.follow = false })},
		{"F follows again", []string{"]", "F"}, base},
		{"m jumps to unread gold", []string{"m"}, with(func(s *state) { s.follow = false })},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, a, Options{}, 120, 36)
			typeKeys(m, c.keys...)
			if got := get(m); got != c.want {
				t.Errorf("after %v:\n got %+v\nwant %+v", c.keys, got, c.want)
			}
		})
	}
}

// q and ctrl+c quit; q does not quit while typing a search.
func TestQuit(t *testing.T) {
	a := demoAnalysis(t)
	for _, c := range []struct {
		keys []string
		quit bool
	}{
		{[]string{"q"}, true},
		{[]string{"ctrl+c"}, true},
		{[]string{"/", "q"}, false},
		{[]string{"/", "ctrl+c"}, true},
		{[]string{"?", "q"}, true},
	} {
		m := newModel(t, a, Options{}, 80, 24)
		var cmd tea.Cmd
		for _, k := range c.keys {
			_, cmd = m.Update(press(k))
		}
		quit := cmd != nil && isQuit(cmd)
		if quit != c.quit {
			t.Errorf("%v: quit %v, want %v", c.keys, quit, c.quit)
		}
	}
}

func isQuit(cmd tea.Cmd) bool {
	_, ok := cmd().(tea.QuitMsg)
	return ok
}

// The source pane's jumps land on gold: ] on the next gold span, m on gold
// not read yet at the current step.
func TestGoldJumps(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 120, 36)
	visit := func(key string, n int) string {
		var got []string
		for i := 0; i < n; i++ {
			typeKeys(m, key)
			f, l := src(m).File()
			got = append(got, f+":"+strconv.Itoa(l))
		}
		return strings.Join(got, " ")
	}
	// Step 1 shows __init__.py, the first gold file its find listed, at its
	// gold (3-5): ] goes on to the next span.
	if f, l := src(m).File(); f != "pricebook/__init__.py" || l != 3 {
		t.Errorf("step 1 shows %s:%d, want pricebook/__init__.py:3", f, l)
	}
	want := "pricebook/cart.py:45 pricebook/discounts.py:49 pricebook/discounts.py:65 " +
		"pricebook/discounts.py:78 pricebook/money.py:45 README.md:12 pricebook/__init__.py:3 pricebook/cart.py:45"
	if got := visit("]", 8); got != want {
		t.Errorf("] visits %s\nwant %s", got, want)
	}
	// At the last step four spans are unread (contextbench lens); m cycles
	// through them and skips the ones read.
	typeKeys(m, "G", "F")
	want = "pricebook/discounts.py:78 pricebook/money.py:45 README.md:12 pricebook/__init__.py:3 pricebook/discounts.py:78"
	if got := visit("m", 5); got != want {
		t.Errorf("m at the last step visits %s\nwant %s", got, want)
	}
}

// Enter in the gold panel goes to the step that came closest to the
// selected span (diagnose's Span.Action) and shows the span's file there.
func TestGoldEnterJumpsToClosest(t *testing.T) {
	a := demoAnalysis(t)
	cases := []struct {
		sel  int // rows down from the first span
		lens model.Lens
		file string
		line int
		step int // 1-based; the step stays where it was (20) when none came near
		msg  string
	}{
		{0, model.LensContextBench, "README.md", 12, 20, "no step came near README.md:12-14"},
		{1, model.LensContextBench, "pricebook/__init__.py", 3, 1, "step 1 came closest to pricebook/__init__.py:3-5"},
		{2, model.LensContextBench, "pricebook/cart.py", 45, 6, "step 6 came closest"},
		{3, model.LensContextBench, "pricebook/discounts.py", 49, 4, "step 4 came closest"},
		{4, model.LensContextBench, "pricebook/discounts.py", 65, 4, "step 4 came closest"},
		{5, model.LensContextBench, "pricebook/discounts.py", 78, 4, "step 4 came closest to pricebook/discounts.py:78-84"},
		{6, model.LensContextBench, "pricebook/money.py", 45, 7, "step 7 came closest"},
		// The observed lens saw grep's lines: a different closest step.
		{5, model.LensObserved, "pricebook/discounts.py", 78, 2, "step 2 came closest"},
		{2, model.LensObserved, "pricebook/cart.py", 45, 2, "step 2 came closest"},
	}
	for _, c := range cases {
		m := newModel(t, a, Options{Step: 20, Lens: c.lens}, 120, 36)
		typeKeys(m, "shift+tab") // the gold panel
		for i := 0; i < c.sel; i++ {
			typeKeys(m, "j")
		}
		typeKeys(m, "enter")
		f, l := src(m).File()
		if f != c.file || l != c.line || m.ctx.Cur+1 != c.step || !strings.Contains(m.status, c.msg) {
			t.Errorf("span %d (%s): step %d at %s:%d, status %q; want step %d at %s:%d, %q",
				c.sel, c.lens, m.ctx.Cur+1, f, l, m.status, c.step, c.file, c.line, c.msg)
		}
		if m.focus != paneGold || src(m).Following() {
			t.Errorf("span %d: focus %v, source following %v; want the gold panel focused and the source pinned", c.sel, m.focus, src(m).Following())
		}
	}
}

// A run whose output tries every terminal trick: none of it may reach the
// screen as a control byte.
func TestObservationControlBytesNeverReachTheTerminal(t *testing.T) {
	hostile := "ok\x1b[2J\x1b]52;c;ZXZpbA==\x07 clip\rover\bwrite \x9b31m c1 \u202eevil\u202c \x1b]0;title\x1b\\ \x07bell \xff bad"
	a := synthetic(t, 5, 50, hostile)
	a.Run.Actions[2].Command = "cat \x1b[31mred\x1b[0m\rfile"
	thoughts := make(model.TextList, len(a.Run.Actions))
	thoughts[2] = "think \x1b]52;c;AAAA\x07 hard"
	a.Run.Thoughts = thoughts
	a.Run.InstanceID = "id\x1b]0;pwn\x07"
	m := newModel(t, a, Options{}, 120, 36)
	typeKeys(m, "l", "l", "tab", "tab") // step 3, observation focused
	for _, frame := range []string{m.View().Content, m.View().WindowTitle} {
		if bad := controlOutsideSGR(frame); bad != "" {
			t.Fatalf("a control sequence reached the screen: %q", bad)
		}
	}
	screen := ansi.Strip(m.View().Content)
	for _, want := range []string{`\e[2J`, `\e]52;c;ZXZpbA==\x07`, `\r`, `\x08`, `\x9b`, `\u202e`, `\xff`, `\e[31mred`} {
		if !strings.Contains(screen, want) {
			t.Errorf("the escape %s is not shown visibly", want)
		}
	}
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// controlOutsideSGR returns the first control character that is not part of
// a colour/attribute sequence the explorer itself wrote, or "".
func controlOutsideSGR(s string) string {
	s = sgr.ReplaceAllString(s, "")
	for i, r := range s {
		switch {
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return s[max(0, i-10):min(len(s), i+10)]
		}
	}
	return ""
}

// The auto theme follows the terminal's background colour.
func TestAutoThemeFollowsBackground(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{Theme: "auto", Dark: true}, 80, 24)
	if m.Init() == nil {
		t.Fatal("auto theme does not ask for the background colour")
	}
	send(m, tea.BackgroundColorMsg{Color: color.White})
	if m.ctx.Theme.Name != "light" {
		t.Errorf("white background gives theme %q, want light", m.ctx.Theme.Name)
	}
	send(m, tea.BackgroundColorMsg{Color: color.Black})
	if m.ctx.Theme.Name != "dark" {
		t.Errorf("black background gives theme %q, want dark", m.ctx.Theme.Name)
	}
	fixed := newModel(t, a, Options{Theme: "light"}, 80, 24)
	send(fixed, tea.BackgroundColorMsg{Color: color.Black})
	if fixed.ctx.Theme.Name != "light" {
		t.Errorf("--theme light changed to %q on a dark terminal", fixed.ctx.Theme.Name)
	}
	mono := newModel(t, a, Options{Theme: "auto", NoColor: true}, 80, 24)
	send(mono, tea.BackgroundColorMsg{Color: color.White})
	if mono.ctx.Theme.Color {
		t.Error("NO_COLOR lost after the background colour arrived")
	}
}

// The wheel scrolls the pane under the pointer.
func TestMouseWheel(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 120, 36)
	r := m.lay.rects()
	tl := r[paneTimeline]
	send(m, tea.MouseWheelMsg{X: tl.x + 2, Y: tl.y + 3, Button: tea.MouseWheelDown})
	if m.ctx.Cur != 1 {
		t.Errorf("wheel over the timeline: step %d, want 2", m.ctx.Cur+1)
	}
	typeKeys(m, "l", "l") // step 4: discounts.py from line ~33
	sr := r[paneSource]
	_, before := src(m).File()
	send(m, tea.MouseWheelMsg{X: sr.x + 5, Y: sr.y + 2, Button: tea.MouseWheelDown})
	if _, after := src(m).File(); after <= before {
		t.Errorf("wheel over the source did not scroll (cursor %d -> %d)", before, after)
	}
	if m.ctx.Cur != 3 {
		t.Errorf("wheel over the source changed the step to %d", m.ctx.Cur+1)
	}
}

// Stepping re-renders; scrolling one pane re-renders only that pane.
func TestOnlyDirtyPanesRender(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 120, 36)
	m.View()
	typeKeys(m, "tab", "tab") // observation focused
	m.View()
	srcBefore := m.cache[paneSource]
	m.cache[paneSource] = "sentinel"
	typeKeys(m, "j")
	m.View()
	if m.cache[paneSource] != "sentinel" {
		t.Error("scrolling the observation re-rendered the source pane")
	}
	typeKeys(m, "l")
	m.View()
	if m.cache[paneSource] == "sentinel" || m.cache[paneSource] == srcBefore {
		t.Error("stepping did not re-render the source pane")
	}
}

// BenchmarkStep is one step forward (key "l") and the frame it draws, at
// 200x60 over a 5,000-line file. ns/op is the steady state, once the file
// is highlighted (by an earlier visit, or while the user read: see
// TestIdleHighlightsAhead); first-pass-median-ms is the median step of a
// first pass through the run with no pause at all, when a step into a new
// stretch of the file highlights it then.
func BenchmarkStep(b *testing.B) {
	a := synthetic(b, 1000, 5000, "line one\nline two\n")
	m := newModel(b, a, Options{}, 200, 60)
	m.View()
	next := press("l")
	times := make([]time.Duration, 0, m.ctx.Data.N)
	for m.ctx.Cur < m.ctx.Data.N-1 {
		t0 := time.Now()
		m.Update(next)
		_ = m.View()
		times = append(times, time.Since(t0))
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	median := float64(times[len(times)/2]) / 1e6
	m.setCur(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.ctx.Cur == m.ctx.Data.N-1 {
			m.setCur(0)
		}
		m.Update(next)
		_ = m.View()
	}
	b.ReportMetric(median, "first-pass-median-ms")
}

// The footer and the help screen are the focused pane's: its own keys
// first, then the common ones.
func TestFooterAndHelpFollowFocus(t *testing.T) {
	a := demoAnalysis(t)
	m := newModel(t, a, Options{}, 200, 40)
	lastLine := func() string {
		lines := strings.Split(ansi.Strip(m.Render()), "\n")
		return lines[len(lines)-1]
	}
	for _, c := range []struct {
		focus        paneID
		footer, help string
	}{
		{paneTimeline, " l/→ next step • h/← previous step • * gold found • tab next pane • / search", " l/→   next step"},
		{paneSource, " ]/[ next/prev gold span • m/M next/prev unread gold • F follow the step • f pick file", " ]/[    next/prev gold span"},
		{paneObservation, " j/↓ scroll down • k/↑ scroll up • ctrl+d half page down • ctrl+u half page up • r hide/show thoughts • l/→ next step", " j/↓    scroll down"},
		{paneTask, " j/↓ scroll down • k/↑ scroll up • ctrl+d half page down • ctrl+u half page up • p patch / task", " j/↓    scroll down"},
		{paneGold, " enter gold: closest step • j/↓ scroll down • k/↑ scroll up • l/→ next step", " j/↓   scroll down"},
	} {
		if m.focus != c.focus {
			t.Fatalf("focus %s, want %s", m.focus, c.focus)
		}
		if got := lastLine(); !strings.HasPrefix(got, c.footer) {
			t.Errorf("%s focused: footer %q, want it to start %q", c.focus, got, c.footer)
		}
		typeKeys(m, "?")
		// The first key group is on the line after the title and a blank.
		if got := strings.Split(ansi.Strip(m.Render()), "\n")[3]; !strings.HasPrefix(got, c.help) {
			t.Errorf("%s focused: help starts %q, want %q", c.focus, got, c.help)
		}
		typeKeys(m, "?", "tab")
	}
}

// Themes are built once: a terminal that reports the background the
// explorer assumed changes nothing, and the source keeps its highlighting.
func TestSameBackgroundKeepsTheme(t *testing.T) {
	m := newModel(t, demoAnalysis(t), Options{Theme: "auto", Dark: true}, 120, 36)
	m.View()
	th, rev := m.ctx.Theme, m.ctx.Rev
	m.cache[paneSource] = "sentinel"
	send(m, tea.BackgroundColorMsg{Color: color.Black})
	m.View()
	if m.ctx.Theme != th || m.ctx.Rev != rev || m.cache[paneSource] != "sentinel" {
		t.Error("the same background rebuilt the theme or redrew the panes")
	}
}

// BenchmarkFirstFrame is opening the explorer and drawing its first screen
// at 200x60 on a run over one file of a given length: with only the visible
// part of a file highlighted, it does not grow with the file.
func BenchmarkFirstFrame(b *testing.B) {
	for _, lines := range []int{500, 5000, 50000} {
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			a := synthetic(b, 50, lines, "")
			b.ReportAllocs()
			for b.Loop() {
				m := newModel(b, a, Options{}, 200, 60)
				_ = m.View()
			}
		})
	}
}

// While the user reads, the source pane highlights the rest of its file,
// a chunk per idle tick, so stepping later finds it ready; a key pressed
// meanwhile cancels the pending tick.
func TestIdleHighlightsAhead(t *testing.T) {
	idleAfter = time.Millisecond
	defer func() { idleAfter = 0 }()
	m := newModel(t, synthetic(t, 10, 5000, ""), Options{}, 200, 60)
	m.View()
	f := src(m).HighlightedChunks
	done, all := f()
	if done == 0 || done > 3 || all != (5000+63)/64 {
		t.Fatalf("after the first frame: %d of %d chunks highlighted", done, all)
	}
	m.armIdle(idleAfter)
	gen := m.idleGen // a timer armed, then superseded by a key
	m.Update(press("j"))
	if cmd := m.idle(idleMsg{gen}); cmd != nil {
		t.Error("a superseded idle tick did work")
	}
	for n := 0; n < 200; n++ {
		if m.idle(idleMsg{m.idleGen}) == nil {
			break
		}
	}
	if done, all := f(); done != all {
		t.Errorf("idle work stopped at %d of %d chunks", done, all)
	}
}
