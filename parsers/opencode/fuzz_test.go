package opencode

import (
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// FuzzOpenCode checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzOpenCode(f *testing.F) {
	f.Add([]byte("{}"))
	predtest.FuzzRuns(f, "fuzz.json", ParseRuns, "testdata/export.json")
}
