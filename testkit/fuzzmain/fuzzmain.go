// Package fuzzmain runs a package's tests so that fuzzing keeps fuzzing.
//
// Go's fuzzer minimises every new interesting input before it goes on, for
// up to -fuzzminimizetime (60 s by default) each; the first seconds of a run
// find several, so a run of 30 s spent all of it minimising and made 4 to 25
// executions (2026-11-26). Minimisation is for crashers worth reading: here each input's
// minimisation stops after 300 executions unless -fuzzminimizetime is given,
// and a 30 s run makes tens of thousands of executions.
package fuzzmain

import (
	"flag"
	"os"
	"testing"
)

// Minimize is the default -fuzzminimizetime.
const Minimize = "300x"

// Main runs m: call it from a package's TestMain.
func Main(m *testing.M) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.fuzzminimizetime" })
	if !given {
		if err := flag.Set("test.fuzzminimizetime", Minimize); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
