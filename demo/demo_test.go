package demo

import (
	"testing"

	"github.com/trajscope/trajscope/model"
)

// The embedded task loads and scores: the run has its 20 actions, the gold
// its five files, and every lens reads part of the gold.
func TestEmbeddedTask(t *testing.T) {
	a, err := Analyze(FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(a.Run.Actions); n != 20 {
		t.Errorf("%d actions, want 20", n)
	}
	if n := len(a.Gold.Files); n != 5 {
		t.Errorf("%d gold files, want 5", n)
	}
	for _, l := range model.Lenses {
		if c := a.Lenses[l].Result.Final.Line.Coverage; c <= 0 || c >= 1 {
			t.Errorf("%s lens: final line coverage %v, want strictly between 0 and 1", l, c)
		}
	}
	if _, err := Analyze(nil, model.ContextBench); err == nil {
		t.Error("nil FS: no error")
	}
}
