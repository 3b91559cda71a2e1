package display

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// An edit is shown as the lines it removed and added between the lines it
// kept.
func TestChangeDiff(t *testing.T) {
	c := model.Change{File: "a.py", Old: "def f():\n    x = 1\n    return x", New: "def f():\n    x = 2\n    y = 3\n    return x"}
	want := []DiffLine{{' ', "def f():"}, {'-', "    x = 1"}, {'+', "    x = 2"}, {'+', "    y = 3"}, {' ', "    return x"}}
	if got := ChangeDiff(c); !reflect.DeepEqual(got, want) {
		t.Errorf("ChangeDiff = %+v", got)
	}
	whole := ChangeDiff(model.Change{Kind: model.ChangeWhole, New: "a\nb\n"})
	if !reflect.DeepEqual(whole, []DiffLine{{'+', "a"}, {'+', "b"}}) {
		t.Errorf("a whole file: %+v", whole)
	}
}

// Replaying a file's edits gives the file as the run left it; an edit whose
// old text is not there stops the replay where it is.
func TestReplay(t *testing.T) {
	base := "a\nb\nc\n"
	cases := []struct {
		name    string
		changes []model.Change
		want    string
		applied int
		ok      bool
	}{
		{"replace", []model.Change{{Old: "b", New: "B"}}, "a\nB\nc\n", 1, true},
		{"replace then insert", []model.Change{{Old: "b", New: "B"}, {Kind: model.ChangeInsert, Line: 1, New: "x"}}, "a\nx\nB\nc\n", 2, true},
		{"insert at the top", []model.Change{{Kind: model.ChangeInsert, Line: 0, New: "top\n"}}, "top\na\nb\nc\n", 1, true},
		{"whole file", []model.Change{{Kind: model.ChangeWhole, New: "new\n"}, {Old: "new", New: "newer"}}, "newer\n", 2, true},
		{"an edit that does not apply", []model.Change{{Old: "b", New: "B"}, {Old: "zzz", New: "y"}, {Old: "c", New: "C"}}, "a\nB\nc\n", 1, false},
		{"insert past the end", []model.Change{{Kind: model.ChangeInsert, Line: 9, New: "x"}}, base, 0, false},
	}
	for _, c := range cases {
		got, n, ok := Replay(base, c.changes)
		if got != c.want || n != c.applied || ok != c.ok {
			t.Errorf("%s: %q, %d applied, ok %v; want %q, %d, %v", c.name, got, n, ok, c.want, c.applied, c.ok)
		}
	}
}

// A read label keeps its line ranges and gives up its name's middle; other
// labels are cut at the end.
func TestFitLabel(t *testing.T) {
	cases := []struct {
		s    string
		w    int
		want string
	}{
		{"weighted.py:160-210", 19, "weighted.py:160-210"},
		{"weighted.py:160-210", 16, "wei…d.py:160-210"},
		{"blueprints.py:1-46,84-91", 20, "blue…s.py:1-46,84-91"},
		{"a.py:1-2,3-4,5-6,7-8,9-10", 12, "a.py:1-2,3-…"},
		{"grep -rn weighted xarray", 10, "grep -rn …"},
	}
	for _, c := range cases {
		if got := FitLabel(c.s, c.w); got != c.want {
			t.Errorf("FitLabel(%q, %d) = %q, want %q", c.s, c.w, got, c.want)
		}
	}
}

// A run's spend: time from its first to its last timestamp, its tokens,
// its own cost, else its steps' summed; a step's: the time since the
// previous timestamped action, its tokens and cost.
func TestSpend(t *testing.T) {
	run := &model.Run{Actions: []model.Action{
		{Timestamp: 100, Usage: model.Usage{InputTokens: 900, OutputTokens: 100, CostUSD: 0.01}},
		{},
		{Timestamp: 175, Usage: model.Usage{InputTokens: 1500, OutputTokens: 500, CostUSD: 0.02}},
	}}
	if got := SpendWords(story.RunSpend(run)); got != "1m15s · 3.0k tokens · $0.03" {
		t.Errorf("run: %q", got)
	}
	run.CostUSD = 0.5
	if got := SpendWords(story.RunSpend(run)); got != "1m15s · 3.0k tokens · $0.50" {
		t.Errorf("run with its own cost: %q", got)
	}
	if got := SpendWords(story.StepSpend(run, 2)); got != "1m15s · 2.0k tokens · $0.02" {
		t.Errorf("step 3: %q", got)
	}
	if s := story.StepSpend(run, 1); s.Timed || SpendWords(s) != "" {
		t.Errorf("an untimed step: %+v", s)
	}
}
