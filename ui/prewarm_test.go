package ui

import (
	"fmt"
	"slices"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// Prewarm readies one file per extension, in reading order, and at most a
// few: a hostile run naming 10,000 extensions costs no more than a real one.
func TestPrewarmPaths(t *testing.T) {
	read := func(files ...string) model.Action {
		var a model.Action
		for _, f := range files {
			a.Reads = append(a.Reads, model.ObservedRead{File: f})
		}
		return a
	}
	run := &model.Run{Actions: []model.Action{read("a/x.py", "b/y.py"), {}, read("Makefile", "m.go", "z.py", "README")}}
	if got, want := prewarmPaths(run), []string{"a/x.py", "Makefile", "m.go"}; !slices.Equal(got, want) {
		t.Errorf("paths %q, want %q", got, want)
	}
	var many model.Action
	for i := range 10000 {
		many.Reads = append(many.Reads, model.ObservedRead{File: fmt.Sprintf("f.e%d", i)})
	}
	if got := prewarmPaths(&model.Run{Actions: []model.Action{many}}); len(got) != prewarmLexers || got[0] != "f.e0" {
		t.Errorf("10,000 extensions: %d paths from %q", len(got), got[0])
	}
}
