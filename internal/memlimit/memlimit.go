// Package memlimit sets the Go runtime's soft memory limit from the size of
// the inputs. The collector normally lets the heap grow to twice what is
// live before it runs; on a large trajectory that doubles the peak for
// nothing. With a limit the collector runs sooner as the heap nears it, so
// the peak stays near what is live, at some CPU cost only on large inputs.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

// Base is the Go heap the process may use besides its inputs (tables,
// grammars' Go side), and PerInputByte how much one byte of the largest
// input may take while it is parsed and analysed: its bytes, which the
// run's text shares, and as much again. The limit covers the Go runtime's
// memory only: the binary's pages (about 40 MB resident), tree-sitter's C
// memory and stacks come on top, so Base with them stays within the 100 MB
// the targets allow beside twice the input.
const (
	Base         = 48 << 20
	PerInputByte = 2
)

// MinInput is the size from which a limit is set: below it the default
// pacing costs little, and a limit near Base would only make the collector
// busy.
const MinInput = 32 << 20

// Budget is the Go memory the project's target allows a process whose
// largest input is n bytes: the target is 3 × n + 150 MB of resident
// memory (README, "Limits"), and beside the Go runtime's memory a process
// holds NonHeap plus about a sixteenth of that memory again (pages freed
// but not yet returned, the runtime's own tables), measured on the
// 1,000,000-action view.
func Budget(n int64) int64 {
	if n > (math.MaxInt64-150_000_000)/3 {
		return math.MaxInt64
	}
	return (3*n + 150_000_000 - NonHeap) * 16 / 17
}

// NonHeap is the resident memory besides the Go runtime's that does not
// grow with the input: the binary's pages (about 40 MB), tree-sitter's C
// memory for one file.
const NonHeap = 48 << 20

// ForInputs sets the soft limit to PerInputByte × the largest of paths +
// Base when that input is at least MinInput, unless GOMEMLIMIT already sets
// one. Paths that are not regular files (directories, missing files) count
// as nothing. It returns the limit set, 0 when none.
func ForInputs(paths ...string) int64 {
	if os.Getenv("GOMEMLIMIT") != "" {
		return 0
	}
	var largest int64
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			largest = max(largest, st.Size())
		}
	}
	if largest < MinInput {
		return 0
	}
	limit := Base + PerInputByte*largest
	if largest > (math.MaxInt64-Base)/PerInputByte {
		limit = math.MaxInt64
	}
	debug.SetMemoryLimit(limit)
	go watch(limit, Budget(largest), 50*time.Millisecond, nil)
	return limit
}

// Headroom is how far above what is live the limit stays once a run needs
// more than the limit set from its input: the heap then peaks near 1.25 ×
// what is live (1.5 was some 15% faster on a 1,000,000-action run and
// peaked 25% higher). Lifting the limit to twice what was live at one
// moment landed anywhere between 1.1 and 2 times the final live heap;
// dropping it for the collector's own pacing left the resident set far
// above the heap, as nothing then made the runtime return freed memory.
const Headroom = 1.25

// Tight is the least headroom: where Headroom would take the heap past the
// budget, the limit stays at the budget as long as Tight × what is live
// fits in it, and follows Tight × what is live beyond. The collector then
// runs more often (a 1,000,000-action view took some 10% longer) instead
// of the process outgrowing its target.
const Tight = 1.1

// next is the limit for live bytes: Headroom × live, or less where that
// passes the budget (see Tight); never below the limit already set.
func next(limit, live, budget int64) int64 {
	want := int64(float64(live) * Headroom)
	if want > budget {
		want = max(budget, int64(float64(live)*Tight))
	}
	return max(limit, want)
}

// watch raises the limit as what is live grows (see next): past the limit
// the collector would run almost without pause (a run the explorer needs
// more than the limit for took twice as long under a fixed one).
func watch(limit, budget int64, every time.Duration, stop <-chan struct{}) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		metrics.Read(live)
		if live[0].Value.Kind() != metrics.KindUint64 {
			return // a runtime without the metric: keep the limit
		}
		n := live[0].Value.Uint64()
		if n > math.MaxInt64/2 {
			continue
		}
		if want := next(limit, int64(n), budget); want > limit {
			limit = want
			debug.SetMemoryLimit(limit)
		}
	}
}
