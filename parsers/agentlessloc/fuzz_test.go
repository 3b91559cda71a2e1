package agentlessloc

import (
	"os"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzAgentlessLoc checks that no input panics and that loaded runs keep
// the loader's invariants.
func FuzzAgentlessLoc(f *testing.F) {
	if b, err := os.ReadFile("testdata/loc_outputs.jsonl"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"instance_id":"a","found_files":["x"],"found_edit_locs":[[[["line: 0"]]],{"x":"lines: 9-1"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := ParseRuns("fuzz.jsonl", data)
		if err != nil {
			return
		}
		for i := range runs {
			if err := predtest.CheckRun(&runs[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
