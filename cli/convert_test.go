package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

const sharedData = "../../shared/data"

// TestConvertRealMiniSWE: `trajscope convert` on the three real
// mini-swe-agent v1 runs gives the traj_data and model_patch that the
// upstream converter wrote for them in preds_Verified.jsonl.
func TestConvertRealMiniSWE(t *testing.T) {
	dir := filepath.Join(sharedData, "formats", "mini-swe-agent-v1")
	preds := filepath.Join(sharedData, "contextbench", "sample_trajectories_miniswe_qwen25_32b", "preds_Verified.jsonl")
	if _, err := os.Stat(preds); err != nil {
		t.Skip("../shared/data not present")
	}
	upstream := map[string]map[string]json.RawMessage{}
	f, err := os.Open(preds)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var rec map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		var id string
		json.Unmarshal(rec["instance_id"], &id)
		upstream[id] = rec
	}
	ids := []string{"django__django-12419", "django__django-15104", "pydata__xarray-4075"}
	var args []string
	for _, id := range ids {
		args = append(args, filepath.Join(dir, id+".traj.json"))
	}
	out, errs, code := run(t, append([]string{"convert"}, args...)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("%d records, want %d", len(lines), len(ids))
	}
	for i, line := range lines {
		var got map[string]json.RawMessage
		if err := json.Unmarshal([]byte(line), &got); err != nil {
			t.Fatal(err)
		}
		want, ok := upstream[ids[i]]
		if !ok {
			t.Fatalf("%s not in preds_Verified.jsonl", ids[i])
		}
		for _, key := range []string{"instance_id", "traj_data", "model_patch"} {
			var g, w any
			json.Unmarshal(got[key], &g)
			json.Unmarshal(want[key], &w)
			if !reflect.DeepEqual(g, w) {
				t.Errorf("%s: %s differs from the upstream converter's", ids[i], key)
			}
		}
	}
}

// A file named on the command line that holds no run or record is an
// error naming it (it was "0 records written" and exit 0).
func TestConvertNamedFileOfNoKnownShape(t *testing.T) {
	p := filepath.Join(t.TempDir(), "unknown.json")
	os.WriteFile(p, []byte(`{"foo": 1}`), 0o644)
	code, out, errs := exec(t, "convert", p, "-o", "-")
	if code != exitRuntime || out != "" || !strings.Contains(errs, p+": no runs or prediction records") {
		t.Errorf("exit %d, stdout %q, stderr %s", code, out, errs)
	}
}

// An ATIF trajectory named beside its continuation file is one run: one
// record (the continuation is read with it, and says so), one list row.
func TestContinuationNamedBesideItsTrajectory(t *testing.T) {
	dir := filepath.Join(sharedData, "formats", "atif-terminus2")
	main, cont := filepath.Join(dir, "trajectory.json"), filepath.Join(dir, "trajectory.cont-1.json")
	if _, err := os.Stat(cont); err != nil {
		t.Skip("no shared data")
	}
	code, out, errs := exec(t, "convert", main, cont)
	if code != 0 || strings.Count(out, "\n") != 1 || !strings.Contains(errs, "read as the continuation of") || !strings.Contains(errs, "1 records written") {
		t.Errorf("convert: exit %d, %d records\n%s", code, strings.Count(out, "\n"), errs)
	}
	code, out, errs = exec(t, "view", main, cont, "--json")
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 1 {
		t.Errorf("view: exit %d, %d rows (%v): %s", code, len(rows), err, errs)
	}
}

// A gold file given to convert as runs (ContextBench gold, LocAgent ground
// truth) is refused with what it is, not written as empty records.
func TestConvertRefusesGoldFiles(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, text, key string }{
		{"gold.jsonl", `{"inst_id": "a__b-1", "gold_ctx": [{"file": "a.py", "start_line": 1, "end_line": 2}]}` + "\n", "gold_ctx"},
		{"gt_location.jsonl", `{"instance_id": "a__b-1", "file_changes": [{"file": "a.py", "changes": {}}]}` + "\n", "file_changes"},
	} {
		f := write(t, filepath.Join(dir, c.name), c.text)
		code, out, errs := exec(t, "convert", f)
		if code != 1 || out != "" || !strings.Contains(errs, `a gold file (its records hold "`+c.key+`"`) || !strings.Contains(errs, "--gold") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", c.name, code, out, errs)
		}
	}
}
