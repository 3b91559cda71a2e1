package runset

import (
	"fmt"
	"maps"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/source"
)

// countingCheckouts names a checkout by commit and counts what is asked.
type countingCheckouts struct {
	tree                 model.Tree
	keys, opens, release map[string]int
}

func (c *countingCheckouts) Key(_, _, predCommit, goldCommit, _ string) (string, error) {
	k := predCommit + goldCommit
	if k == "" {
		return "", fmt.Errorf("no commit")
	}
	c.keys[k]++
	return k, nil
}
func (c *countingCheckouts) Open(k string) (model.Tree, error) { c.opens[k]++; return c.tree, nil }
func (c *countingCheckouts) Release(k string)                  { c.release[k]++ }

// The observer reads runs against their checkouts as a set does: runs of
// one checkout share its files (read and parsed once), a run whose
// checkout cannot be named is read against what it displayed (and says
// why), every Key is released by Close.
func TestObserverCheckouts(t *testing.T) {
	tree, err := source.OpenDir(filepath.Join(demoTask, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	runs, err := parsers.Load(demoTraj, "")
	if err != nil {
		t.Fatal(err)
	}
	co := &countingCheckouts{tree: tree, keys: map[string]int{}, opens: map[string]int{}, release: map[string]int{}}
	ob := NewObserver(Options{Sem: model.ContextBench, Checkouts: co, Why: func(err error) string { return err.Error() }})
	var warned []string
	ob.Warn = func(run *model.Run, why string) { warned = append(warned, run.Prediction.Commit+": "+why) }
	steps := map[string]int{}
	for _, commit := range []string{"c1", "c2", "c1", ""} {
		run := runs[0]
		run.Prediction.Commit = commit
		steps[commit] = len(ob.Observed(&run).Steps)
		if sa := ob.StepActions(&run, run.Prediction); len(sa) != len(run.Prediction.Steps) {
			t.Errorf("%q: step actions %v for %d steps", commit, sa, len(run.Prediction.Steps))
		}
	}
	if n := len(ob.repos.files.byKey); n != 2 {
		t.Errorf("%d file caches for 2 checkouts", n)
	}
	ob.Close()
	if !maps.Equal(co.release, co.keys) {
		t.Errorf("released %v, keyed %v", co.release, co.keys)
	}
	if len(warned) != 2 || warned[0] != ": no commit" { // Observed and StepActions each read the run
		t.Errorf("warned %q", warned)
	}
	if steps["c1"] == 0 || steps["c1"] != steps["c2"] {
		t.Errorf("observed steps by commit %v", steps)
	}
}
