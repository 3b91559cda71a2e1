package parsers_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// BenchmarkLoadMiniSWE loads a generated mini-swe-agent v1 trajectory from
// disk through the root Load (content detection, read, parse, extraction and
// the timeline's shell analysis) at 100, 1,000 and 10,000 actions: the time
// per op should grow about tenfold at each size.
func BenchmarkLoadMiniSWE(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			t := benchgen.New(benchgen.Options{Actions: n, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
			path := filepath.Join(b.TempDir(), t.ID+".traj.json")
			if err := os.WriteFile(path, t.Traj, 0o644); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(t.Traj)))
			b.ReportAllocs()
			for b.Loop() {
				runs, err := parsers.Load(path, "")
				if err != nil {
					b.Fatal(err)
				}
				if runs[0].Format != miniswe.Name || len(runs[0].Actions) != n+1 {
					b.Fatalf("loaded %s with %d actions, want %s with %d", runs[0].Format, len(runs[0].Actions), miniswe.Name, n+1)
				}
			}
		})
	}
}
