package sweagent

import (
	"os"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// checkRun asserts the invariants every loaded run keeps.
func checkRun(t *testing.T, run model.Run) {
	predtest.CheckActions(t, run)
	for _, st := range run.Prediction.Steps {
		if len(st.Files) != 1 || len(st.Spans) != 1 || st.Spans[0].Spans[0].Start <= 0 || st.Spans[0].Spans[0].End <= 0 {
			t.Fatalf("bad step %+v", st)
		}
	}
}

func seedFiles(f *testing.F, names ...string) {
	for _, n := range names {
		if b, err := os.ReadFile("testdata/" + n); err == nil {
			f.Add(b)
		}
	}
}

func FuzzSWEAgentCheckpoints(f *testing.F) {
	seedFiles(f, "../../../testdata/testvectors/traj/owner__repo-1.checkpoints.jsonl", "views.checkpoints.jsonl", "lastpatch.checkpoints.jsonl",
		"tools.checkpoints.jsonl", "badrange.checkpoints.jsonl", "badjson.checkpoints.jsonl")
	f.Add([]byte(`{"action": 5}` + "\n" + `{"action": ["str_replace_editor view"]}`))
	f.Add([]byte(`{"type": "patch_context", "patch_context": ["x"]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := loadCheckpoints("fuzz.checkpoints.jsonl", data)
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.checkpoints.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		checkRun(t, run)
	})
}

func FuzzSWEAgentTraj(f *testing.F) {
	seedFiles(f, "owner__repo-1.traj", "instance_owner__repo-7/instance_owner__repo-7.traj", "history-only.traj", "windows-0x.traj",
		"badinfo.traj", "owner__repo-3.context.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		if run, err := loadTraj("fuzz.traj", data); err == nil {
			checkRun(t, run)
		}
		loadContextJSON("fuzz.context.json", data)
		Sniff("fuzz", data)
	})
}

func FuzzPatchContext(f *testing.F) {
	for _, s := range []string{
		"File: /testbed/a.py\nLines: 10 - 20\nLines: 30-25\nFile: b.py\nFile: /repo/c.py\nLines: 1-2",
		"File: a.py\nLines: 1-2-3", "File: \nLines: 5-6", "Lines: \uff15-\uff17", "File: a/File:b.py\nLines: 1_0-2",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		defer testkit.FuzzBudget(t)()
		spans, err := ParsePatchContext(s)
		if err != nil {
			if _, ok := err.(*PatchContextError); !ok {
				t.Fatalf("unexpected error type %T", err)
			}
			return
		}
		seen := map[string]bool{}
		for _, fs := range spans {
			if seen[fs.File] {
				t.Fatalf("file %q listed twice", fs.File)
			}
			seen[fs.File] = true
			if fs.Spans == nil {
				t.Fatalf("file %q has nil spans", fs.File)
			}
		}
		again, _ := ParsePatchContext(s)
		if len(again) != len(spans) {
			t.Fatal("not deterministic")
		}
	})
}
