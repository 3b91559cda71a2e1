package parsers

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/agentless"
	"github.com/trajscope/trajscope/parsers/agentlessloc"
	"github.com/trajscope/trajscope/parsers/agentstackbench"
	"github.com/trajscope/trajscope/parsers/aider"
	"github.com/trajscope/trajscope/parsers/atif"
	"github.com/trajscope/trajscope/parsers/claudecode"
	"github.com/trajscope/trajscope/parsers/codex"
	"github.com/trajscope/trajscope/parsers/gemini"
	"github.com/trajscope/trajscope/parsers/goose"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/parsers/miniswev2"
	"github.com/trajscope/trajscope/parsers/opencode"
	"github.com/trajscope/trajscope/parsers/openhands"
	"github.com/trajscope/trajscope/parsers/prometheus"
	"github.com/trajscope/trajscope/parsers/qwencode"
	"github.com/trajscope/trajscope/parsers/sweagent"
	"github.com/trajscope/trajscope/parsers/unified"
	"github.com/trajscope/trajscope/testkit"
)

const (
	vectors = "../testdata/testvectors"
	shared  = "../../shared/data"
)

// fixture is a file and the format it must be detected as.
type fixture struct {
	path   string
	format string
	real   bool // third-party sample under shared/: skipped when absent
}

var fixtures = []fixture{
	{vectors + "/traj/owner__repo-1.traj.json", miniswe.Name, false},
	{vectors + "/traj/owner__repo-1.checkpoints.jsonl", sweagent.Name, false},
	{vectors + "/traj/owner__repo-1_traj.json", agentless.Name, false},
	{vectors + "/traj/owner__repo-1.log", prometheus.Name, false},
	{"testdata/preds.jsonl", Unified, false},
	{"miniswe/testdata/org__proj-1.traj.json", miniswe.Name, false},
	{"miniswe/testdata/fallback-1.traj.json", miniswe.Name, false},
	{"prometheus/testdata/edge-1.log", prometheus.Name, false},
	{"prometheus/testdata/noagg-1.log", prometheus.Name, false},
	{"agentless/testdata/edge-1_traj.json", agentless.Name, false},
	{"agentless/testdata/dictfiles-1_traj.json", agentless.Name, false},
	{shared + "/formats/mini-swe-agent-v1/django__django-12419.traj.json", miniswe.Name, true},
	{shared + "/formats/mini-swe-agent-v1/django__django-15104.traj.json", miniswe.Name, true},
	{shared + "/formats/mini-swe-agent-v1/pydata__xarray-4075.traj.json", miniswe.Name, true},
	{shared + "/formats/mini-swe-agent-v2/astropy__astropy-12907.traj.json", miniswev2.Name, true},
	{shared + "/formats/swe-agent/pallets__flask-5014.traj", sweagent.Name, true},
	{shared + "/formats/swe-agent/pallets__flask-5014.checkpoints.jsonl", sweagent.Name, true},
	{shared + "/formats/openhands/output.jsonl", openhands.Name, true},
	{shared + "/formats/agentless/loc_outputs-01.jsonl", agentlessloc.Name, true},
	{shared + "/formats/claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl", claudecode.Name, true},
	{shared + "/formats/claude-code/trajectory.json", atif.Name, true},
	{shared + "/formats/codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl", codex.Name, true},
	{"codex/testdata/rollout.jsonl", codex.Name, false},
	{shared + "/formats/openhands-v1/openagentsafety_gpt-4o_output.jsonl", openhands.Name, true},
	{shared + "/formats/openhands-export/openhands_trajectory.json", openhands.Name, true},
	{"openhands/testdata/v1-output.jsonl", openhands.Name, false},
	{"openhands/testdata/ui-export.json", openhands.Name, false},
	{shared + "/formats/atif-terminus2/trajectory.json", atif.Name, true},
	{"atif/testdata/terminus/trajectory.json", atif.Name, false},
	{"atif/testdata/list.json", atif.Name, false},
	{shared + "/formats/aider/0202alcc-luvatrix.aider.chat.history.md", aider.Name, true},
	{"aider/testdata/proj.aider.chat.history.md", aider.Name, false},
	{shared + "/formats/agentstackbench/codex-gpt-5.4__django__django-11163.json", agentstackbench.Name, true},
	{"agentstackbench/testdata/page.json", agentstackbench.Name, false},
	{"codex/testdata/legacy.jsonl", codex.Name, false},
	{"codex/testdata/exec.jsonl", codex.Name, false},
	{shared + "/contextbench/sample_trajectories_miniswe_qwen25_32b/preds_Verified.jsonl", Unified, true},
	{"gemini/testdata/chats/session-2026-04-01T00-00-s-main.jsonl", gemini.Name, false},
	{shared + "/formats/gemini-cli/entireio-cli__ckpt-ab2b9748b105-0.full.jsonl", gemini.Name, true},
	{"qwencode/testdata/session.jsonl", qwencode.Name, false},
	{shared + "/formats/qwen-code/real_session_v0_21_14.jsonl", qwencode.Name, true},
	{"goose/testdata/export.json", goose.Name, false},
	{shared + "/formats/goose/real_export_v1_46_0.json", goose.Name, true},
	{"opencode/testdata/export.json", opencode.Name, false},
	{"codex/testdata/sessions/2026/07/01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl", codex.Name, false},
	{shared + "/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl", claudecode.Name, true},
}

