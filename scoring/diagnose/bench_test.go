package diagnose_test

import (
	"fmt"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// BenchmarkDiagnose diagnoses a generated mini-swe-agent run under both
// lenses, as opening it in the explorer does, at 100, 1,000 and 10,000
// actions.
func BenchmarkDiagnose(b *testing.B) {
	for _, n := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("actions=%d", n), func(b *testing.B) {
			t := benchgen.New(benchgen.Options{Actions: n, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
			run, err := miniswe.Parse(t.ID+".traj.json", t.Traj)
			if err != nil {
				b.Fatal(err)
			}
			dir, commit := testkit.GitRepo(b, t.Files)
			tree, err := source.Open(dir, commit, nil)
			if err != nil {
				b.Fatal(err)
			}
			a := scoring.Analyze(run, t.Gold, scoring.NewFileCache(tree), model.ContextBench)
			b.ReportAllocs()
			for b.Loop() {
				for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
					if d := diagnose.DiagnoseBoth(a)[l]; len(d.Spans) == 0 {
						b.Fatal("no gold spans diagnosed")
					}
				}
			}
		})
	}
}
