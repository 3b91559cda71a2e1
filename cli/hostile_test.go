package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/testkit"
)

// Hostile input, end to end through Execute: each case gives
// one clear line naming the file and the place, the documented exit code, no
// panic, and in a batch every other instance still scores exactly as it
// would alone.

// secret is the content of a file outside the repository. Paths in runs
// and gold point at it in every way they can; it must never be read, so
// this text must never appear in any output.
const secret = "TOPSECRET_c0ffee"

// hostileRepo is a plain-directory repository with two small Python files,
// a symlink that points out of it at the secret, and the secret file beside
// it. It returns the repository and the secret file's absolute path.
func hostileRepo(t *testing.T) (repo, secretPath string) {
	t.Helper()
	dir := t.TempDir()
	repo = filepath.Join(dir, "repo")
	secretPath = filepath.Join(dir, "outside", "secret.py")
	write(t, secretPath, "def "+secret+"():\n    return '"+secret+"'\n")
	write(t, filepath.Join(repo, "pkg", "mod.py"), pyLines(20))
	write(t, filepath.Join(repo, "pkg", "util.py"), pyLines(5))
	if err := os.Symlink(filepath.Join("..", "..", "outside", "secret.py"), filepath.Join(repo, "pkg", "leak.py")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "outside"), filepath.Join(repo, "outdir")); err != nil {
		t.Fatal(err)
	}
	return repo, secretPath
}

// pyLines is n lines of Python: a def every fifth line.
func pyLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		if i%5 == 1 {
			fmt.Fprintf(&b, "def f%d():\n", i)
		} else {
			fmt.Fprintf(&b, "    x = %d\n", i)
		}
	}
	return b.String()
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// goldRow is one JSONL gold row with line spans (file, start, end triples).
func goldRow(id string, spans ...any) string {
	var items []string
	for i := 0; i+2 < len(spans); i += 3 {
		items = append(items, fmt.Sprintf(`{"file": %s, "start_line": %v, "end_line": %v}`, jsonString(spans[i].(string)), spans[i+1], spans[i+2]))
	}
	return fmt.Sprintf(`{"inst_id": %s, "original_inst_id": %s, "commit": "c", "gold_ctx": [%s]}`, jsonString(id), jsonString(id), strings.Join(items, ", "))
}

// predRow is one unified prediction record whose single step and final
// context read the given spans (file, start, end triples).
func predRow(id string, spans ...any) string {
	var files []string
	byFile := map[string][]string{}
	var order []string
	for i := 0; i+2 < len(spans); i += 3 {
		f := spans[i].(string)
		if _, ok := byFile[f]; !ok {
			order = append(order, f)
			files = append(files, jsonString(f))
		}
		byFile[f] = append(byFile[f], fmt.Sprintf(`{"type": "line", "start": %v, "end": %v}`, spans[i+1], spans[i+2]))
	}
	var sp []string
	for _, f := range order {
		sp = append(sp, fmt.Sprintf(`%s: [%s]`, jsonString(f), strings.Join(byFile[f], ", ")))
	}
	ctx := fmt.Sprintf(`"files": [%s], "spans": {%s}`, strings.Join(files, ", "), strings.Join(sp, ", "))
	pctx := fmt.Sprintf(`"pred_files": [%s], "pred_spans": {%s}`, strings.Join(files, ", "), strings.Join(sp, ", "))
	return fmt.Sprintf(`{"instance_id": %s, "traj_data": {"pred_steps": [{%s}], %s}, "model_patch": ""}`, jsonString(id), ctx, pctx)
}

// jsonString is s as a JSON string (Go's %q is not JSON for controls).
func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// exec runs the command line with captured, non-terminal streams.
func exec(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Execute(args, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Demo: demo.FS()})
	return code, out.String(), errb.String()
}

// resultRows parses score's JSONL stdout into rows keyed by instance id
// (error rows of unreadable records have the id "").
func resultRows(t *testing.T, stdout string) map[string]map[string]any {
	t.Helper()
	rows := map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("stdout line is not JSON: %v\n%s", err, line)
		}
		id, _ := row["instance_id"].(string)
		if _, dup := rows[id]; dup && id != "" {
			t.Fatalf("instance %q twice", id)
		}
		rows[id] = row
	}
	return rows
}

// lineCov is a row's final line coverage and precision.
func lineCov(row map[string]any) (cov, prec float64) {
	final, _ := row["final"].(map[string]any)
	line, _ := final["line"].(map[string]any)
	cov, _ = line["coverage"].(float64)
	prec, _ = line["precision"].(float64)
	return cov, prec
}

// miniTraj is a mini-swe-agent v1 trajectory: one bash command per action,
// each followed by its observation, and a final <PATCH_CONTEXT> answer.
func miniTraj(cmds, obs []string, final string) string {
	msgs := []map[string]string{{"role": "system", "content": "sys"}, {"role": "user", "content": "task"}}
	for i, c := range cmds {
		msgs = append(msgs, map[string]string{"role": "assistant", "content": "THOUGHT: next\n\n```bash\n" + c + "\n```"})
		msgs = append(msgs, map[string]string{"role": "user", "content": "<returncode>0</returncode>\n<output>\n" + obs[i] + "\n</output>"})
	}
	if final != "" {
		msgs = append(msgs, map[string]string{"role": "assistant", "content": "<PATCH_CONTEXT>\n" + final + "\n</PATCH_CONTEXT>"})
	}
	b, _ := json.Marshal(map[string]any{"info": map[string]string{"exit_status": "Submitted", "submission": ""}, "messages": msgs})
	return string(b)
}