func present(t *testing.T, f fixture) bool {
	t.Helper()
	if _, err := os.Stat(f.path); err != nil {
		if f.real {
			return false
		}
		t.Fatalf("missing fixture %s", f.path)
	}
	return true
}

// copyAs copies src into dir under a new name.
func copyAs(t *testing.T, src, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, name)
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestDetect(t *testing.T) {
	for _, f := range fixtures {
		if !present(t, f) {
			continue
		}
		got, err := Detect(f.path)
		if err != nil || got != f.format {
			t.Errorf("Detect(%s) = %q, %v; want %q", f.path, got, err, f.format)
		}
	}
}

// A renamed copy of every fixture is detected by its content.
func TestDetectRenamed(t *testing.T) {
	dir := t.TempDir()
	for i, f := range fixtures {
		if !present(t, f) {
			continue
		}
		for _, name := range []string{"renamed", "run.json", "run.txt"} {
			p := copyAs(t, f.path, dir, string(rune('a'+i))+"-"+name)
			got, err := Detect(p)
			if err != nil || got != f.format {
				t.Errorf("Detect(%s as %s) = %q, %v; want %q", f.path, name, got, err, f.format)
			}
		}
	}
}

func TestDetectErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "notes.txt")
	os.WriteFile(plain, []byte("just some notes\n"), 0o644)
	_, err := Detect(plain)
	if err == nil || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), miniswe.Name) || !strings.Contains(err.Error(), prometheus.Name) {
		t.Errorf("unknown content: %v", err)
	}
	lfs := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(lfs, []byte("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n"), 0o644)
	if _, err := Detect(lfs); err == nil || !strings.Contains(err.Error(), "Git LFS pointer") {
		t.Errorf("LFS pointer: %v", err)
	}
	if _, err := Detect(dir); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	if _, err := Detect(filepath.Join(dir, "missing.traj.json")); err == nil {
		t.Error("missing file: no error")
	}
	// Quoting the Prometheus markers inside JSON does not make a log.
	quoted := filepath.Join(dir, "q.json")
	os.WriteFile(quoted, []byte(`{"text": "--- BEGIN CONTEXT ---"}`), 0o644)
	if got, err := Detect(quoted); err == nil {
		t.Errorf("JSON quoting the markers detected as %q", got)
	}
}

