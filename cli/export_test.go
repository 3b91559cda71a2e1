package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// export writes each kind from the demo; bad calls are usage errors that
// leave no file behind.
func TestExportDemo(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args   []string
		out    string
		prefix string
	}{
		{[]string{"--step", "3"}, "run.html", "<!DOCTYPE html>"},
		{[]string{"--size", "100x30", "--speed", "500ms", "--lens", "observed"}, "talk.cast", `{"version":2,"width":100,"height":30`},
		{[]string{"--step", "6", "--theme", "light"}, "step6.svg", "<svg "},
	}
	for _, c := range cases {
		out := filepath.Join(dir, c.out)
		code, _, errs := viewExec(t, append([]string{"export", "-o", out}, c.args...)...)
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.out, code, errs)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.HasPrefix(string(b), c.prefix) {
			t.Errorf("%s: %v, starts %.60q", c.out, err, b)
		}
	}
}

func TestExportBadCalls(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"export"}, "needs -o FILE"},
		{[]string{"export", "-o", filepath.Join(dir, "x.pdf")}, "the extension picks the kind"},
		{[]string{"export", "-o", filepath.Join(dir, "x.cast"), "--size", "12x4"}, "--size"},
		{[]string{"export", "-o", filepath.Join(dir, "x.cast"), "--speed", "0s"}, "positive duration"},
		{[]string{"export", "-o", filepath.Join(dir, "x.cast"), "--speed", "fast"}, "positive duration"},
		{[]string{"export", "-o", filepath.Join(dir, "x.svg"), "--step", "21"}, "the demo has 20 actions"},
		{[]string{"export", "-o", filepath.Join(dir, "x.svg"), "--step", "0"}, "--step must be 1 or more"},
		{[]string{"export", "-o", filepath.Join(dir, "x.svg"), "--theme", "neon"}, "neon"},
		{[]string{"export", "-o", filepath.Join(dir, "x.html"), "a", "b"}, "at most one RUN"},
		{[]string{"view", "--speed", "-1s"}, "positive duration"},
	}
	for _, c := range cases {
		code, _, errs := viewExec(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want a usage error about %q", c.args, code, errs, c.want)
		}
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("failed exports left files: %v", left)
	}
}

// export loads a run exactly as view does: a run file with gold and a
// repository directory.
func TestExportRunFile(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	gold := write(t, filepath.Join(dir, "gold.jsonl"), goldRow("inst-1", "pkg/mod.py", 3, 8)+"\n")
	pred := write(t, filepath.Join(dir, "preds.jsonl"), predRow("inst-1", "pkg/mod.py", 1, 10)+"\n")
	out := filepath.Join(dir, "run.html")
	code, _, errs := viewExec(t, "export", pred, "--gold", gold, "--repo", repo, "-o", out)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(out)
	if !strings.Contains(string(b), "inst-1") || !strings.Contains(string(b), `id="f0"`) {
		t.Error("the page lacks the run or the source of its file")
	}
	// The output may not be one of the inputs.
	in := write(t, filepath.Join(dir, "in.cast"), predRow("inst-1", "pkg/mod.py", 1, 10)+"\n")
	if code, _, errs = viewExec(t, "export", in, "-o", in); code != exitUsage || !strings.Contains(errs, "names the input") {
		t.Errorf("exporting over the input: exit %d: %s", code, errs)
	}
}

