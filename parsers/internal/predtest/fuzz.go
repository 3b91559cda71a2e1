package predtest

import (
	"bytes"
	"os"
	"path/filepath"
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

// FuzzTail checks a format's followed reading against its whole one on
// any input: the file is written up to a newline near cut, followed
// (tail), then written to its end and followed again; that reading must be
// the whole reading (parse) of its whole lines, and neither may panic.
func FuzzTail(f *testing.F, name string, tail func(path string) func() ([]model.Run, error),
	parse func(string, []byte) ([]model.Run, error), seeds ...string) {
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint16(len(b)/2))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		defer testkit.FuzzBudget(t)()
		data = data[:bytes.LastIndexByte(data, '\n')+1] // a half line waits
		at := bytes.LastIndexByte(data[:min(int(cut), len(data))], '\n') + 1
		path := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(path, data[:at], 0o644); err != nil {
			t.Fatal(err)
		}
		read := tail(path)
		read()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		got, gerr := read()
		want, werr := parse(path, data)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("followed: %v; whole: %v", gerr, werr)
		}
		if werr == nil {
			if d := FirstDifference(got[0], want[0]); d != "" {
				t.Fatalf("the followed reading differs from a whole one: %s", d)
			}
		}
	})
}
