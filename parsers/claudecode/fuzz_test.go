package claudecode

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzClaudeCode checks that no input panics and that every run loaded
// keeps the loader's invariants.
func FuzzClaudeCode(f *testing.F) {
	for _, p := range []string{"testdata/stream.jsonl", "testdata/session.jsonl", "testdata/array.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"type":"assistant","message":{"id":"m","content":[{"type":"tool_use","id":"t","name":"Read","input":{"file_path":"a","offset":-5,"limit":1e300}}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t","content":"0\tx\n999999999\ty"}]},"toolUseResult":{"type":"text","file":{"startLine":-3,"numLines":2}}}`))
	f.Add([]byte("[{\"type\":\"system\",\"subtype\":\"init\"}]"))
	f.Add([]byte("{\"type\":\"user\",\"message\":{\"content\":\"\u2028\"}}\n{"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		// A name no file stands beside: no sub-agent is read from disk.
		runs, err := ParseRuns(filepath.Join(dir, "fuzz.jsonl"), data)
		if err != nil {
			return
		}
		if err := predtest.CheckRun(&runs[0]); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzTail holds the followed reading to the whole one on any input.
func FuzzTail(f *testing.F) {
	predtest.FuzzTail(f, "s.jsonl", func(path string) func() ([]model.Run, error) { return NewTail(path).Read },
		ParseRuns, "testdata/stream.jsonl", "testdata/session.jsonl", "testdata/team/sess-t.jsonl")
}
