package jsontree

import (
	"testing"

	"github.com/trajscope/trajscope/testkit/benchgen"
)

// BenchmarkParse decodes a generated 1,000-action mini-swe-agent run: long
// strings with an escape every line, as real trajectories are.
func BenchmarkParse(b *testing.B) {
	doc := benchgen.New(benchgen.Options{Actions: 1000, GoldFiles: 5, Lines: 2000, OtherFiles: 3}).Traj
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(doc); err != nil {
			b.Fatal(err)
		}
	}
}