// exploreEcho is the echo whose observation upstream counts as a step.
func exploreEcho(file string, start, end int) string {
	return fmt.Sprintf("echo '<explore_context>\nFile: %s\nLines: %d-%d\n</explore_context>'", file, start, end)
}

// TestHostileBatchRecords: truncated JSON, NUL bytes, invalid UTF-8, a
// 100,000-deep nesting and a record with impossible numbers in one
// predictions file. Each bad record is one error row and one stderr line
// naming the file and line; the good instances score exactly as they do in
// a file of their own.
func TestHostileBatchRecords(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), strings.Join([]string{
		goldRow("o__r-1", "pkg/mod.py", 2, 5), goldRow("o__r-3", "pkg/util.py", 1, 5, "pkg/mod.py", 6, 10),
		goldRow("o__r-5", "pkg/mod.py", 1, 1),
	}, "\n")+"\n")
	good1, good3 := predRow("o__r-1", "pkg/mod.py", 1, 5), predRow("o__r-3", "pkg/util.py", 1, 3)
	clean := write(t, filepath.Join(dir, "clean.jsonl"), good1+"\n"+good3+"\n")
	bad := write(t, filepath.Join(dir, "bad.jsonl"), strings.Join([]string{
		good1,
		`{"instance_id": "o__r-2", "traj_data": {`,
		"\x00\x00\x00",
		"{\"instance_id\": \"o__r-4\xff\xfe\", \"traj_data\": {\"pred_steps\": []}}",
		strings.Repeat("[", 100000),
		`{"instance_id": "o__r-5", "traj_data": {"pred_steps": [], "pred_files": ["pkg/mod.py"], "pred_spans": {"pkg/mod.py": [{"type": "line", "start": 1, "end": 99999999999999999999}]}}}`,
		good3,
	}, "\n")+"\n")

	code, want, errs := exec(t, "score", "--gold", gold, "--pred", clean, "--repo", repo)
	if code != exitOK {
		t.Fatalf("clean file: exit %d: %s", code, errs)
	}
	code, got, errs := exec(t, "score", "--gold", gold, "--pred", bad, "--repo", repo)
	if code != exitOK {
		t.Fatalf("exit %d, want %d (bad records are error rows): %s", code, exitOK, errs)
	}
	for _, line := range []string{
		"trajscope: invalid_prediction: " + bad + ":2:41: invalid JSON: expected a string key in an object, found end of input",
		"trajscope: invalid_prediction: " + bad + `:3:1: invalid JSON: expected a value, found '\x00'`,
		"trajscope: invalid_prediction: " + bad + ":5:1002: invalid JSON: nesting deeper than 1000",
		"trajscope: o__r-5: invalid_prediction: " + bad + `:6: traj_data.pred_spans["pkg/mod.py"][0].end: integer 99999999999999999999 out of range`,
		// Go reads invalid UTF-8 in a JSON string as U+FFFD: the record
		// loads, under an id no gold has.
		"trajscope: o__r-4\ufffd\ufffd: missing_gold: no gold context for o__r-4\ufffd\ufffd",
		"EVALUATION: 2/7 instances",
		"errors: invalid_prediction=4 missing_gold=1",
	} {
		if !strings.Contains(errs, line+"\n") {
			t.Errorf("stderr lacks %q:\n%s", line, errs)
		}
	}
	rows := strings.Split(strings.TrimSpace(got), "\n")
	wantRows := strings.Split(strings.TrimSpace(want), "\n")
	if len(rows) != 7 || len(wantRows) != 2 {
		t.Fatalf("%d rows (want 7), %d clean rows (want 2):\n%s", len(rows), len(wantRows), got)
	}
	// The good instances' rows are byte for byte those of the clean file.
	if rows[0] != wantRows[0] || rows[6] != wantRows[1] {
		t.Errorf("good rows differ from the clean file's:\n%s\n%s\nwant\n%s", rows[0], rows[6], want)
	}
	if c, p := lineCov(resultRows(t, wantRows[0])["o__r-1"]); c != 1 || p != 0.8 {
		t.Errorf("o__r-1 line coverage/precision = %v/%v, want 1/0.8", c, p)
	}
	if c, p := lineCov(resultRows(t, wantRows[1])["o__r-3"]); c != 0.3 || p != 1 {
		t.Errorf("o__r-3 line coverage/precision = %v/%v, want 0.3/1", c, p)
	}
	for i, wantErr := range map[int]string{1: "invalid_prediction", 2: "invalid_prediction", 3: "missing_gold", 4: "invalid_prediction", 5: "invalid_prediction"} {
		var row map[string]any
		json.Unmarshal([]byte(rows[i]), &row)
		if row["error"] != wantErr {
			t.Errorf("row %d = %s, want error %s", i+1, rows[i], wantErr)
		}
	}
}

