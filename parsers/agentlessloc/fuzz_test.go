package agentlessloc

import (
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzAgentlessLoc checks that no input panics and that loaded runs keep
// the loader's invariants.
func FuzzAgentlessLoc(f *testing.F) {
	f.Add([]byte(`{"instance_id":"a","found_files":["x"],"found_edit_locs":[[[["line: 0"]]],{"x":"lines: 9-1"}]}`))
	predtest.FuzzRuns(f, "fuzz.jsonl", ParseRuns, "testdata/loc_outputs.jsonl")
}
