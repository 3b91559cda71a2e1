package scoring_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// genRun generates a task, parses its trajectory and stores its repository
// in git, as trajscope view would find them.
func genRun(tb testing.TB, o benchgen.Options) (*model.Run, *model.Gold, model.Tree) {
	tb.Helper()
	t := benchgen.New(o)
	run, err := miniswe.Parse(t.ID+".traj.json", t.Traj)
	if err != nil {
		tb.Fatal(err)
	}
	dir, commit := testkit.GitRepo(tb, t.Files)
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return run, t.Gold, tree
}

// The scaling series: actions at 5 gold files of 2,000 lines, and gold files
// (of 2,000 lines) at 1,000 actions; each from cold caches (blob reads and
// tree-sitter parses included, as a first open pays) and warm (the files
// already read and parsed: the per-action work alone).
var (
	actionSizes = []int{100, 1000, 10000}
	goldSizes   = []int{1, 10, 100}
)

type runBench func(run *model.Run, g *model.Gold, files *scoring.FileCache) model.Result

func scaling(b *testing.B, bench runBench) {
	for _, cold := range []bool{true, false} {
		name := map[bool]string{true: "cold", false: "warm"}[cold]
		for _, n := range actionSizes {
			b.Run(fmt.Sprintf("%s/actions=%d", name, n), func(b *testing.B) {
				scaled(b, cold, bench, benchgen.Options{Actions: n, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
			})
		}
		for _, g := range goldSizes {
			b.Run(fmt.Sprintf("%s/gold=%d", name, g), func(b *testing.B) {
				scaled(b, cold, bench, benchgen.Options{Actions: 1000, GoldFiles: g, Lines: 2000, OtherFiles: 3})
			})
		}
	}
}

func scaled(b *testing.B, cold bool, bench runBench, o benchgen.Options) {
	run, g, tree := genRun(b, o)
	files := scoring.NewFileCache(tree)
	bench(run, g, files) // warm the files, untimed
	b.ReportAllocs()
	for b.Loop() {
		if cold {
			scoring.ResetDefsCache()
			files = scoring.NewFileCache(tree)
		}
		if r := bench(run, g, files); r.Error != "" {
			b.Fatal(r.Error)
		}
	}
}

// BenchmarkAnalyze is what opening a run in the explorer costs after
// parsing: both lenses scored and every action's view.
func BenchmarkAnalyze(b *testing.B) {
	scaling(b, func(run *model.Run, g *model.Gold, files *scoring.FileCache) model.Result {
		return scoring.Analyze(run, g, files, model.ContextBench).Lenses[model.LensContextBench].Result
	})
}

// BenchmarkScoreTraj is what trajscope score does per trajectory: the
// ContextBench lens only.
func BenchmarkScoreTraj(b *testing.B) {
	scaling(b, func(run *model.Run, g *model.Gold, files *scoring.FileCache) model.Result {
		return scoring.Score(g, &run.Prediction, files, model.ContextBench)
	})
}

// BenchmarkDisjointReads is the worst case for the cumulative unions: every
// step reads two new lines of one 3n-line file, so the union of what was
// read grows by one interval per step and never merges. The file is parsed
// before timing: this is Analyze's own work.
func BenchmarkDisjointReads(b *testing.B) {
	for _, n := range actionSizes {
		b.Run(fmt.Sprintf("steps=%d", n), func(b *testing.B) {
			file := benchgen.Python(3*n+10, 0)
			dir, commit := testkit.GitRepo(b, map[string]string{"big.py": file})
			tree, err := source.Open(dir, commit, nil)
			if err != nil {
				b.Fatal(err)
			}
			run := &model.Run{InstanceID: "disjoint"}
			for i := 0; i < n; i++ {
				s := 3*i + 1
				run.Actions = append(run.Actions, model.Action{Index: int32(i), Steps: []int{i},
					Reads: []model.ObservedRead{{File: "big.py", Kind: model.ReadRange, Start: s, End: s + 1}}})
				run.Prediction.Steps = append(run.Prediction.Steps, model.Step{Files: []string{"big.py"},
					Spans: []model.FileSpans{{File: "big.py", Spans: []model.Interval{{Start: s, End: s + 1}}}}})
			}
			run.Prediction.InstanceID = "disjoint"
			run.Prediction.Final = run.Prediction.Steps[n-1]
			g := &model.Gold{ID: "disjoint", Init: []model.GoldSpan{{File: "big.py", Start: 10, End: 3 * n}}}
			files := scoring.NewFileCache(tree)
			scoring.Analyze(run, g, files, model.ContextBench) // parse once, untimed
			b.ReportAllocs()
			for b.Loop() {
				a := scoring.Analyze(run, g, files, model.ContextBench)
				if a.Lenses[model.LensContextBench].Result.Error != "" {
					b.Fatal(a.Lenses[model.LensContextBench].Result.Error)
				}
			}
		})
	}
}

// BenchmarkMemory10000 loads and analyses the 10,000-action run and reports
// the heap it keeps (HeapInuse after a GC with the analysis alive) and what
// it allocated in total. Peak RSS of the binary is measured separately (see
// BENCHMARKS.md).
func BenchmarkMemory10000(b *testing.B) {
	t := benchgen.New(benchgen.Options{Actions: 10000, GoldFiles: 5, Lines: 2000, OtherFiles: 3})
	dir, commit := testkit.GitRepo(b, t.Files)
	var live, total float64
	for b.Loop() {
		scoring.ResetDefsCache()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		tree, err := source.Open(dir, commit, nil)
		if err != nil {
			b.Fatal(err)
		}
		run, err := miniswe.Parse(t.ID+".traj.json", t.Traj)
		if err != nil {
			b.Fatal(err)
		}
		a := scoring.Analyze(run, t.Gold, scoring.NewFileCache(tree), model.ContextBench)
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(a)
		live = float64(after.HeapInuse) - float64(before.HeapInuse)
		total = float64(after.TotalAlloc - before.TotalAlloc)
	}
	b.ReportMetric(live/(1<<20), "live-MB")
	b.ReportMetric(total/(1<<20), "alloc-MB")
}
