package goose

import (
	"os"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzGoose checks that no input panics and that every run read keeps the
// loader's invariants.
func FuzzGoose(f *testing.F) {
	for _, p := range []string{"testdata/export.json"} {
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
