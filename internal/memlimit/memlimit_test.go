package memlimit

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
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
