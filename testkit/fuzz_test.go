package testkit

import (
	"testing"
	"time"
)

// recorder is a testing.TB that records whether the input failed.
type recorder struct {
	testing.TB
	failed bool
}

func (r *recorder) Errorf(string, ...any) { r.failed = true }
func (r *recorder) Helper()               {}

func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name  string
		took  time.Duration
		fails bool
	}{
		{"fast", 0, false},
		{"within", 5 * time.Millisecond, false},
		{"over", 60 * time.Millisecond, true},
	} {
		r := &recorder{TB: t}
		done := start(r, 40*time.Millisecond, time.Minute)
		time.Sleep(tc.took)
		done()
		if r.failed != tc.fails {
			t.Errorf("%s: failed = %v, want %v", tc.name, r.failed, tc.fails)
		}
	}
}
