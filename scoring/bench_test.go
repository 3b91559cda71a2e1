package scoring_test

import (
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// pythonFile generates n lines of plausible Python: classes with methods.
// Each seed gives different content, as the files of one instance have (the
// definitions cache would otherwise parse identical files once).
func pythonFile(n, seed int) string {
	var b strings.Builder
	for i := 0; b.Len() >= 0 && strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "class C%d_%d:\n    \"\"\"Doc %d.\"\"\"\n\n    def m%d(self, x):\n        y = x + %d\n        return y * 2\n\n", seed, i, i, i, i)
		fmt.Fprintf(&b, "def f%d(a, b):\n    if a > b:\n        return a\n    return b\n\n", i)
	}
	return b.String()
}

// typicalInstance: 5 gold files of ~2,000 lines, 20 steps.
func typicalInstance(tb testing.TB) (*model.Gold, *model.Prediction, model.Tree) {
	files := map[string]string{}
	g := &model.Gold{ID: "bench__bench-1", Commit: "x"}
	pred := &model.Prediction{InstanceID: "bench__bench-1"}
	for i := 0; i < 5; i++ {
		name := fmt.Sprintf("pkg/mod%d.py", i)
		files[name] = pythonFile(2000, i)
		g.Init = append(g.Init, model.GoldSpan{File: "/testbed/" + name, Start: 100 + i*50, End: 180 + i*50},
			model.GoldSpan{File: name, Start: 900, End: 960})
	}
	for s := 0; s < 20; s++ {
		name := fmt.Sprintf("/testbed/pkg/mod%d.py", s%5)
		start := 1 + (s*97)%1900
		pred.Steps = append(pred.Steps, model.Step{Files: []string{name},
			Spans: []model.FileSpans{{File: name, Spans: []model.Interval{{Start: start, End: start + 60}}}}})
	}
	pred.Final = pred.Steps[len(pred.Steps)-1]
	pred.ModelPatch = "--- a/pkg/mod0.py\n+++ b/pkg/mod0.py\n@@ -120,2 +120,2 @@\n-x\n+y\n z\n"
	dir, commit := testkit.GitRepo(tb, files)
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return g, pred, tree
}

// BenchmarkScoreInstance scores one typical instance from a cold cache:
// blob reads, tree-sitter parses and metrics.
func BenchmarkScoreInstance(b *testing.B) {
	g, pred, tree := typicalInstance(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scoring.ResetDefsCache() // cold: parse every file again
		r := scoring.Score(g, pred, scoring.NewFileCache(tree), model.ContextBench)
		if r.Error != "" {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkScoreBatch500 scores 500 such instances on all cores, each with
// its own cold file cache, as a benchmark of distinct checkouts would; they
// share parses through the definitions cache, as instances of one
// repository at nearby commits do.
func BenchmarkScoreBatch500(b *testing.B) {
	batch500(b)
}

// BenchmarkScoreBatch500NoCache is the same batch with the definitions
// cache off: every instance parses its files, the bound for a batch whose
// files all differ.
func BenchmarkScoreBatch500NoCache(b *testing.B) {
	defer scoring.EnableDefsCache(scoring.EnableDefsCache(false))
	batch500(b)
}

func batch500(b *testing.B) {
	g, pred, tree := typicalInstance(b)
	instances := make([]scoring.Instance, 500)
	for i := range instances {
		instances[i] = scoring.Instance{Pred: pred, Gold: g}
	}
	batch := scoring.Batch{Checkouts: &distinctTrees{tree: tree}}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		scoring.ResetDefsCache()
		res, _ := batch.Run(instances)
		if res[499].Error != "" {
			b.Fatal(res[499].Error)
		}
	}
}

// distinctTrees gives every instance its own key for one tree, so each gets
// cold files, as instances of distinct checkouts do.
type distinctTrees struct {
	tree model.Tree
	n    atomic.Int64
}

func (d *distinctTrees) Key(_, _, _, _, _ string) (string, error) {
	return strconv.FormatInt(d.n.Add(1), 10), nil
}
func (d *distinctTrees) Open(string) (model.Tree, error) { return d.tree, nil }
func (d *distinctTrees) Release(string)                  {}
