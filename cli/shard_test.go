package cli

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/trajscope/trajscope/report"
)

// TestShardsConcatenateToTheWhole: for every N, the --out files of shards
// 1/N … N/N concatenated in order are the unsharded --out, byte for byte.
func TestShardsConcatenateToTheWhole(t *testing.T) {
	dir := t.TempDir()
	score := func(out string, extra ...string) string {
		t.Helper()
		args := append([]string{"score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", out}, extra...)
		if _, errs, code := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	whole := score(filepath.Join(dir, "whole.jsonl"))
	rows := strings.Count(whole, "\n")
	if rows < 3 {
		t.Fatalf("only %d rows: the test needs several", rows)
	}
	for n := 1; n <= rows+2; n++ { // more shards than rows: some are empty
		var cat strings.Builder
		for k := 1; k <= n; k++ {
			cat.WriteString(score(filepath.Join(dir, fmt.Sprintf("s%d-%d.jsonl", k, n)), "--shard", fmt.Sprintf("%d/%d", k, n)))
		}
		if cat.String() != whole {
			t.Errorf("%d shards concatenated differ from the whole:\n%s\nwant\n%s", n, cat.String(), whole)
		}
	}
}

func TestShardFlagErrors(t *testing.T) {
	for _, v := range []string{"0/3", "4/3", "1/0", "3", "a/b", "1/2/3", "-1/2", "/2", "", "288230376151711745/288230376151711745", "1000001/1000001", "99999999999999999999/99999999999999999999"} {
		args := []string{"score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--shard", v}
		_, errs, code := run(t, args...)
		if v == "" {
			if code != 0 {
				t.Errorf("--shard '': exit %d (means the whole batch): %s", code, errs)
			}
			continue
		}
		if code != exitUsage || !strings.Contains(errs, "--shard") {
			t.Errorf("--shard %q: exit %d, %q; want a usage error", v, code, errs)
		}
	}
}

// --shard auto as the README's Slurm array and Kubernetes Indexed Job run
// it, with the environment each scheduler gives its tasks: the shards
// concatenate to the whole, report reads them as one run of the input and
// says when one is missing or given twice, and outside both schedulers
// auto is a usage error.
func TestShardAutoFromScheduler(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"#SBATCH --array=0-7", "--shard auto --out results/shard-$SLURM_ARRAY_TASK_ID.jsonl",
		"completionMode: Indexed", "completions: 8", "--shard auto/8 --out /data/results/shard-$JOB_COMPLETION_INDEX.jsonl"} {
		if !strings.Contains(string(readme), w) {
			t.Errorf("the README's scheduler examples lack %q", w)
		}
	}
	dir := t.TempDir()
	whole := filepath.Join(dir, "whole.jsonl")
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--out", whole); code != 0 {
		t.Fatal(errs)
	}
	want, _ := os.ReadFile(whole)
	env := []string{"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP", "SLURM_ARRAY_TASK_COUNT", "JOB_COMPLETION_INDEX"}
	for _, sched := range []struct {
		name  string
		shard string
		task  func(i int) map[string]string
	}{
		// sbatch --array=0-7 (the README's array, over this small input: 3 of its 8 slices are empty).
		{"slurm", "auto", func(i int) map[string]string {
			return map[string]string{"SLURM_ARRAY_TASK_ID": fmt.Sprint(i), "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8", "SLURM_ARRAY_TASK_STEP": "1"}
		}},
		{"kubernetes", "auto/8", func(i int) map[string]string { return map[string]string{"JOB_COMPLETION_INDEX": fmt.Sprint(i)} }},
	} {
		t.Run(sched.name, func(t *testing.T) {
			var cat strings.Builder
			var files []string
			for i := 0; i < 8; i++ {
				for _, k := range env {
					t.Setenv(k, "")
				}
				for k, v := range sched.task(i) {
					t.Setenv(k, v)
				}
				out := filepath.Join(dir, fmt.Sprintf("%s-%d.jsonl", sched.name, i))
				if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--shard", sched.shard, "--out", out); code != 0 {
					t.Fatalf("task %d: exit %d: %s", i, code, errs)
				}
				b, _ := os.ReadFile(out)
				cat.Write(b)
				rec, err := os.ReadFile(out + ".shard.json")
				if err != nil || !strings.Contains(string(rec), fmt.Sprintf(`"k":%d,"n":8`, i+1)) {
					t.Fatalf("task %d: shard record %s (%v)", i, rec, err)
				}
				files = append(files, out)
			}
			if cat.String() != string(want) {
				t.Errorf("the shards concatenated differ from the whole")
			}
			for _, c := range []struct {
				name  string
				files []string
				warn  string
			}{
				{"all", files, ""},
				{"one missing", append(append([]string{}, files[:2]...), files[3:]...), "1 of 8 missing: 3/8"},
				{"one twice", append(append([]string{}, files...), files[5]), "6/8 given 2 times"},
			} {
				stdout, errs, code := run(t, append([]string{"report", "--format", "csv"}, c.files...)...)
				if code != 0 {
					t.Fatalf("%s: report exit %d: %s", c.name, code, errs)
				}
				if rows := strings.Count(strings.TrimSpace(stdout), "\n"); rows != 1 {
					t.Errorf("%s: report has %d rows, want the input's one:\n%s", c.name, rows, stdout)
				}
				if !strings.Contains(stdout, c.files[0]+", ") {
					t.Errorf("%s: the row is not named by its shards' files:\n%s", c.name, stdout)
				}
				if c.warn == "" && strings.Contains(errs, "warning") || c.warn != "" && !strings.Contains(errs, c.warn) {
					t.Errorf("%s: report says %q, want %q", c.name, errs, c.warn)
				}
			}
		})
	}
	for _, k := range env {
		t.Setenv(k, "")
	}
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", exPreds, "--repo", exRepo, "--shard", "auto"); code != exitUsage || !strings.Contains(errs, "neither a Slurm array") {
		t.Errorf("--shard auto outside a scheduler: exit %d: %s", code, errs)
	}
}