// TestHostileFiles: a whole input file that is truncated, binary, empty,
// too deeply nested or holds nothing gives one error line naming the file
// and the place, and the documented exit code.
func TestHostileFiles(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("o__r-1", "pkg/mod.py", 2, 5)+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), predRow("o__r-1", "pkg/mod.py", 1, 5)+"\n")
	traj := miniTraj([]string{"cat pkg/mod.py", exploreEcho("pkg/mod.py", 2, 5)}, []string{"def f1():", "ok"}, "File: pkg/mod.py\nLines: 2-5")
	deep := strings.Repeat("[", 100000)
	results := filepath.Join(dir, "results.jsonl")
	if code, _, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo, "--out", results); code != exitOK {
		t.Fatalf("score --out: exit %d: %s", code, errs)
	}
	res, _ := os.ReadFile(results)

	cases := []struct {
		name, file, content string
		args                func(p string) []string
		code                int
		want                string // the whole error line, with PATH for the file
	}{
		// score: the predictions file as a whole.
		{"pred truncated JSON list", "preds.json", "[" + predRow("o__r-1", "pkg/mod.py", 1, 5)[:200],
			func(p string) []string { return []string{"score", "--gold", gold, "--pred", p, "--repo", repo} },
			exitRuntime, "PATH:1:202: invalid JSON: unterminated string"},
		{"pred deep nesting", "preds.json", deep,
			func(p string) []string { return []string{"score", "--gold", gold, "--pred", p, "--repo", repo} },
			exitRuntime, "PATH:1:1002: invalid JSON: nesting deeper than 1000"},
		{"pred empty trajectory", "o__r-1.traj.json", "",
			func(p string) []string { return []string{"score", "--gold", gold, "--pred", p, "--repo", repo} },
			exitRuntime, "PATH:1:1: invalid JSON: expected a value, found end of input"},
		{"pred directory", "dir/", "",
			func(p string) []string { return []string{"score", "--gold", gold, "--pred", p, "--repo", repo} },
			exitRuntime, "PATH: no run files found (it holds no file a format recognises)"},

		// score: the gold file.
		{"gold empty", "gold.jsonl", "",
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, "PATH: no gold rows (expected JSONL rows, a JSON list of rows or one row object, each with inst_id or original_inst_id)"},
		{"gold no instances", "gold.json", "[]",
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, "PATH: no gold rows (expected JSONL rows"},
		{"gold no usable row", "gold.jsonl", "{\"x\": 1}\n",
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, `PATH: no gold rows loaded; first problem: PATH:1: no "inst_id" or "original_inst_id" (row skipped)`},
		{"gold NUL bytes", "gold.json", "\x00\x00\x00",
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, `PATH:1:1: invalid JSON: expected a value, found '\x00'`},
		{"gold deep nesting", "gold.json", deep,
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, "PATH:1:1002: invalid JSON: nesting deeper than 1000"},
		{"gold truncated", "gold.json", "[" + goldRow("o__r-1", "pkg/mod.py", 2, 5)[:50],
			func(p string) []string { return []string{"score", "--gold", p, "--pred", preds, "--repo", repo} },
			exitRuntime, "PATH:1:52: invalid JSON: unterminated object"},
		{"gold missing", "nope/gold.jsonl", "",
			func(p string) []string { return []string{"score", "--gold", p + "x", "--pred", preds, "--repo", repo} },
			exitRuntime, "stat PATHx: no such file or directory"},

		// view: the run file.
		{"view truncated", "o__r-1.traj.json", traj[:len(traj)/2],
			func(p string) []string { return []string{"view", p} },
			exitRuntime, "PATH:1:" + fmt.Sprint(len(traj)/2+1) + ": invalid JSON: unterminated string"},
		{"view NUL bytes", "o__r-1.traj.json", `{"messages": [` + "\x00]}",
			func(p string) []string { return []string{"view", p} },
			exitRuntime, `PATH:1:15: invalid JSON: expected a value, found '\x00'`},
		{"view deep nesting", "o__r-1.traj.json", deep,
			func(p string) []string { return []string{"view", p} },
			exitRuntime, "PATH:1:1002: invalid JSON: nesting deeper than 1000"},
		{"view empty file", "o__r-1.traj.json", "",
			func(p string) []string { return []string{"view", p} },
			exitRuntime, "PATH:1:1: invalid JSON: expected a value, found end of input"},
		// An empty run is shown (its summary) and said to be empty.
		{"view empty trajectory", "o__r-1.traj.json", `{"messages": []}`,
			func(p string) []string { return []string{"view", p} },
			exitOK, `PATH: the run has no actions: nothing to step through`},
		{"view binary", "run.bin", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe",
			func(p string) []string { return []string{"view", p} },
			exitRuntime, "PATH: unknown format: tried the file-name rules and the content of"},
		{"export empty trajectory", "o__r-1.traj.json", `{"messages": []}`,
			func(p string) []string { return []string{"export", p, "-o", p + ".html"} },
			exitRuntime, `PATH: instance "o__r-1": the run has no actions: nothing to step through`},

		// report: the results file.
		{"report truncated", "results.jsonl", string(res[:len(res)-40]),
			func(p string) []string { return []string{"report", p} },
			exitRuntime, "PATH:1: invalid JSON at byte"},
		{"report NUL bytes", "results.jsonl", "\x00\x00",
			func(p string) []string { return []string{"report", p} },
			exitRuntime, `PATH:1: expected a JSON object per line or a trajscope JSON document, found "\x00"`},
		{"report deep nesting", "results.json", deep,
			func(p string) []string { return []string{"report", p} },
			exitRuntime, "PATH:1: result 1 (byte 1): invalid JSON at byte 10001 of the row: invalid character '[' exceeded max depth"},
		{"report empty", "results.jsonl", "",
			func(p string) []string { return []string{"report", p} },
			exitRuntime, "PATH: empty file, expected result rows (JSONL) or a trajscope JSON document"},

		// convert: nothing convertible.
		{"convert truncated", "o__r-1.traj.json", traj[:100],
			func(p string) []string { return []string{"convert", p} },
			exitRuntime, "PATH:1:101: invalid JSON: unterminated string"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), c.file)
			if strings.HasSuffix(c.file, "/") {
				os.MkdirAll(p, 0o755)
				p = filepath.Clean(p)
			} else {
				write(t, p, c.content)
			}
			code, _, errs := exec(t, c.args(p)...)
			want := "trajscope: " + strings.ReplaceAll(c.want, "PATH", p)
			if code != c.code || !strings.Contains(errs, want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and a line starting %q", code, errs, c.code, want)
			}
			if strings.Contains(errs, "panic") || strings.Contains(errs, "goroutine ") {
				t.Errorf("stderr has a panic:\n%s", errs)
			}
		})
	}
}

