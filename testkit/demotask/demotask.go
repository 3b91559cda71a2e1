// Package demotask analyses the demo task for tests.
package demotask

import (
	"io/fs"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Analyze analyses the demo task of fsys (demo.FS, or a replacement in a
// test) under sem against its own gold and repository.
func Analyze(fsys fs.FS, sem model.Semantics) (*scoring.Analysis, error) {
	t, err := demo.Load(fsys)
	if err != nil {
		return nil, err
	}
	g, _ := t.Gold.Get(t.Run.InstanceID)
	return scoring.Analyze(t.Run, g, scoring.NewFileCache(source.NewFS(t.Repo)), sem), nil
}

// Interleave makes the run's first 8 actions those of a lead and two
// Explore agents that ran side by side: the lead's calls 2 and 3 start
// agents aaaa1111 and bbbb2222, whose actions 4–7 alternate. It reports
// false, changing nothing, for a run of fewer actions.
func Interleave(run *model.Run) bool {
	if len(run.Actions) < 8 {
		return false
	}
	run.Agents = []model.Agent{{Parent: -1, Call: -1},
		{ID: "aaaa1111", Type: "Explore", Call: 1, Depth: 1}, {ID: "bbbb2222", Type: "Explore", Call: 2, Depth: 1}}
	for i, k := range []int32{0, 0, 0, 1, 2, 1, 2, 0} {
		run.Actions[i].Agent = k
	}
	return true
}