// The slice each scheduler's variables name, and the refusals.
func TestResolveShard(t *testing.T) {
	for _, c := range []struct {
		shard string
		env   map[string]string
		want  string // "" for a usage error
	}{
		{"2/5", nil, "2/5"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_COUNT": "8"}, "8/8"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "13", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, "4/4"},
		{"auto", map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, ""},
		{"auto/4", map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "8"}, ""},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "3"}, "4/4"},
		{"auto/4", map[string]string{"JOB_COMPLETION_INDEX": "4"}, ""},
		{"auto", map[string]string{"JOB_COMPLETION_INDEX": "0"}, ""},
		{"auto/x", map[string]string{"JOB_COMPLETION_INDEX": "0"}, ""},
		{"auto", nil, ""},
	} {
		got, err := resolveShard(c.shard, func(k string) string { return c.env[k] })
		if c.want == "" {
			var u usageError
			if !errors.As(err, &u) {
				t.Errorf("%s %v: %q, %v; want a usage error", c.shard, c.env, got, err)
			}
			continue
		}
		if got != c.want || err != nil {
			t.Errorf("%s %v: %q, %v; want %q", c.shard, c.env, got, err, c.want)
		}
	}
}

// Streamed inputs: the predictions gzip'd, zstd'd or on standard input
// score to the plain file's --out byte for byte; shards of a compressed
// file stream their slice, concatenate to the whole, and their records say
// which lines they hold; a folder's shards take their run files; what needs
// the predictions whole refuses a stream in one line.
func TestStreamedPredictions(t *testing.T) {
	dir := t.TempDir()
	plain, err := os.ReadFile(exPreds)
	if err != nil {
		t.Fatal(err)
	}
	gz := filepath.Join(dir, "preds.jsonl.gz")
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write(plain)
	w.Close()
	os.WriteFile(gz, b.Bytes(), 0o644)
	zst := filepath.Join(dir, "preds.jsonl.zst")
	enc, _ := zstd.NewWriter(nil)
	os.WriteFile(zst, enc.EncodeAll(plain, nil), 0o644)
	enc.Close()

	scoreOut := func(pred string, stdin string, extra ...string) string {
		t.Helper()
		out := filepath.Join(dir, fmt.Sprintf("out%d.jsonl", len(extra)+len(pred)))
		args := append([]string{"score", "--gold", exGold, "--pred", pred, "--repo", exRepo, "--out", out}, extra...)
		var o, e bytes.Buffer
		if code := Execute(args, Env{Stdin: strings.NewReader(stdin), Stdout: &o, Stderr: &e}); code != 0 {
			t.Fatalf("%s %v: exit %d: %s", pred, extra, code, e.String())
		}
		got, _ := os.ReadFile(out)
		return string(got)
	}
	whole := scoreOut(exPreds, "")
	for _, c := range []struct{ pred, stdin string }{{gz, ""}, {zst, ""}, {"-", string(plain)}} {
		if got := scoreOut(c.pred, c.stdin); got != whole {
			t.Errorf("--pred %s scores differently from the plain file:\n%s\nwant\n%s", c.pred, got, whole)
		}
	}
	lines := strings.Count(strings.TrimSpace(string(plain)), "\n") + 1
	var cat strings.Builder
	covered := 0
	for k := 1; k <= 2; k++ {
		out := filepath.Join(dir, fmt.Sprintf("gz-%d.jsonl", k))
		if _, errs, code := run(t, "score", "--gold", exGold, "--pred", gz, "--repo", exRepo, "--shard", fmt.Sprintf("%d/2", k), "--out", out); code != 0 {
			t.Fatalf("shard %d: %s", k, errs)
		}
		got, _ := os.ReadFile(out)
		cat.Write(got)
		var rec report.ShardRecord
		raw, _ := os.ReadFile(out + report.ShardSuffix)
		if err := json.Unmarshal(raw, &rec); err != nil || rec.Unit != "lines" || rec.Instances != lines || rec.To-rec.From != rec.Records || rec.From != covered+1 {
			t.Errorf("shard %d record %s (%v): want lines [%d, …) of %d", k, raw, err, covered+1, lines)
		}
		covered = rec.To - 1
	}
	if cat.String() != whole || covered != lines {
		t.Errorf("the gzip shards cover %d of %d lines; concatenated:\n%s\nwant\n%s", covered, lines, cat.String(), whole)
	}
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", "-", "--repo", exRepo, "--shard", "1/2"); code != exitUsage || !strings.Contains(errs, "not standard input") {
		t.Errorf("--shard over standard input: exit %d, %q", code, errs)
	}
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", gz, "--repo", exRepo, "--format", "json"); code != exitUsage || !strings.Contains(errs, "read a record at a time") || strings.Count(errs, "\n") != 1 {
		t.Errorf("--format json of a .gz: exit %d, %q", code, errs)
	}
}