// TestHostileHugeTrajectory: a 100 MB trajectory (one JSON line, 10,000
// actions with 10 KB observations; 10 MB outside scripts/promises) scores
// and views with exact numbers.
func TestHostileHugeTrajectory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes, scores and views a large trajectory")
	}
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("o__r-1", "pkg/mod.py", 2, 5, "pkg/util.py", 1, 2)+"\n")
	var obs strings.Builder
	for i := 1; i <= 120; i++ {
		fmt.Fprintf(&obs, "%6d\t    x = %d  # padding padding padding padding padding padding padding\n", i, i)
	}
	var cmds, outs []string
	for size := 0; size < hugeTrajBytes; size += obs.Len() + 64 {
		if len(cmds)%2 == 0 {
			cmds = append(cmds, "nl -ba pkg/mod.py | sed -n '1,20p'")
		} else {
			cmds = append(cmds, exploreEcho("pkg/mod.py", 2, 5))
		}
		outs = append(outs, obs.String())
	}
	traj := miniTraj(cmds, outs, "File: pkg/mod.py\nLines: 2-5")
	if len(traj) < hugeTrajBytes {
		t.Fatalf("generated %d bytes", len(traj))
	}
	path := write(t, filepath.Join(dir, "o__r-1.traj.json"), traj)
	traj, outs = "", nil

	code, out, errs := exec(t, "score", "--gold", gold, "--pred", path, "--repo", repo, "--format", "jsonl")
	if code != exitOK {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	row := resultRows(t, out)["o__r-1"]
	if row == nil || row["num_steps"] != float64(len(cmds)/2) {
		t.Fatalf("row %v, want %d steps", row, len(cmds)/2)
	}
	// Final 2-5 of mod.py: all of its gold, none of util.py's 1-2.
	if c, p := lineCov(row); c != 4.0/6 || p != 1 {
		t.Errorf("line coverage/precision %v/%v, want 4/6 and 1", c, p)
	}
	code, out, errs = exec(t, "view", path, "--gold", gold, "--repo", repo)
	if code != exitOK {
		t.Fatalf("view: exit %d: %s", code, errs)
	}
	for _, want := range []string{
		fmt.Sprintf("%d actions · %d contextbench steps", len(cmds)+1, len(cmds)/2),
		"pkg/util.py                      1-2       never read",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("view summary lacks %q:\n%.2000s", want, out)
		}
	}
}

// TestHostileLongLine: a single 10 MB line in a JSONL predictions file and
// in a Claude Code stream is read whole (no line-length limit), and the
// record after it still loads.
func TestHostileLongLine(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("o__r-1", "pkg/mod.py", 2, 5)+"\n"+goldRow("o__r-2", "pkg/mod.py", 2, 5)+"\n")
	pad := strings.Repeat("0123456789abcdef", 10<<20/16)
	long := strings.TrimSuffix(predRow("o__r-1", "pkg/mod.py", 1, 5), "}") + `, "padding": "` + pad + `"}`
	preds := write(t, filepath.Join(dir, "preds.jsonl"), long+"\n"+predRow("o__r-2", "pkg/mod.py", 2, 3)+"\n")
	code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo)
	if code != exitOK {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	rows := resultRows(t, out)
	if c, p := lineCov(rows["o__r-1"]); c != 1 || p != 0.8 {
		t.Errorf("o__r-1 (the 10 MB line) line coverage/precision %v/%v, want 1/0.8", c, p)
	}
	if c, p := lineCov(rows["o__r-2"]); c != 0.5 || p != 1 {
		t.Errorf("o__r-2 (after it) line coverage/precision %v/%v, want 0.5/1", c, p)
	}

	// A Claude Code stream whose tool result is one 10 MB line.
	content, _ := json.Marshal("     2→x\n     3→y\n" + pad)
	stream := strings.Join([]string{
		`{"type": "system", "subtype": "init", "cwd": "/workspace", "session_id": "o__r-2", "model": "m"}`,
		`{"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/workspace/pkg/mod.py", "offset": 2, "limit": 2}}]}}`,
		`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": ` + string(content) + `}]}}`,
		`{"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Bash", "input": {"command": "cat pkg/util.py"}}]}}`,
		`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": "def util():\n    pass\n"}]}}`,
	}, "\n") + "\n"
	run := write(t, filepath.Join(dir, "o__r-2.jsonl"), stream)
	code, out, errs = exec(t, "view", run, "--gold", gold, "--repo", repo)
	if code != exitOK || !strings.Contains(out, "2 actions · 2 contextbench steps") {
		t.Fatalf("view: exit %d: %s\n%s", code, errs, out)
	}
	code, out, errs = exec(t, "view", "--json", run, "--gold", gold, "--repo", repo)
	var doc struct {
		Actions []struct {
			Command string `json:"command"`
		} `json:"actions"`
		Gold []struct {
			FoundAt map[string]int `json:"found_at"`
		} `json:"gold"`
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil {
		t.Fatalf("view --json: exit %d, %v: %s", code, err, errs)
	}
	if len(doc.Actions) != 2 || doc.Actions[1].Command != "cat pkg/util.py" || len(doc.Gold) != 1 || doc.Gold[0].FoundAt["contextbench"] != 1 {
		t.Errorf("view --json: %+v", doc)
	}
}

// TestHostileMillionLineSource: a 1,000,000-line Python file in the
// repository is scored and viewed, with gold and reads at its far end
// (100,000 lines outside scripts/promises: the same arithmetic, a tenth of
// the parsing).
func TestHostileMillionLineSource(t *testing.T) {
	if testing.Short() {
		t.Skip("parses a large source file (seconds)")
	}
	n := bigSourceLines
	at := func(k int) int { return n - 1000000 + k }
	num := func(k int) string { return strconv.Itoa(at(k)) }
	repo, _ := hostileRepo(t)
	write(t, filepath.Join(repo, "big.py"), pyLines(n))
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("big1", "big.py", at(999991), n, "big.py", 1, 3)+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), predRow("big1", "big.py", at(999996), n)+"\n")
	code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo, "--parse-timeout", "2m")
	if code != exitOK {
		t.Fatalf("score: exit %d: %s", code, errs)
	}
	row := resultRows(t, out)["big1"]
	final, _ := row["final"].(map[string]any)
	line, _ := final["line"].(map[string]any)
	if line["intersection"] != 5.0 || line["gold_size"] != 13.0 || line["pred_size"] != 5.0 {
		t.Errorf("line = %v, want 5 of 13 gold lines, 5 predicted", line)
	}
	// Gold symbols: f1 and the two at the end; the read shows the last.
	if sym, _ := final["symbol"].(map[string]any); sym["intersection"] != 1.0 || sym["gold_size"] != 3.0 {
		t.Errorf("symbol = %v, want 1 of 3", sym)
	}

	traj := write(t, filepath.Join(dir, "big1.traj.json"), miniTraj(
		[]string{"nl -ba big.py | sed -n '" + num(999990) + "," + num(1000000) + "p'", "tail -n 5 big.py", exploreEcho("big.py", at(999996), n)},
		[]string{"ok", "ok", "ok"}, "File: big.py\nLines: "+num(999996)+"-"+num(1000000)))
	code, out, errs = exec(t, "view", traj, "--gold", gold, "--repo", repo, "--parse-timeout", "2m")
	if code != exitOK {
		t.Fatalf("view: exit %d: %s", code, errs)
	}
	for _, want := range []string{"4 actions · 1 contextbench step", "big.py:" + num(999996) + "-" + num(1000000), num(999991) + "-" + num(1000000)} {
		if !strings.Contains(out, want) {
			t.Errorf("view summary lacks %q:\n%s", want, out)
		}
	}
}