// trajCases returns the trajfile_cases.json cases: file and loaded_pred.
func trajCases(t *testing.T) map[string]*jsontree.Value {
	b, err := os.ReadFile(filepath.Join(vectors, "trajfile_cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsontree.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsontree.Value{}
	list, _ := v.Lookup("cases")
	for _, c := range list.Arr {
		f, _ := c.Lookup("trajectory_file")
		want, _ := c.Lookup("loaded_pred")
		out[f.Str] = want
	}
	if len(out) != 4 {
		t.Fatalf("%d cases, want 4", len(out))
	}
	return out
}

// Load (detecting) and LoadPredictions give the reference's loaded
// prediction for every trajectory test vector, renamed copies included.
func TestLoadTrajfileCases(t *testing.T) {
	dir := t.TempDir()
	for file, want := range trajCases(t) {
		path := filepath.Join(vectors, file)
		runs, err := Load(path, "")
		if err != nil || len(runs) != 1 {
			t.Fatalf("Load(%s): %d runs, %v", file, len(runs), err)
		}
		for _, d := range predtest.Diff(runs[0].Prediction, want) {
			t.Errorf("Load %s: %s", file, d)
		}
		if runs[0].Path != path || runs[0].Format == "" {
			t.Errorf("Load %s: path %q format %q", file, runs[0].Path, runs[0].Format)
		}
		recs, err := LoadPredictions(path, "")
		if err != nil || len(recs) != 1 {
			t.Fatalf("LoadPredictions(%s): %d records, %v", file, len(recs), err)
		}
		for _, d := range predtest.Diff(recs[0].Pred, want) {
			t.Errorf("LoadPredictions %s: %s", file, d)
		}
		// A renamed copy (id from the stem or the recorded instance_id).
		renamed := copyAs(t, path, dir, "owner__repo-1.renamed")
		runs, err = Load(renamed, "")
		if err != nil || len(runs) != 1 {
			t.Fatalf("Load(renamed %s): %v", file, err)
		}
		if file == "traj/owner__repo-1.checkpoints.jsonl" {
			continue // SWE-agent's renamed-file id rule is its package's business
		}
		for _, d := range predtest.Diff(runs[0].Prediction, want) {
			t.Errorf("Load renamed %s: %s", file, d)
		}
	}
}

func TestLoadFormatOverride(t *testing.T) {
	dir := t.TempDir()
	p := copyAs(t, filepath.Join(vectors, "traj/owner__repo-1_traj.json"), dir, "owner__repo-1.data")
	runs, err := Load(p, agentless.Name)
	if err != nil || len(runs) != 1 || runs[0].Format != agentless.Name {
		t.Fatalf("override: %v %v", runs, err)
	}
	// The wrong override gives that format's error, not a silent guess.
	if _, err := Load(p, prometheus.Name); !errors.Is(err, prometheus.ErrNothingFound) {
		t.Errorf("wrong override: %v", err)
	}
	if _, err := Load(p, "no-such-format"); err == nil || !strings.Contains(err.Error(), "unknown format") || !strings.Contains(err.Error(), agentless.Name) {
		t.Errorf("unknown format: %v", err)
	}
	// Aliases.
	if runs, err := Load("testdata/preds.jsonl", "contextbench"); err == nil || len(runs) != 2 {
		t.Errorf("alias contextbench: %d runs, %v", len(runs), err)
	}
}

// Unified records: runs with only the prediction; the record upstream skips
// is dropped, the bad one reported with its line while the others load.
func TestLoadUnified(t *testing.T) {
	runs, err := Load("testdata/preds.jsonl", "")
	if len(runs) != 2 || runs[0].InstanceID != "owner__repo-1" || runs[1].InstanceID != "owner__repo-2" {
		t.Fatalf("runs %+v", runs)
	}
	for _, r := range runs {
		if r.Format != Unified || len(r.Actions) != 0 || r.Path != "testdata/preds.jsonl" {
			t.Errorf("run %+v", r)
		}
	}
	if err == nil || !strings.Contains(err.Error(), "preds.jsonl:5") || !strings.Contains(err.Error(), `missing "end"`) {
		t.Errorf("error %v", err)
	}
	recs, err := LoadPredictions("testdata/preds.jsonl", "")
	if err != nil || len(recs) != 4 || !recs[2].Skip || recs[3].Err == nil {
		t.Errorf("LoadPredictions: %d records, %v", len(recs), err)
	}
}

func TestLoadPredictionsReal(t *testing.T) {
	preds := shared + "/contextbench/sample_trajectories_miniswe_qwen25_32b/preds_Verified.jsonl"
	predtest.NeedFile(t, preds)
	recs, err := LoadPredictions(preds, "")
	if err != nil || len(recs) != 174 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	// A v2 .traj.json goes through the reference mini-swe-agent extractor
	// for --pred (no explore_context, no ```bash: no steps, no final).
	v2 := shared + "/formats/mini-swe-agent-v2/astropy__astropy-12907.traj.json"
	recs, err = LoadPredictions(v2, "")
	if err != nil || len(recs) != 1 || recs[0].Pred.InstanceID != "astropy__astropy-12907" || len(recs[0].Pred.Steps) != 0 || !recs[0].Pred.Final.Empty() {
		t.Errorf("v2 via load_pred: %+v %v", recs, err)
	}
	// OpenHands output.jsonl: one record per line.
	oh := shared + "/formats/openhands/output.jsonl"
	if recs, err := LoadPredictions(oh, ""); err != nil || len(recs) == 0 {
		t.Errorf("openhands: %d records, %v", len(recs), err)
	}
}

func TestLoadPredictionsRules(t *testing.T) {
	dir := t.TempDir()
	// A per-language OpenHands JSONL (c.jsonl): first record has history
	// and an instance id.
	oh := filepath.Join(dir, "c.jsonl")
	os.WriteFile(oh, []byte(`{"instance_id": "o__r-1", "history": [{"action": "read", "args": {"path": "/testbed/a.py", "view_range": [1, 2]}}], "test_result": {"git_patch": "p"}}`+"\n"), 0o644)
	recs, err := LoadPredictions(oh, "")
	if err != nil || len(recs) != 1 || recs[0].Pred.InstanceID != "o__r-1" || recs[0].Pred.ModelPatch != "p" {
		t.Errorf("openhands jsonl: %+v %v", recs, err)
	}
	// A JSON list of unified records.
	list := filepath.Join(dir, "preds.json")
	os.WriteFile(list, []byte(`[{"instance_id": "a", "traj_data": {}}, {"instance_id": "b", "traj_data": {}}]`), 0o644)
	if recs, err := LoadPredictions(list, ""); err != nil || len(recs) != 2 || recs[1].Pred.InstanceID != "b" {
		t.Errorf("json list: %+v %v", recs, err)
	}
	// A renamed trajectory is read by its format, not as a record.
	renamed := copyAs(t, filepath.Join(vectors, "traj/owner__repo-1.traj.json"), dir, "owner__repo-1.json")
	recs, err = LoadPredictions(renamed, "")
	if err != nil || len(recs) != 1 || len(recs[0].Pred.Steps) != 2 {
		t.Errorf("renamed trajectory: %+v %v", recs, err)
	}
	// Git LFS pointers.
	lfs := []byte("version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n")
	p := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(p, lfs, 0o644)
	if _, err := LoadPredictions(p, ""); err == nil || !strings.Contains(err.Error(), "git lfs pull") {
		t.Errorf("LFS: %v", err)
	}
	// ...unless it is verified output with an llm_completions sibling.
	out := filepath.Join(dir, "verified", "output")
	comp := filepath.Join(out, "llm_completions", "o__r-2")
	os.MkdirAll(comp, 0o755)
	os.WriteFile(filepath.Join(comp, "001.json"), []byte(`{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"function": {"name": "str_replace_editor", "arguments": "{\"command\": \"view\", \"path\": \"/workspace/r/a.py\", \"view_range\": [3, 4]}"}}]}]}`), 0o644)
	ptr := filepath.Join(out, "output.jsonl")
	os.WriteFile(ptr, lfs, 0o644)
	recs, err = LoadPredictions(ptr, "")
	if err != nil || len(recs) != 1 || recs[0].Pred.InstanceID != "o__r-2" {
		t.Errorf("LFS with llm_completions: %+v %v", recs, err)
	}
	// Directories are not --pred input.
	if _, err := LoadPredictions(dir, ""); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	// Content nobody claims is read as unified records and fails clearly.
	junk := filepath.Join(dir, "junk.txt")
	os.WriteFile(junk, []byte("not json"), 0o644)
	if _, err := LoadPredictions(junk, ""); err == nil || !strings.Contains(err.Error(), "junk.txt") || !strings.Contains(err.Error(), "tried "+strings.Join(Formats(), ", ")) {
		t.Errorf("junk: %v", err)
	}
	// A forced format.
	if recs, err := LoadPredictions(filepath.Join(vectors, "traj/owner__repo-1.log"), prometheus.Name); err != nil || len(recs) != 1 {
		t.Errorf("forced: %v", err)
	}
}

// Convert writes the records in input order; the output reads back as the
// reference's loaded predictions.
func TestConvert(t *testing.T) {
	want := trajCases(t)
	var buf bytes.Buffer
	n, errs := Convert([]string{filepath.Join(vectors, "traj"), "testdata/preds.jsonl"}, ConvertOptions{}, &buf)
	// The bad record of preds.jsonl is reported; the skipped one is silent.
	// The five records of one instance are written, with a warning.
	if n != 6 || len(errs) != 2 || !strings.Contains(errs[0].Error(), "preds.jsonl:5") {
		t.Fatalf("n=%d errs=%v", n, errs)
	}
	if w, ok := errs[1].(Warning); !ok || !strings.Contains(string(w), `instance "owner__repo-1" appears 5 times`) {
		t.Errorf("duplicate ids: %v", errs[1])
	}
	recs, err := unified.Parse(buf.Bytes(), "out.jsonl")
	if err != nil || len(recs) != 6 {
		t.Fatalf("read back: %d, %v", len(recs), err)
	}
	// Directory files in name order, then the next path.
	order := []string{"traj/owner__repo-1.checkpoints.jsonl", "traj/owner__repo-1.log", "traj/owner__repo-1.traj.json", "traj/owner__repo-1_traj.json"}
	for i, f := range order {
		for _, d := range predtest.Diff(recs[i].Pred, want[f]) {
			t.Errorf("record %d (%s): %s", i, f, d)
		}
	}
	if recs[4].Pred.InstanceID != "owner__repo-1" || recs[5].Pred.InstanceID != "owner__repo-2" {
		t.Errorf("unified records: %q %q", recs[4].Pred.InstanceID, recs[5].Pred.InstanceID)
	}
}

func TestConvertRecursive(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	os.MkdirAll(sub, 0o755)
	copyAs(t, filepath.Join(vectors, "traj/owner__repo-1.log"), dir, "x.log")
	copyAs(t, filepath.Join(vectors, "traj/owner__repo-1_traj.json"), sub, "y_traj.json")
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("# notes\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "inst.pred"), []byte(`{"instance_id": "i", "model_patch": null}`), 0o644)
	os.WriteFile(filepath.Join(sub, "broken.traj.json"), []byte(`{"messages": [`), 0o644)

	var buf bytes.Buffer
	n, errs := Convert([]string{dir}, ConvertOptions{}, &buf)
	if n != 1 || len(errs) != 0 {
		t.Errorf("non-recursive: n=%d errs=%v", n, errs)
	}
	buf.Reset()
	n, errs = Convert([]string{dir}, ConvertOptions{Recursive: true}, &buf)
	if n != 2 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.traj.json") {
		t.Errorf("recursive: n=%d errs=%v", n, errs)
	}
	// A missing path is an error; the rest still converts.
	buf.Reset()
	n, errs = Convert([]string{filepath.Join(dir, "nope.log"), filepath.Join(dir, "x.log")}, ConvertOptions{}, &buf)
	if n != 1 || len(errs) != 1 {
		t.Errorf("missing path: n=%d errs=%v", n, errs)
	}
}

// Every real sample loads without error through detection.
func TestLoadReal(t *testing.T) {
	for _, f := range fixtures {
		if !f.real || !present(t, f) {
			continue
		}
		runs, err := Load(f.path, "")
		if err != nil || len(runs) == 0 {
			t.Errorf("Load(%s): %d runs, %v", f.path, len(runs), err)
			continue
		}
		if f.format != Unified {
			acts := 0
			for _, r := range runs {
				acts += len(r.Actions)
			}
			if acts == 0 && f.format != agentlessloc.Name {
				t.Errorf("%s: no actions", f.path)
			}
		}
	}
}

func TestFormats(t *testing.T) {
	names := Formats()
	for _, want := range []string{Unified, miniswe.Name, miniswev2.Name, sweagent.Name, openhands.Name, agentless.Name, agentlessloc.Name, prometheus.Name, claudecode.Name, atif.Name, codex.Name, aider.Name, agentstackbench.Name} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("Formats() lacks %q", want)
		}
	}
}

