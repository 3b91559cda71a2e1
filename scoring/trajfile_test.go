package scoring_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// TestParityTrajectoryFiles: each trajectory file of trajfile_cases.json,
// loaded as upstream load_pred does and scored on the vector repository (a
// real git repository), gives the upstream result line byte for byte.
func TestParityTrajectoryFiles(t *testing.T) {
	files := vectorRepo(t)
	var doc struct {
		Cases []struct {
			File string          `json:"trajectory_file"`
			Gold json.RawMessage `json:"gold"`
		} `json:"cases"`
	}
	b, err := os.ReadFile(filepath.Join(vectors, "trajfile_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	want := readLines(t, "trajfile_expected.jsonl")
	if len(want) != len(doc.Cases) || len(want) == 0 {
		t.Fatalf("%d expected lines for %d cases", len(want), len(doc.Cases))
	}
	for i, c := range doc.Cases {
		t.Run(filepath.Base(c.File), func(t *testing.T) {
			recs, err := parsers.LoadPredictions(filepath.Join(vectors, c.File), "")
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != 1 || recs[0].Err != nil {
				t.Fatalf("records: %+v", recs)
			}
			r := scoring.Score(loadGold(t, c.Gold), &recs[0].Pred, files, model.ContextBench)
			if got := string(scoring.AppendResultJSON(nil, &r, model.ContextBench)); got != want[i] {
				t.Errorf("result differs\n got: %s\nwant: %s", got, want[i])
			}
		})
	}
}

// TestRealTrajectoryFileAndLine is the reference's TV-R2: the real
// Qwen2.5-Coder run on django__django-12419 against its real gold row.
// File, line and EditLoc metrics depend only on the file existing with at
// least 642 lines (line metrics are not clamped upstream), so a stand-in
// file of 700 lines is enough; span and symbol values would need Django.
func TestRealTrajectoryFileAndLine(t *testing.T) {
	shared := filepath.Join("..", "..", "shared", "data")
	traj := filepath.Join(shared, "formats", "mini-swe-agent-v1", "django__django-12419.traj.json")
	parquet := filepath.Join(shared, "contextbench", "contextbench_verified_test.parquet")
	if _, err := os.Stat(traj); err != nil {
		t.Skip("../shared/data not present")
	}
	var stub []byte
	for i := 0; i < 700; i++ {
		stub = append(stub, "X = 1\n"...)
	}
	dir, commit := testkit.GitRepo(t, map[string]string{"django/conf/global_settings.py": string(stub)})
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, err := gold.Load(parquet)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := set.Get("django__django-12419")
	if !ok {
		t.Fatal("django__django-12419 not in the parquet")
	}
	recs, err := parsers.LoadPredictions(traj, "")
	if err != nil || len(recs) != 1 {
		t.Fatalf("load: %v %d", err, len(recs))
	}
	r := scoring.Score(g, &recs[0].Pred, scoring.NewFileCache(tree), model.ContextBench)
	if r.NumSteps != 9 {
		t.Errorf("num_steps = %d, want 9", r.NumSteps)
	}
	if got, want := r.Final.File, (model.Measure{Coverage: 1, Precision: 1, Intersection: 1, GoldSize: 1, PredSize: 1}); got != want {
		t.Errorf("final file = %+v, want %+v", got, want)
	}
	if got, want := r.Final.Line, (model.Measure{Coverage: 0, Precision: 0, Intersection: 0, GoldSize: 13, PredSize: 11}); got != want {
		t.Errorf("final line = %+v, want %+v", got, want)
	}
	if r.Trajectory.AUCCoverage.File != 1.0 || r.Trajectory.AUCCoverage.Line != 0.0 {
		t.Errorf("AUC = %+v", r.Trajectory.AUCCoverage)
	}
	if got := python.JSONFloat(r.Trajectory.Redundancy.File); got != "0.8888888888888888" {
		t.Errorf("file redundancy = %s", got)
	}
	if got := python.JSONFloat(r.Trajectory.Redundancy.Line); got != "0.12790697674418605" {
		t.Errorf("line redundancy = %s", got)
	}
	if want := (model.EditLoc{Recall: 1, Precision: 1, Intersection: 1, GoldSize: 13, PredSize: 1}); r.EditLoc == nil || *r.EditLoc != want {
		t.Errorf("editloc = %+v, want %+v", r.EditLoc, want)
	}
}
