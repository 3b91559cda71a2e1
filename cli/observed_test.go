package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// observedTraj is a mini-swe-agent v1 run of the vector repository
// (owner__repo-1; gold mod.py 4-5 and util.py 1-2). Upstream's one step is
// the explore_context echo; what it displayed is mod.py whole (cat, no line
// numbers), util.py line 2 (nl -ba) and mod.py line 4 (grep -n).
func observedTraj(t *testing.T, dir string) string {
	mod, err := os.ReadFile(filepath.Join(exRepo, "pkg", "mod.py"))
	if err != nil {
		t.Fatal(err)
	}
	return write(t, filepath.Join(dir, "owner__repo-1.traj.json"), miniTraj(
		[]string{exploreEcho("pkg/mod.py", 4, 5), "cat pkg/mod.py", "nl -ba pkg/util.py | sed -n '2,2p'", "grep -n alpha pkg/mod.py", "ls pkg"},
		[]string{"ok", strings.TrimSuffix(string(mod), "\n"), "     2\tY = 2", "4:def alpha(x):", "mod.py\nutil.py"},
		"File: pkg/mod.py\nLines: 4-5"))
}

// scoreRow is the parts of a score row the tests compare.
type scoreRow struct {
	NumSteps   int `json:"num_steps"`
	Trajectory struct {
		Steps []struct {
			Step     int                `json:"step"`
			Coverage map[string]float64 `json:"coverage"`
		} `json:"steps"`
	} `json:"trajectory"`
	Final map[string]struct {
		Coverage  float64 `json:"coverage"`
		Precision float64 `json:"precision"`
	} `json:"final"`
}

func decodeRow(t *testing.T, s string) scoreRow {
	t.Helper()
	var r scoreRow
	if err := json.Unmarshal([]byte(strings.SplitN(strings.TrimSpace(s), "\n", 2)[0]), &r); err != nil {
		t.Fatalf("%v: %s", err, s)
	}
	return r
}

// TestScoreObservedLensMatchesView: on a run read against a git
// repository, `score --lens observed` gives per step the coverage `view
// --lens observed --json` gives after the action that made the step, and
// the same final figures; the default lens scores upstream's one step.
func TestScoreObservedLensMatchesView(t *testing.T) {
	repo, goldFile := gitVectorRepo(t)
	traj := observedTraj(t, t.TempDir())
	out, errs, code := run(t, "score", "--gold", goldFile, "--pred", traj, "--repo", repo)
	if code != 0 || decodeRow(t, out).NumSteps != 1 {
		t.Fatalf("default lens: exit %d, %s %s", code, out, errs)
	}
	out, errs, code = run(t, "score", "--gold", goldFile, "--pred", traj, "--repo", repo, "--lens", "observed")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	row := decodeRow(t, out)
	if row.NumSteps != 3 || len(row.Trajectory.Steps) != 3 {
		t.Fatalf("observed lens: %d steps, want 3: %s", row.NumSteps, out)
	}
	// Gold lines: mod.py 4-5 and util.py 1-2. Step 1 (all of mod.py) covers
	// 2 of 4, step 2 adds util.py 2.
	if c := row.Trajectory.Steps[0].Coverage["line"]; c != 0.5 {
		t.Errorf("line coverage after step 1 = %v, want 0.5", c)
	}
	if c := row.Trajectory.Steps[1].Coverage["line"]; c != 0.75 {
		t.Errorf("line coverage after step 2 = %v, want 0.75", c)
	}

	vout, errs, code := run(t, "view", traj, "--gold", goldFile, "--repo", repo, "--lens", "observed", "--json")
	if code != 0 {
		t.Fatalf("view: exit %d: %s", code, errs)
	}
	var v struct {
		Actions []struct {
			Steps map[string]int `json:"steps_done"`
		} `json:"actions"`
		Lenses map[string]struct {
			NumSteps int                   `json:"num_steps"`
			Coverage []map[string]float64  `json:"coverage"`
			Final    map[string][2]float64 `json:"final_coverage_precision"`
		} `json:"lenses"`
	}
	if err := json.Unmarshal([]byte(vout), &v); err != nil {
		t.Fatal(err)
	}
	obs := v.Lenses["observed"]
	if obs.NumSteps != row.NumSteps {
		t.Errorf("view has %d observed steps, score %d", obs.NumSteps, row.NumSteps)
	}
	seen := map[int]bool{}
	for i, a := range v.Actions {
		k := a.Steps["observed"]
		if k == 0 || seen[k] {
			continue
		}
		seen[k] = true
		if !reflect.DeepEqual(obs.Coverage[i], row.Trajectory.Steps[k-1].Coverage) {
			t.Errorf("step %d: view %v, score %v", k, obs.Coverage[i], row.Trajectory.Steps[k-1].Coverage)
		}
	}
	if len(seen) != 3 {
		t.Errorf("view shows %d observed steps being made, want 3", len(seen))
	}
	for g, m := range row.Final {
		if obs.Final[g] != [2]float64{m.Coverage, m.Precision} {
			t.Errorf("final %s: view %v, score %v", g, obs.Final[g], m)
		}
	}
	// The JSON form (full analysis) scores the same row.
	jout, _, _ := run(t, "score", "--gold", goldFile, "--pred", traj, "--repo", repo, "--lens", "observed", "--format", "json")
	var doc struct{ Results []scoreRow }
	if err := json.Unmarshal([]byte(jout), &doc); err != nil || len(doc.Results) != 1 || !reflect.DeepEqual(doc.Results[0], row) {
		t.Errorf("--format json rows %+v (err %v), want %+v", doc.Results, err, row)
	}
}

