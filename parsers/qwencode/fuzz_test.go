package qwencode

import (
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzQwenCode checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzQwenCode(f *testing.F) {
	f.Add([]byte("{}"))
	predtest.FuzzRuns(f, "fuzz.json", ParseRuns, "testdata/session.jsonl")
}