// TestHostileLineNumbers: negative, zero, reversed and huge line numbers
// and gold past the end of the file score without error under both
// semantics: upstream's arithmetic as it is (contextbench), clamped to the
// file (fixed). Numbers that fit no integer are one error line each.
func TestHostileLineNumbers(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	const huge = 1 << 40
	gold := write(t, filepath.Join(dir, "gold.jsonl"), strings.Join([]string{
		goldRow("neg", "pkg/mod.py", -5, -1, "pkg/mod.py", 2, 3), goldRow("zero", "pkg/mod.py", 0, 0, "pkg/mod.py", 2, 3),
		goldRow("rev", "pkg/mod.py", 9, 2), goldRow("huge", "pkg/mod.py", 1, huge),
		goldRow("past", "pkg/mod.py", 15, 30, "pkg/util.py", 100, 200), goldRow("ok", "pkg/mod.py", 2, 5),
		`{"inst_id": "big", "gold_ctx": [{"file": "pkg/mod.py", "start_line": 1, "end_line": 99999999999999999999}]}`,
	}, "\n")+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), strings.Join([]string{
		predRow("neg", "pkg/mod.py", -5, -1, "pkg/mod.py", 2, 3), predRow("zero", "pkg/mod.py", 0, 0, "pkg/mod.py", 2, 3),
		predRow("rev", "pkg/mod.py", 9, 2), predRow("huge", "pkg/mod.py", 1, huge),
		predRow("past", "pkg/mod.py", 18, 40, "pkg/util.py", 100, 200), predRow("ok", "pkg/mod.py", 1, 5),
		predRow("flt", "pkg/mod.py", "-1e400", "1e400"),
	}, "\n")+"\n")
	// line intersection/gold/pred per instance.
	want := map[string]map[string][3]float64{
		"contextbench": {"neg": {2, 7, 2}, "zero": {2, 3, 2}, "rev": {0, -6, -6}, "huge": {huge, huge, huge}, "past": {114, 117, 124}, "ok": {4, 4, 5}},
		"fixed":        {"neg": {2, 2, 2}, "zero": {2, 2, 2}, "rev": {8, 8, 8}, "huge": {20, 20, 20}, "past": {3, 6, 3}, "ok": {4, 4, 5}},
	}
	for _, sem := range []string{"contextbench", "fixed"} {
		code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo, "--semantics", sem)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", sem, code, errs)
		}
		for _, line := range []string{
			"trajscope: warning: " + gold + ":7: gold_ctx[0].end_line: integer 99999999999999999999 out of range (row skipped)",
			"trajscope: flt: invalid_prediction: " + preds + `:7: traj_data.pred_steps[0].spans["pkg/mod.py"][0].start: expected an integer, found -1e400`,
		} {
			if !strings.Contains(errs, line+"\n") {
				t.Errorf("%s: stderr lacks %q:\n%s", sem, line, errs)
			}
		}
		rows := resultRows(t, out)
		for id, w := range want[sem] {
			final, _ := rows[id]["final"].(map[string]any)
			l, _ := final["line"].(map[string]any)
			if got := [3]float64{num(l["intersection"]), num(l["gold_size"]), num(l["pred_size"])}; got != w {
				t.Errorf("%s %s: line intersection/gold/pred = %v, want %v", sem, id, got, w)
			}
		}
		if rows["flt"]["error"] != "invalid_prediction" {
			t.Errorf("%s: flt row %v", sem, rows["flt"])
		}
	}
}

