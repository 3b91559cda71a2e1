package atif

import (
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzATIF checks that no input panics and that loaded runs keep the
// loader's invariants. Referenced sub-agent files are not followed.
func FuzzATIF(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json*")
	terminus, _ := filepath.Glob("testdata/terminus/*.json") // keystrokes, continuations
	f.Add([]byte(`{"schema_version":"ATIF-v1.7","steps":[{"source":"agent","tool_calls":[{"tool_call_id":"a","function_name":"Task","arguments":"{\"x\":1}"}],` +
		`"observation":{"results":[{"source_call_id":"a","subagent_trajectory_ref":[{"trajectory_id":"s"}]}]}}],` +
		`"subagent_trajectories":[{"trajectory_id":"s","schema_version":"ATIF-v1.7","steps":[{"source":"agent","tool_calls":[{"function_name":"Task"}],` +
		`"observation":{"results":[{"subagent_trajectory_ref":[{"trajectory_id":"s"}]}]}}]}]}`))
	predtest.FuzzRuns(f, "fuzz.json", func(name string, data []byte) ([]model.Run, error) { return parse(name, data, "") }, append(seeds, terminus...)...)
}
