package cli

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/scoring"
)

// buildInstances pairs predictions with gold, in prediction order, skipping
// records without an id as upstream does.
func buildInstances(records []parsers.Prediction, gs *gold.Set, sem model.Semantics, only []string) []scoring.Instance {
	want := map[string]bool{}
	for _, id := range only {
		want[id] = true
	}
	out := make([]scoring.Instance, 0, len(records))
	for i := range records {
		r := &records[i]
		id := r.Pred.InstanceID
		if id == "" && r.Err == nil {
			continue
		}
		if len(want) > 0 && !want[id] {
			continue
		}
		in := scoring.Instance{Pred: &r.Pred, Err: r.Err, Run: r.Run}
		if r.FileID != "" && sem == model.ContextBench {
			in.Unmatched = scoring.UnmatchedReason(safe(r.FileID), safe(id))
		}
		if r.Err == nil {
			if g, ok := gs.Lookup(id, sem); ok {
				in.Gold = g
			}
		}
		out = append(out, in)
	}
	return out
}
