package atif

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzATIF checks that no input panics and that loaded runs keep the
// loader's invariants. Referenced sub-agent files are not followed.
func FuzzATIF(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json*")
	terminus, _ := filepath.Glob("testdata/terminus/*.json") // keystrokes, continuations
	seeds = append(seeds, terminus...)
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"schema_version":"ATIF-v1.7","steps":[{"source":"agent","tool_calls":[{"tool_call_id":"a","function_name":"Task","arguments":"{\"x\":1}"}],` +
		`"observation":{"results":[{"source_call_id":"a","subagent_trajectory_ref":[{"trajectory_id":"s"}]}]}}],` +
		`"subagent_trajectories":[{"trajectory_id":"s","schema_version":"ATIF-v1.7","steps":[{"source":"agent","tool_calls":[{"function_name":"Task"}],` +
		`"observation":{"results":[{"subagent_trajectory_ref":[{"trajectory_id":"s"}]}]}}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := parse("fuzz.json", data, "")
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
