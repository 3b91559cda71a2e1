package goose

import (
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzGoose checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzGoose(f *testing.F) {
	f.Add([]byte("{}"))
	predtest.FuzzRuns(f, "fuzz.json", ParseRuns, "testdata/export.json")
}
