package gemini

import (
	"os"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzGemini checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzGemini(f *testing.F) {
	for _, p := range []string{"testdata/chats/session-2026-04-01T00-00-s-main.jsonl", "testdata/chats/s-main/sub-1.jsonl"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("{}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := ParseRuns("fuzz.json", data)
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
