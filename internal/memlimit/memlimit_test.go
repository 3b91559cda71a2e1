package memlimit

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestForInputs(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1)) // restore the test's own
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small"), filepath.Join(dir, "big")
	os.WriteFile(small, []byte("x"), 0o644)
	f, _ := os.Create(big)
	f.Truncate(MinInput + 1<<20) // sparse: a size without the bytes
	f.Close()
	for _, tc := range []struct {
		name  string
		paths []string
		want  int64
	}{
		{"no input", nil, 0},
		{"small inputs leave the default", []string{small, dir, filepath.Join(dir, "missing")}, 0},
		{"the largest input sets it", []string{small, big}, Base + PerInputByte*(MinInput+1<<20)},
	} {
		debug.SetMemoryLimit(1 << 62)
		got := ForInputs(tc.paths...)
		if got != tc.want || (tc.want != 0 && debug.SetMemoryLimit(-1) != tc.want) {
			t.Errorf("%s: ForInputs = %d, want %d", tc.name, got, tc.want)
		}
	}
	os.Setenv("GOMEMLIMIT", "1GiB")
	if got := ForInputs(big); got != 0 {
		t.Errorf("with GOMEMLIMIT set: %d", got)
	}
}

// TestWatchLiftsTheLimit: as what is live passes the limit, the limit
// follows it at Headroom times what is live, so the collector never runs
// without pause; it never comes down.
func TestWatchLiftsTheLimit(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	held := make([]byte, 64<<20)
	for i := range held {
		held[i] = byte(i)
	}
	runtime.GC()
	limit := int64(16 << 20)
	debug.SetMemoryLimit(limit)
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { watch(limit, math.MaxInt64, time.Millisecond, stop); close(done) }()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) == limit && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	lifted := debug.SetMemoryLimit(-1)
	runtime.KeepAlive(held)
	if want := int64(float64(len(held)) * Headroom); lifted < want || lifted > want*6/5 {
		t.Errorf("limit %d MB with %d MB live, want about %d MB", lifted>>20, len(held)>>20, want>>20)
	}
	// What is live shrinks: the limit stays.
	held = nil
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	close(stop)
	<-done
	if got := debug.SetMemoryLimit(-1); got != lifted {
		t.Errorf("limit %d MB after the live heap shrank, want it kept at %d MB", got>>20, lifted>>20)
	}
}

// TestNext: the limit follows Headroom × what is live while that fits the
// budget; past it, it stays at the budget until Tight × what is live
// passes it, then follows that; it never comes down.
func TestNext(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name                string
		limit, live, budget int64
		want                int64
	}{
		{"well within the budget", 100 * mb, 200 * mb, 1000 * mb, 250 * mb},
		{"headroom would pass the budget", 100 * mb, 850 * mb, 1000 * mb, 1000 * mb},
		{"tight headroom passes it too", 100 * mb, 1000 * mb, 1000 * mb, 1100 * mb},
		{"never down", 900 * mb, 200 * mb, 1000 * mb, 900 * mb},
		{"no budget", 100 * mb, 200 * mb, math.MaxInt64, 250 * mb},
	} {
		if got := next(tc.limit, tc.live, tc.budget); got < tc.want-1 || got > tc.want+1 {
			t.Errorf("%s: next = %d MB, want %d MB", tc.name, got/mb, tc.want/mb)
		}
	}
	if b := Budget(269360145); b != (3*269360145+150_000_000-NonHeap)*16/17 {
		t.Errorf("Budget = %d", b)
	}
	if Budget(math.MaxInt64/2) != math.MaxInt64 {
		t.Error("Budget overflows")
	}
}