func num(v any) float64 { f, _ := v.(float64); return f }

// withCommit sets a gold row's commit.
func withCommit(row, commit string) string {
	return strings.Replace(row, `"commit": "c"`, `"commit": "`+commit+`"`, 1)
}

// TestHostilePathsNeverLeaveRepo: gold and runs name a file outside the
// repository through "..", an absolute path, a symlink to the file and a
// symlink to its directory, in a plain directory and in a git repository.
// The file is never read: its content appears in no output of score (every
// format and --out) or view (summary and --json), it adds nothing to any
// measure, and the diagnosis calls it absent from the repository.
func TestHostilePathsNeverLeaveRepo(t *testing.T) {
	plain, secretPath := hostileRepo(t)
	gitDir, commit := testkit.GitRepo(t, map[string]string{
		"pkg/mod.py":  pyLines(20),
		"pkg/util.py": pyLines(5),
		"pkg/leak.py": testkit.SymlinkPrefix + "../../outside/secret.py",
		"outdir":      testkit.SymlinkPrefix + "../outside",
	})
	gitSecret := write(t, filepath.Join(filepath.Dir(gitDir), "outside", "secret.py"), "def "+secret+"():\n    return '"+secret+"'\n")
	if _, err := os.Stat(filepath.Join(gitDir, "pkg", "leak.py")); err != nil {
		t.Fatalf("the worktree's symlink does not reach the secret: %v", err)
	}

	for _, repo := range []struct{ name, dir, commit, secret string }{{"dir", plain, "c", secretPath}, {"git", gitDir, commit, gitSecret}} {
		t.Run(repo.name, func(t *testing.T) {
			dir := t.TempDir()
			escapes := []string{"pkg/leak.py", "../outside/secret.py", "pkg/../../outside/secret.py", repo.secret,
				"outdir/secret.py", "/testbed/../outside/secret.py", "./../outside/secret.py"}
			var golds, preds []string
			for i, p := range escapes {
				id := fmt.Sprintf("o__r-%d", i)
				golds = append(golds, withCommit(goldRow(id, "pkg/mod.py", 2, 5, p, 1, 2), repo.commit))
				preds = append(preds, predRow(id, "pkg/mod.py", 2, 5, p, 1, 2))
			}
			gold := write(t, filepath.Join(dir, "gold.jsonl"), strings.Join(golds, "\n")+"\n")
			pred := write(t, filepath.Join(dir, "preds.jsonl"), strings.Join(preds, "\n")+"\n")
			var cmds []string
			for _, p := range escapes {
				cmds = append(cmds, "cat "+p, "nl -ba "+p+" | sed -n '1,2p'", exploreEcho(p, 1, 2))
			}
			outs := make([]string, len(cmds))
			for i := range outs {
				outs[i] = "ok"
			}
			traj := write(t, filepath.Join(dir, "o__r-0.traj.json"), miniTraj(cmds, outs, "File: pkg/leak.py\nLines: 1-2\nFile: pkg/mod.py\nLines: 2-5"))

			var all strings.Builder
			for _, args := range [][]string{
				{"score", "--gold", gold, "--pred", pred, "--repo", repo.dir, "--out", filepath.Join(dir, "out.jsonl")},
				{"score", "--gold", gold, "--pred", pred, "--repo", repo.dir, "--format", "text"},
				{"score", "--gold", gold, "--pred", pred, "--repo", repo.dir, "--format", "json"},
				{"score", "--gold", gold, "--pred", pred, "--repo", repo.dir, "--format", "csv", "--semantics", "fixed"},
				{"score", "--gold", gold, "--pred", traj, "--repo", repo.dir, "--format", "json"},
				{"view", traj, "--gold", gold, "--repo", repo.dir},
				{"view", traj, "--gold", gold, "--repo", repo.dir, "--json", "--lens", "observed"},
			} {
				// Symbol figures come from tree-sitter parses, which give
				// up past --parse-timeout (2 s): on a loaded machine that
				// changed them (the test failed once in a full run). The
				// figures, not the budget, are what this test checks.
				args = append(args, "--parse-timeout", "10m")
				code, out, errs := exec(t, args...)
				if code != exitOK {
					t.Fatalf("%v: exit %d: %s", args, code, errs)
				}
				all.WriteString(out + errs)
			}
			out, _ := os.ReadFile(filepath.Join(dir, "out.jsonl"))
			all.Write(out)
			if strings.Contains(all.String(), secret) {
				t.Fatalf("the secret outside the repository reached the output")
			}

			// Only mod.py's lines 2-5 count: 40 bytes, 1 symbol (f1), 4
			// lines of it plus the escape's 2 gold lines, which no read can
			// match because the file is not in the repository.
			rows := resultRows(t, string(out))
			for i := range escapes {
				row := rows[fmt.Sprintf("o__r-%d", i)]
				final, _ := row["final"].(map[string]any)
				for g, want := range map[string][3]float64{"file": {1, 2, 1}, "symbol": {1, 1, 1}, "span": {40, 40, 40}, "line": {4, 6, 4}} {
					m, _ := final[g].(map[string]any)
					if got := [3]float64{num(m["intersection"]), num(m["gold_size"]), num(m["pred_size"])}; got != want {
						t.Errorf("%s %s: intersection/gold/pred = %v, want %v", escapes[i], g, got, want)
					}
				}
			}
			code, js, _ := exec(t, "view", traj, "--gold", gold, "--repo", repo.dir, "--json", "--parse-timeout", "10m")
			var doc struct {
				Gold []struct {
					File      string            `json:"file"`
					Diagnosis map[string]string `json:"diagnosis"`
				} `json:"gold"`
			}
			if err := json.Unmarshal([]byte(js), &doc); code != exitOK || err != nil || len(doc.Gold) != 2 {
				t.Fatalf("view --json: exit %d, %v, %s", code, err, js)
			}
			for _, g := range doc.Gold {
				if g.File == "pkg/leak.py" && (g.Diagnosis["contextbench"] != "never_opened" || g.Diagnosis["observed"] != "never_opened") {
					t.Errorf("the escaping symlink is diagnosed %v, want never_opened", g.Diagnosis)
				}
			}
		})
	}
}

