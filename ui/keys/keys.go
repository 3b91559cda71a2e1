// Package keys holds every key binding of the explorer and the rule that
// builds a pane's footer and help screen from them: the focused pane's own
// keys first, then the explorer's common ones.
package keys

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// bind makes a binding: help names the keys in the help, ks are the keys.
func bind(help, desc string, ks ...string) key.Binding {
	return key.NewBinding(key.WithKeys(ks...), key.WithHelp(help, desc))
}

// The bindings: vi-style letters with their arrow and paging equivalents.
// The root model handles the global ones; each pane takes the ones it
// lists in its help.
var (
	Next, Prev        = bind("l/→", "next step", "l", "right"), bind("h/←", "previous step", "h", "left")
	First, Last       = bind("g/0", "first step", "g", "home", "0"), bind("G/$", "last step", "G", "end", "$")
	Down, Up          = bind("j/↓", "scroll down", "j", "down"), bind("k/↑", "scroll up", "k", "up")
	PageDown, PageUp  = bind("ctrl+d", "half page down", "ctrl+d", "pgdown"), bind("ctrl+u", "half page up", "ctrl+u", "pgup")
	Focus, FocusBack  = bind("tab", "next pane", "tab"), bind("shift+tab", "previous pane", "shift+tab")
	Search, NextMatch = bind("/", "search", "/"), bind("n/N", "next/prev match", "n")
	PrevMatch         = bind("N", "previous match", "N")
	Filter            = bind("c", "filter category", "c")
	Play              = bind("space", "autoplay", "space")
	GoldStep          = bind("*", "gold found", "*")
	Faster, Slower    = bind("+/-", "speed", "+", "="), bind("-", "slower", "-", "_")
	Edit, Lens, Files = bind("e", "open in $EDITOR", "e"), bind("v", "switch lens", "v"), bind("f", "pick file", "f")
	// H and L move between runs, as in the mini-swe-agent and SWE-agent
	// inspectors; esc goes back to the run list.
	PrevRun, NextRun   = bind("H/L", "previous/next run", "H"), bind("L", "next run", "L")
	NextGold, PrevGold = bind("]/[", "next/prev gold span", "]"), bind("[", "previous gold span", "[")
	NextMissed         = bind("m/M", "next/prev unread gold", "m")
	PrevMissed, Follow = bind("M", "previous unread gold", "M"), bind("F", "follow the step", "F")
	Select, Closest    = bind("enter", "show in source", "enter"), bind("enter", "gold: closest step", "enter")
	Thoughts           = bind("r", "hide/show thoughts", "r")
	Fold               = bind("z", "fold/unfold sub-agents", "z")
	SessionBack        = bind("⌫", "last session", "backspace")
	Task, Patch        = bind("t", "task and patch", "t"), bind("p", "patch / task", "p")
	AsOf               = bind("b", "source as of this step / base", "b")
	Spend              = bind("u", "time and tokens per step", "u")
	Help, Quit, Back   = bind("?", "help", "?"), bind("q", "quit", "q", "ctrl+c"), bind("esc", "close / clear", "esc")
	// The run list's own keys.
	Open, ListFilter = bind("enter", "open the run", "enter"), bind("/", "filter runs", "/")
	Sort, SortDir    = bind("s/S", "sort by next column / reverse", "s"), bind("S", "reverse the sort", "S")
	ToList           = bind("esc", "back to the run list", "esc")
)

// common are the footer's keys after a pane's own, most useful first: the
// help line truncates what does not fit.
var common = []key.Binding{Next, Prev, GoldStep, Focus, Search, Play, Lens, Files, Edit, Help, Quit}

// reference is every key, in the help screen's groups: stepping, panes and
// scrolling, gold and source, search and the rest.
var reference = [][]key.Binding{
	{Next, Prev, First, Last, GoldStep, Play, Faster, Lens},
	{Focus, FocusBack, Down, Up, PageDown, PageUp, Select},
	{NextGold, NextMissed, Closest, Files, Follow, Edit},
	{Search, NextMatch, Filter, Thoughts, Fold, Task, AsOf, Spend},
	{PrevRun, Back, SessionBack, Help, Quit},
}

// Footer is a pane's footer: its own keys, then the common ones it did not
// list.
func Footer(own ...key.Binding) []key.Binding {
	return append(append([]key.Binding(nil), own...), without(common, own)...)
}

// FullHelp is a pane's help screen: its own keys as the first group, then
// every other key in the reference groups.
func FullHelp(own ...key.Binding) [][]key.Binding {
	out := [][]key.Binding{own}
	for _, g := range reference {
		if rest := without(g, own); len(rest) > 0 {
			out = append(out, rest)
		}
	}
	return out
}

// without returns the bindings of list that are not in drop. Bindings are
// told apart by their help (enter selects a file and goes to the closest
// step: two bindings of one key).
func without(list, drop []key.Binding) []key.Binding {
	var out []key.Binding
	for _, b := range list {
		if !contains(drop, b) {
			out = append(out, b)
		}
	}
	return out
}

func contains(list []key.Binding, b key.Binding) bool {
	for _, o := range list {
		if o.Help() == b.Help() {
			return true
		}
	}
	return false
}

// ScrollLines is how far a scrolling key moves a pane whose body has h
// rows: a row for j/k, half the body for ctrl+d/ctrl+u, 0 for other keys.
func ScrollLines(k tea.KeyPressMsg, h int) int {
	switch {
	case key.Matches(k, Down):
		return 1
	case key.Matches(k, Up):
		return -1
	case key.Matches(k, PageDown):
		return max(1, h/2)
	case key.Matches(k, PageUp):
		return -max(1, h/2)
	}
	return 0
}

// TypeInto is input after key k in a one-line prompt (search, filter):
// backspace removes the last character, printable text is appended, and
// anything else (control and alt chords) leaves it as it is.
func TypeInto(input string, k tea.KeyPressMsg) string {
	switch {
	case k.String() == "backspace":
		if r := []rune(input); len(r) > 0 {
			return string(r[:len(r)-1])
		}
	case k.Text != "" && k.Mod&(tea.ModCtrl|tea.ModAlt) == 0:
		return input + k.Text
	}
	return input
}
