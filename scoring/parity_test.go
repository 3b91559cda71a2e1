package scoring_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/unified"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

const vectors = "../testdata/testvectors"

// vectorRepo builds the vectors' tiny repository as a real git repository,
// so scoring reads blobs through go-git as it does for real runs.
func vectorRepo(t testing.TB) *scoring.FileCache {
	t.Helper()
	files := map[string]string{}
	root := filepath.Join(vectors, "repo")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		files[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dir, commit := testkit.GitRepo(t, files)
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	return scoring.NewFileCache(tree)
}

type vectorCase struct {
	Name     string          `json:"name"`
	Gold     json.RawMessage `json:"gold"`
	Pred     json.RawMessage `json:"pred"`
	Expected json.RawMessage `json:"expected"`
}

func loadCases(t testing.TB) []vectorCase {
	t.Helper()
	var doc struct {
		Cases []vectorCase `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(vectors, "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Cases
}

func readLines(t testing.TB, name string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectors, name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

func loadGold(t testing.TB, raw []byte) *model.Gold {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gold.json")
	if err := os.WriteFile(p, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := gold.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	all := set.All()
	if len(all) != 1 {
		t.Fatalf("gold rows = %d, want 1", len(all))
	}
	return all[0]
}

func loadPred(t testing.TB, raw []byte) *model.Prediction {
	t.Helper()
	recs, err := unified.Parse(raw, "pred.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Err != nil {
		t.Fatalf("pred records = %+v", recs)
	}
	return &recs[0].Pred
}

// TestParityCases: every case in cases.json scores to exactly the line the
// reference evaluator wrote (cases_expected.jsonl is json.dumps of each
// case's expected result).
func TestParityCases(t *testing.T) {
	files := vectorRepo(t)
	cases := loadCases(t)
	want := readLines(t, "cases_expected.jsonl")
	if len(want) != len(cases) {
		t.Fatalf("%d expected lines for %d cases", len(want), len(cases))
	}
	for i, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := scoring.Score(loadGold(t, c.Gold), loadPred(t, c.Pred), files, model.ContextBench)
			got := string(scoring.AppendResultJSON(nil, &r, model.ContextBench))
			if got != want[i] {
				t.Errorf("result differs\n got: %s\nwant: %s", got, want[i])
			}
		})
	}
}

// TestParityAggregate: TV1, TV3 and a missing_gold row aggregate to the
// upstream dict and the upstream stderr block, byte for byte.
func TestParityAggregate(t *testing.T) {
	files := vectorRepo(t)
	byName := map[string]vectorCase{}
	for _, c := range loadCases(t) {
		byName[c.Name] = c
	}
	var instances []scoring.Instance
	for _, name := range []string{"TV1", "TV3"} {
		c := byName[name]
		instances = append(instances, scoring.Instance{Pred: loadPred(t, c.Pred), Gold: loadGold(t, c.Gold)})
	}
	instances = append(instances, scoring.Instance{Pred: &model.Prediction{InstanceID: "nope__nope-1"}})
	batch := scoring.Batch{Checkouts: scoring.OneTree{Tree: files.Tree()}}
	results, _ := batch.Run(instances)
	if results[2].Error != scoring.ErrMissingGold {
		t.Fatalf("third result error = %q, want missing_gold", results[2].Error)
	}
	agg := scoring.Summarize(results)
	if got, want := string(scoring.AppendAggregateJSON(nil, &agg)), readLines(t, "aggregate_expected.json")[0]; got != want {
		t.Errorf("aggregate\n got: %s\nwant: %s", got, want)
	}
	var buf bytes.Buffer
	scoring.WriteSummary(&buf, agg)
	want, _ := os.ReadFile(filepath.Join(vectors, "aggregate_summary_expected.txt"))
	if buf.String() != string(want) {
		t.Errorf("summary\n got: %q\nwant: %q", buf.String(), want)
	}
}

// TestBatchKeepsOrderAndErrors: results come back in input order whatever
// the worker count, and a bad record is its own error row.
func TestBatchKeepsOrderAndErrors(t *testing.T) {
	files := vectorRepo(t)
	c := loadCases(t)[0]
	g := loadGold(t, c.Gold)
	var instances []scoring.Instance
	for i := 0; i < 40; i++ {
		p := *loadPred(t, c.Pred)
		p.InstanceID = "id-" + string(rune('A'+i%26)) + strings.Repeat("x", i)
		in := scoring.Instance{Pred: &p, Gold: g}
		if i == 7 {
			in.Err = os.ErrInvalid
		}
		instances = append(instances, in)
	}
	for _, workers := range []int{1, 3, 8} {
		res, _ := scoring.Batch{Checkouts: scoring.OneTree{Tree: files.Tree()}, Workers: workers}.Run(instances)
		for i, r := range res {
			if r.InstanceID != instances[i].Pred.InstanceID {
				t.Fatalf("workers=%d: result %d is %q, want %q", workers, i, r.InstanceID, instances[i].Pred.InstanceID)
			}
			if (i == 7) != (r.Error == scoring.ErrBadPrediction) {
				t.Fatalf("workers=%d: result %d error %q", workers, i, r.Error)
			}
		}
	}
}

// TestParityWithRememberedSteps: a cache that keeps what each step came to
// (a followed run, scored again at every reading) scores every case as
// one that keeps nothing, the first time and when every step is kept
// already, under both semantics: the reference's bytes for contextbench.
func TestParityWithRememberedSteps(t *testing.T) {
	plain, kept := vectorRepo(t), vectorRepo(t)
	kept.RememberSteps()
	cases := loadCases(t)
	want := readLines(t, "cases_expected.jsonl")
	for round := range 2 {
		for i, c := range cases {
			for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
				g, p := loadGold(t, c.Gold), loadPred(t, c.Pred)
				r := scoring.Score(g, p, kept, sem)
				got := string(scoring.AppendResultJSON(nil, &r, sem))
				ref := scoring.Score(g, loadPred(t, c.Pred), plain, sem)
				if w := string(scoring.AppendResultJSON(nil, &ref, sem)); got != w || sem == model.ContextBench && got != want[i] {
					t.Errorf("round %d, %s, %v: %s\nwant %s", round, c.Name, sem, got, w)
				}
			}
		}
	}
}

// A trajectory scored as it grows: each case's steps scored a prefix at a
// time through a cache that keeps steps goes on from the unions of the
// prefix before, and gives at every length the bytes of a cache that
// keeps nothing; a step changed in the middle starts over.
func TestTrajectoryGoesOnFromItsPrefix(t *testing.T) {
	plain, kept := vectorRepo(t), vectorRepo(t)
	kept.RememberSteps()
	for _, c := range loadCases(t) {
		g := loadGold(t, c.Gold)
		full := loadPred(t, c.Pred)
		for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
			score := func(p model.Prediction, what string) {
				t.Helper()
				got, want := scoring.Score(g, &p, kept, sem), scoring.Score(g, &p, plain, sem)
				if a, b := string(scoring.AppendResultJSON(nil, &got, sem)), string(scoring.AppendResultJSON(nil, &want, sem)); a != b {
					t.Errorf("%s, %v, %s:\n got %s\nwant %s", c.Name, sem, what, a, b)
				}
			}
			for k := 0; k <= len(full.Steps); k++ {
				p := *full
				p.Steps = full.Steps[:k]
				score(p, fmt.Sprintf("%d of %d steps", k, len(full.Steps)))
			}
			if len(full.Steps) > 1 {
				p := *full
				p.Steps = append([]model.Step{{Files: []string{"elsewhere.py"}}}, full.Steps[1:]...)
				score(p, "the first step changed")
			}
		}
	}
}

// The contexts the diagnosis reads of each ContextBench step, and of each
// lens's final, are those StepContext makes of them, whether the
// trajectory was scored whole or went on from a prefix scored before, the
// final's sets kept or not; a kept context of another step fails.
func TestContextBenchStepIsStepContext(t *testing.T) {
	kept := vectorRepo(t)
	kept.RememberSteps()
	for _, c := range loadCases(t) {
		g := loadGold(t, c.Gold)
		full := loadPred(t, c.Pred)
		for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
			for _, files := range []*scoring.FileCache{vectorRepo(t), kept} {
				for _, k := range []int{len(full.Steps) / 2, len(full.Steps)} {
					run := &model.Run{Prediction: *full}
					run.Prediction.Steps = full.Steps[:k]
					a := scoring.Analyze(run, g, files, sem)
					steps := run.Prediction.Steps
					if len(steps) == 0 {
						steps = []model.Step{run.Prediction.Final}
					}
					for j, raw := range steps {
						if got, want := a.ContextBenchStep(j, raw), a.StepContext(raw); !reflect.DeepEqual(got, want) {
							t.Errorf("%s, %v, %d steps, step %d:\n got %+v\nwant %+v", c.Name, sem, k, j+1, got, want)
						}
					}
					for l, ld := range a.Lenses {
						if got, want := ld.FinalContext, a.StepContext(ld.Final); !reflect.DeepEqual(got, want) {
							t.Errorf("%s, %v, %d steps, lens %d's final:\n got %+v\nwant %+v", c.Name, sem, k, l, got, want)
						}
					}
				}
			}
		}
	}
}