// export and compare lay out at most model.MaxShownActions actions and
// model.MaxShownGoldSpans gold spans: past them, one line naming the file
// and the bound, exit 1, and no file written.
func TestExportAndCompareRefusePastTheShownBounds(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString(`{"info": {"exit_status": "Submitted", "submission": ""}, "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "task"}`)
	for i := 0; i <= model.MaxShownActions; i++ {
		fmt.Fprintf(&b, `, {"role": "assistant", "content": "THOUGHT: x\n\n`+"```bash\\nsed -n '%d,%dp' pkg/mod.py\\n```"+`"}, {"role": "user", "content": "<returncode>0</returncode>\n<output>\nx\n</output>"}`, i%50+1, i%50+3)
	}
	b.WriteString("]}")
	long := filepath.Join(dir, "o__r-1.traj.json")
	os.WriteFile(long, []byte(b.String()), 0o644)
	short := filepath.Join(dir, "short", "o__r-1.traj.json")
	os.MkdirAll(filepath.Dir(short), 0o755)
	os.WriteFile(short, []byte(`{"info": {"exit_status": "Submitted", "submission": ""}, "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "task"}, {"role": "assistant", "content": "THOUGHT: x\n\n`+"```bash\\nsed -n '1,3p' pkg/mod.py\\n```"+`"}, {"role": "user", "content": "<returncode>0</returncode>\n<output>\nx\n</output>"}]}`), 0o644)
	b.Reset()
	b.WriteString(`{"inst_id": "o__r-1", "gold_ctx": [`)
	for i := 0; i <= model.MaxShownGoldSpans; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"file": "pkg/f%d.py", "start_line": 1, "end_line": 2}`, i)
	}
	b.WriteString("]}\n")
	bigGold := filepath.Join(dir, "gold.jsonl")
	os.WriteFile(bigGold, []byte(b.String()), 0o644)
	smallGold := filepath.Join(dir, "small.jsonl")
	os.WriteFile(smallGold, []byte(`{"inst_id": "o__r-1", "gold_ctx": [{"file": "pkg/mod.py", "start_line": 1, "end_line": 2}]}`+"\n"), 0o644)
	out := filepath.Join(dir, "x.html")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"export", long, "--gold", smallGold, "-o", out}, fmt.Sprintf("a run of %d actions; export shows runs of at most %d", model.MaxShownActions+1, model.MaxShownActions)},
		{[]string{"compare", long, short, "--gold", smallGold}, fmt.Sprintf("a run of %d actions; compare shows runs of at most %d", model.MaxShownActions+1, model.MaxShownActions)},
		{[]string{"export", short, "--gold", bigGold, "-o", out}, fmt.Sprintf("%d gold spans and files for o__r-1; export shows at most %d", model.MaxShownGoldSpans+1, model.MaxShownGoldSpans)},
	} {
		code, _, stderr := exec(t, c.args...)
		if code != 1 || !strings.Contains(stderr, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 1 and %q", c.args[0], code, stderr, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: wrote %s", c.args[0], out)
		}
	}
	// At the bound's side of it, the page is written.
	if code, _, stderr := exec(t, "export", short, "--gold", smallGold, "-o", out); code != 0 {
		t.Errorf("a short run: exit %d: %s", code, stderr)
	}
}

// export site writes the index, a page per run and a compare page for a
// task of several runs; --redact reaches the index and the pages.
func TestExportSite(t *testing.T) {
	runs := t.TempDir()
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	key := "sk-proj-Zq8rT2vLm4Xw9Kp3Jd7Hs1Nc6Bf5Gy0A"
	for _, name := range []string{"a", "b"} {
		text := strings.Replace(string(data), "pricebook__pricebook-42", "pricebook__pricebook-42", 1)
		if name == "b" {
			text = strings.Replace(text, `"exit_status": "`, `"exit_status": "`+key+` `, 1)
		}
		os.WriteFile(filepath.Join(runs, name+".traj.json"), []byte(text), 0o644)
	}
	out := filepath.Join(t.TempDir(), "site")
	_, errs, code := run(t, "export", "site", runs, "--gold", demoGold, "--repo", "../demo/task/repo", "-o", out, "--redact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(errs, "2 runs, 2 pages, 1 compare page\n") {
		t.Errorf("stderr: %s", errs)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*.html"))
	if len(files) != 4 {
		t.Fatalf("files %v, want index, 2 pages, 1 compare page", files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), key) {
			t.Errorf("%s shows the key", f)
		}
		if !strings.Contains(string(b), `http-equiv="Content-Security-Policy" content="default-src `) {
			t.Errorf("%s has no policy", f)
		}
	}
	index, _ := os.ReadFile(filepath.Join(out, "index.html"))
	for _, w := range []string{`href="run-1.html"`, `href="run-2.html"`, `href="compare-1-pricebook__pricebook-42.html"`} {
		if !strings.Contains(string(index), w) {
			t.Errorf("the index lacks %s", w)
		}
	}
	if code, _, errs := exec(t, "export", "site", runs); code != exitUsage {
		t.Errorf("without -o: exit %d: %s", code, errs)
	}
}
