package story

import (
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
)

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
