package gemini

import (
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzGemini checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzGemini(f *testing.F) {
	f.Add([]byte("{}"))
	predtest.FuzzRuns(f, "fuzz.json", ParseRuns, "testdata/chats/session-2026-04-01T00-00-s-main.jsonl", "testdata/chats/s-main/sub-1.jsonl")
}