// A folder's shards read only their run files, in the folder's order, and
// concatenate to the whole.
func TestFolderShards(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs")
	os.MkdirAll(runs, 0o755)
	traj, err := os.ReadFile("../testdata/testvectors/traj/owner__repo-1.traj.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i <= 5; i++ {
		os.WriteFile(filepath.Join(runs, fmt.Sprintf("owner__repo-%d.traj.json", i)), traj, 0o644)
	}
	out := func(name string, extra ...string) (string, report.ShardRecord) {
		t.Helper()
		p := filepath.Join(dir, name)
		args := append([]string{"score", "--gold", exGold, "--pred", runs, "--repo", exRepo, "--out", p}, extra...)
		if _, errs, code := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", extra, errs)
		}
		b, _ := os.ReadFile(p)
		var rec report.ShardRecord
		if raw, err := os.ReadFile(p + report.ShardSuffix); err == nil {
			json.Unmarshal(raw, &rec)
		}
		return string(b), rec
	}
	whole, _ := out("whole.jsonl")
	var cat strings.Builder
	for k := 1; k <= 3; k++ {
		got, rec := out(fmt.Sprintf("s%d.jsonl", k), "--shard", fmt.Sprintf("%d/3", k))
		if rec.Unit != "files" || rec.Instances != 5 {
			t.Errorf("shard %d record %+v, want files of 5", k, rec)
		}
		cat.WriteString(got)
	}
	if strings.Count(whole, "\n") != 5 || cat.String() != whole {
		t.Errorf("folder shards:\n%s\nwant\n%s", cat.String(), whole)
	}
}
