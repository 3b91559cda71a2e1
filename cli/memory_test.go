package cli

import (
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

// limitMemory holds the heap to 3 × the largest input + 100 MB from 4 MB
// of input on, leaves smaller inputs to the collector's pacing, and yields
// to GOMEMLIMIT.
func TestLimitMemory(t *testing.T) {
	dir := t.TempDir()
	sized := func(name string, n int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(n); err != nil { // sparse: nothing written
			t.Fatal(err)
		}
		return p
	}
	small, large := sized("small", 4<<20-1), sized("large", 6<<20)
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	tests := []struct {
		name  string
		env   string
		paths []string
		want  int64
	}{
		{"small input: no limit", "", []string{small, dir}, math.MaxInt64},
		{"the largest input counts", "", []string{small, large, dir}, 3*6<<20 + 64<<20},
		{"GOMEMLIMIT wins", "1GiB", []string{large}, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetMemoryLimit(math.MaxInt64)
			t.Setenv("GOMEMLIMIT", tt.env)
			limitMemory(tt.paths...)
			if got := debug.SetMemoryLimit(-1); got != tt.want {
				t.Errorf("limit %d, want %d", got, tt.want)
			}
		})
	}
}