func FuzzDetect(f *testing.F) {
	for _, fx := range fixtures {
		if b, err := os.ReadFile(fx.path); err == nil && len(b) < 1<<16 {
			f.Add(b, filepath.Base(fx.path))
		}
	}
	f.Fuzz(func(t *testing.T, b []byte, name string) {
		defer testkit.FuzzBudget(t)()
		name = filepath.Base(strings.ReplaceAll(name, "\x00", ""))
		if name == "." || name == "/" || name == "" || name == ".." {
			name = "x"
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return
		}
		format, err := Detect(p)
		if err != nil {
			return
		}
		runs, err := Load(p, format)
		for _, r := range runs {
			checkRun(t, r)
		}
		_ = err
		LoadPredictions(p, "")
	})
}

func checkRun(t *testing.T, r model.Run) {
	for _, a := range r.Actions {
		for _, k := range a.Steps {
			if k < 0 || k >= len(r.Prediction.Steps) {
				t.Fatalf("action links step %d of %d", k, len(r.Prediction.Steps))
			}
		}
	}
}

// Convert escapes the runes a terminal acts on or a reader cannot see, as
// score does, and the record still parses to the same instance id and
// patch; plain non-ASCII stays raw, as upstream writes it.
func TestConvertEscapesInvisibleRunes(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, raw, escaped string
	}{
		{"c1", "\u009b31m", `\u009b`},
		{"del", "a\x7fb", `\u007f`},
		{"bidi", "x\u202ey", `\u202e`},
		{"zero width", "x\u200by", `\u200b`},
		{"separator", "x\u2028y", `\u2028`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := "owner__repo-" + tc.raw + "-é"
			rec, _ := json.Marshal(map[string]any{"instance_id": id, "model_patch": "diff " + tc.raw,
				"traj_data": map[string]any{"pred_steps": []any{}, "pred_files": []string{"a.py"}, "pred_spans": map[string]any{}}})
			in := filepath.Join(dir, "in.jsonl")
			os.WriteFile(in, append(rec, '\n'), 0o644)
			var buf bytes.Buffer
			if n, errs := Convert([]string{in}, ConvertOptions{}, &buf); n != 1 || len(errs) != 0 {
				t.Fatalf("n=%d errs=%v", n, errs)
			}
			out := buf.String()
			if strings.Contains(out, tc.raw) || strings.Count(out, tc.escaped) != 2 || !strings.Contains(out, "-é") {
				t.Fatalf("not escaped (want %s twice, é raw): %q", tc.escaped, out)
			}
			recs, err := unified.Parse([]byte(out), "out.jsonl")
			if err != nil || len(recs) != 1 || recs[0].Pred.InstanceID != id || recs[0].Pred.ModelPatch != "diff "+tc.raw {
				t.Fatalf("read back: %v %+v", err, recs)
			}
		})
	}
}

