package predtest

import (
	"os"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzRuns is a format's fuzz target: no input panics, and every run read
// keeps the loader's invariants (CheckRun). The files that exist among
// seeds join the corpus, after whatever the caller added; name is the file
// name the parser is given.
func FuzzRuns(f *testing.F, name string, parse func(string, []byte) ([]model.Run, error), seeds ...string) {
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		runs, err := parse(name, data)
		if err != nil {
			return
		}
		for i := range runs {
			if err := CheckRun(&runs[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
