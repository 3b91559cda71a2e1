package demo

import (
	"io/fs"
	"testing"
)

// The embedded task loads: the run has its 20 actions, the gold a row for
// it naming five files, and the repository holds them. (runset's demo
// test scores it.)
func TestEmbeddedTask(t *testing.T) {
	task, err := Load(FS())
	if err != nil {
		t.Fatal(err)
	}
	if n := len(task.Run.Actions); n != 20 {
		t.Errorf("%d actions, want 20", n)
	}
	g, ok := task.Gold.Get(task.Run.InstanceID)
	if !ok {
		t.Fatal("no gold row for the run")
	}
	files := map[string]bool{}
	for _, c := range g.Init {
		files[c.File] = true
	}
	if len(files) != 5 {
		t.Errorf("%d gold files, want 5", len(files))
	}
	for f := range files {
		if _, err := fs.Stat(task.Repo, f); err != nil {
			t.Errorf("gold file %s: %v", f, err)
		}
	}
	if _, err := Load(nil); err == nil {
		t.Error("nil FS: no error")
	}
}