// A folder holding a trajectory and its continuation lists one run: the
// continuation is read with the trajectory it continues.
func TestWalkSkipsContinuations(t *testing.T) {
	got, errs := Walk("atif/testdata/terminus", false)
	if len(errs) > 0 || len(got) != 1 || filepath.Base(got[0]) != "trajectory.json" {
		t.Errorf("Walk = %v, %v; want trajectory.json alone", got, errs)
	}
}

// A folder holding a session with its sub-agents' files lists the session
// alone: the sub-agents' files are part of its run, never runs of their own
// (Claude Code's subagents/, Gemini CLI's per-session folder, Codex's
// spawned rollouts beside their parent's).
func TestWalkSessionsOnce(t *testing.T) {
	for dir, want := range map[string][]string{
		"claudecode/testdata/team": {"claudecode/testdata/team/sess-t.jsonl"},
		"gemini/testdata/chats":    {"gemini/testdata/chats/session-2026-04-01T00-00-s-main.jsonl"},
		"codex/testdata/sessions/2026/07/01": {
			"codex/testdata/sessions/2026/07/01/rollout-2026-07-01T10-00-00-44444444-4444-4444-8444-444444444444.jsonl",
			"codex/testdata/sessions/2026/07/01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl",
		},
	} {
		got, errs := Walk(dir, true)
		if len(errs) > 0 || !slices.Equal(got, want) {
			t.Errorf("Walk(%s) = %q (%v), want %q", dir, got, errs, want)
		}
	}
}