// TestHostileMissingCommit: an instance whose commit is not in the
// repository is one checkout_failed row naming the repository and the
// commit; the others score. view of that instance opens without the
// repository, saying why.
func TestHostileMissingCommit(t *testing.T) {
	repo, commit := testkit.GitRepo(t, map[string]string{"pkg/mod.py": pyLines(20), "pkg/util.py": pyLines(5)})
	dir := t.TempDir()
	missing := strings.Repeat("d", 40)
	gold := write(t, filepath.Join(dir, "gold.jsonl"), strings.Join([]string{
		withCommit(goldRow("o__r-1", "pkg/mod.py", 2, 5), commit), withCommit(goldRow("o__r-2", "pkg/mod.py", 2, 5), missing),
		withCommit(goldRow("o__r-3", "pkg/util.py", 1, 5, "pkg/mod.py", 6, 10), commit),
	}, "\n")+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), strings.Join([]string{
		predRow("o__r-1", "pkg/mod.py", 1, 5), predRow("o__r-2", "pkg/mod.py", 1, 5), predRow("o__r-3", "pkg/util.py", 1, 3),
	}, "\n")+"\n")
	code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo)
	want := "trajscope: o__r-2: checkout_failed: repository " + repo + ": commit " + missing + ": commit not found\n"
	if code != exitOK || !strings.Contains(errs, want) || !strings.Contains(errs, "EVALUATION: 2/3 instances") {
		t.Fatalf("exit %d, stderr:\n%s\nwant exit 0 and %q", code, errs, want)
	}
	rows := resultRows(t, out)
	if rows["o__r-2"]["error"] != "checkout_failed" {
		t.Errorf("o__r-2 row %v", rows["o__r-2"])
	}
	if c, p := lineCov(rows["o__r-1"]); c != 1 || p != 0.8 {
		t.Errorf("o__r-1 line coverage/precision %v/%v, want 1/0.8", c, p)
	}
	if c, p := lineCov(rows["o__r-3"]); c != 0.3 || p != 1 {
		t.Errorf("o__r-3 line coverage/precision %v/%v, want 0.3/1", c, p)
	}

	traj := write(t, filepath.Join(dir, "o__r-2.traj.json"), miniTraj([]string{exploreEcho("pkg/mod.py", 2, 5)}, []string{"ok"}, "File: pkg/mod.py\nLines: 2-5"))
	code, out, errs = exec(t, "view", traj, "--gold", gold, "--repo", repo)
	reason := "no repository (repository " + repo + ": commit " + missing + ": commit not found)"
	if code != exitOK || errs != "trajscope: "+reason+": showing the lines the run displayed; pass --repo DIR or --cache DIR\n" || !strings.Contains(out, reason) {
		t.Errorf("view: exit %d, stderr:\n%s\nwant exit 0 and %q on stderr and in the summary:\n%s", code, errs, reason, out)
	}
}

// panicFS panics on every call, standing in for any bug that input reaches.
type panicFS struct{}

func (panicFS) Open(name string) (fs.File, error) { panic("boom \x1b]0;title\x07") }

// TestPanicIsOneLine: a panic on the command's goroutine becomes one inert
// error line and exit 1, not a stack trace.
func TestPanicIsOneLine(t *testing.T) {
	var out, errb bytes.Buffer
	code := Execute([]string{"view"}, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Demo: panicFS{}})
	want := "trajscope: internal error: boom \\e]0;title\\x07 (a bug: please report it with the input)\n"
	if code != exitRuntime || errb.String() != want {
		t.Errorf("exit %d, stderr %q; want exit 1 and %q", code, errb.String(), want)
	}
}

// TestHostileEmptyPredictions: an empty predictions file, or one whose
// records all lack an id, scores 0/0 as upstream does, with a warning
// naming the file.
func TestHostileEmptyPredictions(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("o__r-1", "pkg/mod.py", 2, 5)+"\n")
	for name, content := range map[string]string{"empty.jsonl": "", "blank.jsonl": "\n\n  \n", "noid.jsonl": `{"traj_data": {"pred_steps": []}}` + "\n"} {
		preds := write(t, filepath.Join(dir, name), content)
		code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo)
		want := "trajscope: warning: " + preds + ": no prediction records (expected unified records with an instance_id, or a trajectory)\n"
		if code != exitOK || out != "" || !strings.HasPrefix(errs, want) || !strings.Contains(errs, "EVALUATION: 0/0 instances") {
			t.Errorf("%s: exit %d, stdout %q, stderr:\n%s\nwant exit 0, no rows and %q", name, code, out, errs, want)
		}
	}
}

