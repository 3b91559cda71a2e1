package cli

import (
	"os"
	"runtime/debug"
)

// limitMemory holds the Go heap to what trajscope promises for its inputs:
// 3 × the largest + 150 MB of resident memory, of which about 70 MB is
// the binary and what lives outside the Go heap (measured on Go 1.26: a
// limit of 3n + 100 MB let a 90 MB Codex rollout's convert peak at 426
// MiB, 3n + 70 MB at 351), so the heap gets 3n + 64 MB. Without a limit the collector
// lets the heap grow to twice what is live before it runs, and a large run
// would double its peak for nothing, and a small but dense input (100,000
// gold files in 6 MB) past the promise. Below 4 MB (nearly every real run,
// the ContextBench golds) the collector's own pacing costs little and is
// left alone: a list of thousands of small runs is not held to the size
// of one. GOMEMLIMIT, when set, wins.
func limitMemory(paths ...string) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var largest int64
	for _, p := range paths {
		largest = max(largest, regularSize(p))
	}
	limitMemoryTo(largest)
}

// limitMemoryTo holds the Go heap to the promise for an input of n bytes
// (see limitMemory); a followed session's limit grows with it.
func limitMemoryTo(n int64) {
	if os.Getenv("GOMEMLIMIT") == "" && n >= 4<<20 {
		debug.SetMemoryLimit(3*n + 64<<20)
	}
}

// regularSize is a regular file's size, 0 for anything else.
func regularSize(p string) int64 {
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return st.Size()
	}
	return 0
}