// On the real sessions, every tool call is an action: an independent count
// (encoding/json over the file: tool_use blocks of the lead's messages and
// of the sub-agents' progress records; Gemini toolCalls; Qwen
// functionCalls; Goose toolRequests) equals the actions read, and the
// reader understood everything.
func TestRealSessionsWhole(t *testing.T) {
	count := map[string]func([]byte) int{
		"claude": func(b []byte) int {
			n := 0
			for _, l := range bytes.Split(b, []byte("\n")) {
				var r struct {
					Type    string
					Message struct{ Content json.RawMessage }
					Data    struct {
						Type    string
						Message struct {
							Message struct{ Content json.RawMessage }
						}
					}
				}
				if json.Unmarshal(l, &r) != nil {
					continue
				}
				c := r.Message.Content
				if r.Type == "progress" && r.Data.Type == "agent_progress" {
					c = r.Data.Message.Message.Content
				} else if r.Type != "assistant" {
					continue
				}
				var blocks []struct{ Type string }
				json.Unmarshal(c, &blocks)
				for _, bl := range blocks {
					if bl.Type == "tool_use" {
						n++
					}
				}
			}
			return n
		},
		"gemini": func(b []byte) int {
			var d struct {
				Messages []struct{ ToolCalls []json.RawMessage }
			}
			json.Unmarshal(b, &d)
			n := 0
			for _, m := range d.Messages {
				n += len(m.ToolCalls)
			}
			return n
		},
		"calls": func(b []byte) int {
			return bytes.Count(b, []byte(`"functionCall"`)) + bytes.Count(b, []byte(`"type": "toolRequest"`))
		},
	}
	for _, c := range []struct {
		file, how string
		want      int
	}{
		{"claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl", "claude", 236},
		{"claude-code-subagents/entireio-cli__ckpt-78332696ed94-0.full.jsonl", "claude", 167},
		{"gemini-cli/entireio-cli__ckpt-ab2b9748b105-0.full.jsonl", "gemini", 9},
		{"qwen-code/real_session_v0_21_14.jsonl", "calls", 1},
		{"goose/real_export_v1_46_0.json", "calls", 2},
	} {
		p := shared + "/formats/" + c.file
		b, err := os.ReadFile(p)
		if err != nil {
			t.Skip("no ../shared")
		}
		if n := count[c.how](b); n != c.want {
			t.Errorf("%s: the independent count is %d, want %d", c.file, n, c.want)
		}
		runs, err := Load(p, "")
		if err != nil || len(runs) != 1 {
			t.Fatalf("%s: %d runs, %v", c.file, len(runs), err)
		}
		if n := len(runs[0].Actions); n != c.want || len(runs[0].Unread) > 0 || len(runs[0].Warnings) > 0 {
			t.Errorf("%s: %d actions, want %d; unread %v; warnings %v", c.file, n, c.want, runs[0].Unread, runs[0].Warnings)
		}
		if c.how != "claude" {
			continue
		}
		// Mutated: a record type and a tool nobody knows, and a corrupt
		// line, are named, and the rest still reads.
		mut := filepath.Join(t.TempDir(), filepath.Base(p))
		extra := "\n" + `{"type":"hologram","sessionId":"x"}` + "\n" +
			`{"type":"assistant","message":{"id":"zz","content":[{"type":"tool_use","id":"zz1","name":"Teleport","input":{}}]}}` + "\n{oops\n"
		os.WriteFile(mut, append(b, extra...), 0o644)
		runs, err = Load(mut, "")
		if err != nil || len(runs[0].Actions) != c.want+1 || !reflect.DeepEqual(runs[0].Unread, map[string]int{"record:hologram": 1, "tool:Teleport": 1}) || len(runs[0].Warnings) != 1 {
			t.Errorf("%s mutated: %v; unread %v; warnings %q", c.file, err, runs[0].Unread, runs[0].Warnings)
		}
	}
}