// TestConvertObservedLens: without a repository the steps are read, as
// view reads them, against the tree rebuilt from what the run displayed
// (cat showed all of mod.py: lines 1-13); with one, views are resolved
// against it, and scoring those records gives exactly `score --lens
// observed` on the run. Each step keeps the action that made it (actions
// 2 to 4: the first displayed nothing).
func TestConvertObservedLens(t *testing.T) {
	repo, goldFile := gitVectorRepo(t)
	dir := t.TempDir()
	traj := observedTraj(t, dir)
	const head = `{"instance_id": "owner__repo-1", "traj_data": {"pred_steps": [`
	const tail = `], "pred_files": ["pkg/mod.py"], "pred_spans": {"pkg/mod.py": [{"type": "line", "start": 4, "end": 5}]}}, "model_patch": "", "step_actions": [2, 3, 4]}`
	cases := []struct {
		name  string
		args  []string
		steps string
	}{
		{"no repository", nil,
			`{"files": ["pkg/mod.py"], "spans": {"pkg/mod.py": [{"type": "line", "start": 1, "end": 13}]}}, ` +
				`{"files": ["pkg/util.py"], "spans": {"pkg/util.py": [{"type": "line", "start": 2, "end": 2}]}}, ` +
				`{"files": ["pkg/mod.py"], "spans": {"pkg/mod.py": [{"type": "line", "start": 4, "end": 4}]}}`},
		{"repository", []string{"--repo", repo, "--gold", goldFile},
			`{"files": ["pkg/mod.py"], "spans": {"pkg/mod.py": [{"type": "line", "start": 1, "end": 13}]}}, ` +
				`{"files": ["pkg/util.py"], "spans": {"pkg/util.py": [{"type": "line", "start": 2, "end": 2}]}}, ` +
				`{"files": ["pkg/mod.py"], "spans": {"pkg/mod.py": [{"type": "line", "start": 4, "end": 4}]}}`},
	}
	for _, c := range cases {
		out, errs, code := run(t, append([]string{"convert", traj, "--lens", "observed"}, c.args...)...)
		if want := head + c.steps + tail + "\n"; code != 0 || out != want {
			t.Errorf("%s: exit %d (%s)\n got %s\nwant %s", c.name, code, errs, out, want)
		}
	}

	recs := filepath.Join(dir, "observed.jsonl")
	if _, errs, code := run(t, "convert", traj, "--lens", "observed", "--repo", repo, "--gold", goldFile, "-o", recs); code != 0 {
		t.Fatalf("convert -o: %s", errs)
	}
	fromRecs, _, _ := run(t, "score", "--gold", goldFile, "--pred", recs, "--repo", repo)
	fromRun, _, _ := run(t, "score", "--gold", goldFile, "--pred", traj, "--repo", repo, "--lens", "observed")
	// The same figures; only the row scored under the observed lens says so.
	if !strings.Contains(fromRun, `, "lens": "observed"}`) {
		t.Errorf("observed row does not say its lens: %s", fromRun)
	}
	if fromRecs != strings.ReplaceAll(fromRun, `, "lens": "observed"`, "") || fromRun == "" {
		t.Errorf("scored records:\n%s\nscored run under the observed lens:\n%s", fromRecs, fromRun)
	}
}

// TestConvertObservedErrors: repository flags need the observed lens; a
// cache without gold cannot name a commit, which each run reports before it
// is read, as view reads it, from what it displayed.
func TestConvertObservedErrors(t *testing.T) {
	dir := t.TempDir()
	traj := observedTraj(t, dir)
	for _, c := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"convert", traj, "--repo", exRepo}, 2, "serve --lens observed only"},
		{[]string{"convert", traj, "--lens", "seen"}, 2, `unknown lens "seen"`},
		{[]string{"convert", traj, "--lens", "observed", "--repo", exRepo, "--cache", dir}, 2, "alternatives"},
		{[]string{"convert", traj, "--lens", "observed", "--cache", dir, "--no-clone"}, 0, "no commit (prediction and gold give none)): steps from the lines the run displayed"},
		{[]string{"score", "--gold", exGold, "--pred", traj, "--lens", "seen"}, 2, `unknown lens "seen"`},
	} {
		_, errs, code := run(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args[1:], code, errs, c.code, c.msg)
		}
	}
}

// TestScoreObservedV2: upstream reads no context from a mini-swe-agent v2
// run (an error row); the observed lens scores what it displayed, mod.py
// 4-5, whose union is the final context, and the row's F1 is its own.
func TestScoreObservedV2(t *testing.T) {
	pred := write(t, filepath.Join(t.TempDir(), "owner__repo-1.traj.json"), v2Run)
	out, _, code := run(t, "score", "--gold", exGold, "--pred", pred, "--repo", exRepo, "--lens", "observed", "--format", "json")
	var doc struct {
		Results []struct {
			scoreRow
			Error     string `json:"error"`
			Trajscope struct {
				F1 map[string]float64 `json:"f1"`
			} `json:"trajscope"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); code != 0 || err != nil || len(doc.Results) != 1 {
		t.Fatalf("exit %d, %v: %s", code, err, out)
	}
	r := doc.Results[0]
	// Gold: mod.py 4-5 and util.py 1-2; the run saw mod.py 4-5.
	if r.Error != "" || r.NumSteps != 1 || r.Final["line"].Coverage != 0.5 || r.Final["line"].Precision != 1 {
		t.Errorf("row %+v", r)
	}
	if f1 := r.Trajscope.F1["line"]; f1 < 0.666 || f1 > 0.667 {
		t.Errorf("line F1 = %v, want 2/3", f1)
	}
}