// TestHostileDotRepoURL: a gold row whose repo_url is "." or ".." would
// name the repository cache itself or its parent; that instance is a
// checkout_failed row saying so, nothing is cloned into the cache, and the
// other instances score.
func TestHostileDotRepoURL(t *testing.T) {
	repo, commit := testkit.GitRepo(t, map[string]string{"pkg/mod.py": pyLines(20)})
	dir, cache := t.TempDir(), t.TempDir()
	// The other instance's repository is in the cache, under its URL's key.
	const otherURL = "https://example.invalid/o/r.git"
	if err := os.Rename(repo, filepath.Join(cache, "example.invalid__o__r")); err != nil {
		t.Fatal(err)
	}
	withURL := func(row, url string) string {
		return strings.Replace(withCommit(row, commit), `"commit":`, `"repo_url": `+jsonString(url)+`, "commit":`, 1)
	}
	for _, dot := range []string{".", "..", "./"} {
		gold := write(t, filepath.Join(dir, "gold.jsonl"), withURL(goldRow("task-one", "pkg/mod.py", 2, 5), dot)+"\n"+
			withURL(goldRow("task-two", "pkg/mod.py", 2, 5), otherURL)+"\n")
		preds := write(t, filepath.Join(dir, "preds.jsonl"), predRow("task-one", "pkg/mod.py", 1, 5)+"\n"+predRow("task-two", "pkg/mod.py", 1, 5)+"\n")
		code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--cache", cache)
		rows := resultRows(t, out)
		if code != exitOK || rows["task-one"]["error"] != "checkout_failed" || !strings.Contains(errs, "names no repository") {
			t.Errorf("repo_url %q: exit %d, row %v, stderr:\n%s", dot, code, rows["task-one"], errs)
		}
		if c, _ := lineCov(rows["task-two"]); c != 1 {
			t.Errorf("repo_url %q: the other instance: %v", dot, rows["task-two"])
		}
		if entries, _ := os.ReadDir(cache); len(entries) != 1 {
			t.Errorf("repo_url %q: the cache was written to: %v", dot, entries)
		}
	}
}

// TestHostileSlowParse: gold files in a grammar's pathological case cost
// the parse budget each, not the old 30 s: stderr names each one, the JSON
// document records them under "trajscope", and under --semantics fixed the
// symbol figures are null instead of a perfect 1.0.
func TestHostileSlowParse(t *testing.T) {
	hang, err := os.ReadFile("../scoring/symbols/testdata/hang/mutated_tsx.swift")
	if err != nil {
		t.Fatal(err)
	}
	repo, _ := hostileRepo(t)
	var spans []any
	for _, f := range []string{"h1.swift", "h2.swift", "h3.swift"} {
		write(t, filepath.Join(repo, f), string(hang))
		spans = append(spans, f, 1, 3)
	}
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("slow1", spans...)+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), predRow("slow1", "h1.swift", 1, 3)+"\n")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, sem := range []string{"contextbench", "fixed"} {
		code, out, errs := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "json", "--parse-timeout", "200ms", "--semantics", sem)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", sem, code, errs)
		}
		for _, f := range []string{"h1.swift", "h2.swift", "h3.swift"} {
			if !strings.Contains(errs, "trajscope: warning: slow1: gave up parsing "+f+": past the 200ms budget (--parse-timeout)") {
				t.Errorf("%s: no warning for %s:\n%s", sem, f, errs)
			}
		}
		var doc struct {
			Results []struct {
				Final     map[string]map[string]*float64 `json:"final"`
				Trajscope struct {
					ParseGaveUp []string `json:"parse_gave_up"`
				} `json:"trajscope"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Results) != 1 {
			t.Fatalf("%s: %v\n%s", sem, err, out)
		}
		r := doc.Results[0]
		if !reflect.DeepEqual(r.Trajscope.ParseGaveUp, []string{"h1.swift", "h2.swift", "h3.swift"}) {
			t.Errorf("%s: parse_gave_up %v", sem, r.Trajscope.ParseGaveUp)
		}
		cov := r.Final["symbol"]["coverage"]
		if sem == "fixed" && cov != nil || sem == "contextbench" && (cov == nil || *cov != 1) {
			t.Errorf("%s: symbol coverage %v (want null under fixed, upstream's 1.0 under contextbench)", sem, cov)
		}
	}
}

// grep's exit status is grep's: 0 for a match, 1 for none, 2 when a file
// could not be read (the others still searched); a bad pattern is a usage
// error.
func TestGrepExitStatus(t *testing.T) {
	bad := write(t, filepath.Join(t.TempDir(), "bad.traj.json"), "{not json")
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"grep", "-i", "BULK DISCOUNT", demoTraj}, 0, "pricebook__pricebook-42:task: Bulk discount is not applied when ordering exactly 10 units"},
		{[]string{"grep", "-l", "tier", demoTraj}, 0, "pricebook__pricebook-42\n"},
		{[]string{"grep", "zzqqzz", demoTraj}, 1, ""},
		{[]string{"grep", "tier", bad, demoTraj}, 2, "pricebook__pricebook-42:"},
		{[]string{"grep", "(", demoTraj}, exitUsage, ""},
	}
	for _, c := range cases {
		code, out, errs := exec(t, c.args...)
		if code != c.code || c.out != "" && !strings.Contains(out, c.out) || c.out == "" && out != "" {
			t.Errorf("%v: exit %d\n%s\n%s", c.args, code, out, errs)
		}
	}
}
