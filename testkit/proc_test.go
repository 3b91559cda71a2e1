//go:build promises

package testkit

import (
	"strings"
	"testing"
)

// The limit holds: the binary runs normally under a generous cap, and a
// cap far below what the Go runtime needs makes it fail instead of
// succeeding, which is what lets a memory regression fail a test.
func TestPromiseRunCapsTheChild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := Binary(t)
	r := RunCapped(t, 1<<30, nil, bin, "--version")
	if r.Code != 0 || !strings.HasPrefix(r.Stdout, "trajscope ") {
		t.Fatalf("--version under 1 GiB: exit %d, %q %q", r.Code, r.Stdout, r.Stderr)
	}
	if r.PeakRSS <= 0 || r.PeakRSS > 1<<30 {
		t.Errorf("peak RSS %d not measured", r.PeakRSS)
	}
	if r := RunCapped(t, 8<<20, nil, bin, "--version"); r.Code == 0 {
		t.Errorf("--version under 8 MiB succeeded; the cap is not applied")
	}
}

// The peak is the child's own: a test process holding far more memory than
// the binary needs does not show in the child's figure.
func TestPromisePeakIsTheChilds(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := Binary(t)
	ballast := make([]byte, 400<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	r := RunCapped(t, 2<<30, nil, bin, "--version")
	if r.Code != 0 || r.PeakRSS <= 0 || r.PeakRSS > 200<<20 {
		t.Errorf("--version beside a 400 MiB test process: exit %d, peak %d MiB; want the child's own few MiB", r.Code, r.PeakRSS>>20)
	}
	ballast[len(ballast)-1]++ // keep it alive across Run
}
