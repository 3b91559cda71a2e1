// FuzzBudget gives each fuzz input a time budget. The fuzzer finds
// inputs that make a parser crash; it does not, by itself, notice inputs
// that make one crawl (a pathological grammar case, a quadratic scan), and
// those stall a real run as surely as a crash stops it.

package testkit

import (
	"fmt"
	"testing"
	"time"
)

// Budget is the time one fuzz input may take. Real inputs of fuzz-corpus
// size take well under a millisecond; a second leaves room for a loaded
// machine and the race detector.
const Budget = time.Second

// stall is how far past Budget an input may run before the watchdog stops
// the process: a hung input never returns to the deferred check, so only a
// crash, which the fuzzer records with its input, reports it.
const stall = 10 * Budget

// FuzzBudget starts timing one input; defer the function it returns:
//
//	defer testkit.FuzzBudget(t)()
//
// The input fails when it took longer than Budget, and the process panics
// (a crash the fuzzer minimises and saves) when it runs past ten times that.
func FuzzBudget(t testing.TB) func() {
	t.Helper()
	return start(t, Budget, stall)
}

func start(t testing.TB, budget, stall time.Duration) func() {
	begin := time.Now()
	watchdog := time.AfterFunc(stall, func() {
		panic(fmt.Sprintf("fuzz input still running after %v (budget %v): a hang", stall, budget))
	})
	return func() {
		watchdog.Stop()
		if d := time.Since(begin); d > budget {
			t.Errorf("fuzz input took %v, over its budget of %v", d.Round(time.Millisecond), budget)
		}
	}
}
