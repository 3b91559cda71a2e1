package display

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
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
	if got := RunSpend(run).Words(); got != "1m15s · 3.0k tokens · $0.03" {
		t.Errorf("run: %q", got)
	}
	run.CostUSD = 0.5
	if got := RunSpend(run).Words(); got != "1m15s · 3.0k tokens · $0.50" {
		t.Errorf("run with its own cost: %q", got)
	}
	if got := StepSpend(run, 2).Words(); got != "1m15s · 2.0k tokens · $0.02" {
		t.Errorf("step 3: %q", got)
	}
	if s := StepSpend(run, 1); s.Timed || s.Words() != "" {
		t.Errorf("an untimed step: %+v", s)
	}
}

// StepSpends is StepSpend of every action: on a run with gaps in its
// timestamps, a clock that goes back, and on real runs that record time.
func TestStepSpendsIsEveryStepSpend(t *testing.T) {
	runs := []*model.Run{{Actions: []model.Action{
		{}, {Timestamp: 100}, {}, {}, {Timestamp: 90, Usage: model.Usage{InputTokens: 5}},
		{Timestamp: 130, Usage: model.Usage{CostUSD: 0.5}}, {}, {Timestamp: 131.5},
	}}}
	for _, f := range []string{
		"../../shared/data/formats/claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl",
		"../../shared/data/formats/claude-code-native/orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl",
		"../../shared/data/formats/codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl",
	} {
		if rs, err := parsers.Load(f, ""); err == nil {
			for i := range rs {
				runs = append(runs, &rs[i])
			}
		}
	}
	timed := 0
	for _, run := range runs {
		all := StepSpends(run)
		if len(all) != len(run.Actions) {
			t.Fatalf("%s: %d spends for %d actions", run.Path, len(all), len(run.Actions))
		}
		for i := range all {
			if want := StepSpend(run, i); all[i] != want {
				t.Errorf("%s action %d: %+v, want %+v", run.Path, i, all[i], want)
			}
			if all[i].Timed {
				timed++
			}
		}
	}
	if timed < 3 {
		t.Errorf("only %d timed steps compared", timed)
	}
}
