package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/source"
)

// --redact replaces keys, e-mail addresses and home-directory user names in
// what convert, view --json, the run list and export write, says how many
// on stderr, and changes no score: the redacted records score as the
// originals do.
func TestRedact(t *testing.T) {
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	const key = "sk-proj-AbCdEf1234567890abcdefGHIJ"
	run := strings.ReplaceAll(string(data), "/testbed/", "/home/alex/testbed/")
	run = strings.Replace(run, "Let me start by getting an overview", "Using "+key+", mail ops@example.com. Let me start by getting an overview", 1)
	// The submitted patch too: it is in the records convert writes.
	run = strings.ReplaceAll(run, "+        if quantity >= tier.min_qty:", "+        if quantity >= tier.min_qty:  # "+key)
	dir := t.TempDir()
	f := write(t, filepath.Join(dir, "pricebook__pricebook-42.traj.json"), run)

	plain, red := filepath.Join(dir, "plain.jsonl"), filepath.Join(dir, "red.jsonl")
	exec(t, "convert", f, "-o", plain)
	code, _, errs := exec(t, "convert", f, "-o", red, "--redact")
	rb, _ := os.ReadFile(red)
	if code != 0 || strings.Contains(string(rb), key) || !strings.Contains(string(rb), "tier.min_qty:  # [REDACTED:key]") ||
		!strings.Contains(errs, "--redact: replaced 1 key or token, 0 e-mail addresses,") {
		t.Errorf("convert --redact: exit %d, %s\n%.300s", code, errs, rb)
	}
	score := func(pred string) string {
		_, out, errs := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", pred)
		if out == "" {
			t.Fatalf("score %s: %s", pred, errs)
		}
		return out
	}
	if a, b := score(plain), score(red); a != b {
		t.Errorf("redacted records score differently:\n%s\n%s", a, b)
	}

	code, out, errs := exec(t, "view", f, "--gold", demoGold, "--repo", "../demo/task/repo", "--json", "--redact")
	if code != 0 || strings.Contains(out, "alex") || !strings.Contains(errs, "--redact: replaced") {
		t.Errorf("view --json --redact: exit %d %s", code, errs)
	}
	page := filepath.Join(dir, "run.html")
	code, _, errs = exec(t, "export", f, "--gold", demoGold, "--repo", "../demo/task/repo", "-o", page, "--redact")
	pb, _ := os.ReadFile(page)
	if code != 0 || strings.Contains(string(pb), key) || strings.Contains(string(pb), "ops@example.com") || strings.Contains(string(pb), "/home/alex") ||
		!strings.Contains(string(pb), "[REDACTED:key]") || !strings.Contains(errs, "keys or tokens, 1 e-mail address,") {
		t.Errorf("export --redact: exit %d %s", code, errs)
	}
	// Without --redact the page has them: the test above could fail.
	exec(t, "export", f, "--gold", demoGold, "--repo", "../demo/task/repo", "-o", page)
	if pb, _ := os.ReadFile(page); !strings.Contains(string(pb), key) {
		t.Error("the unredacted page lacks the key")
	}
	code, out, _ = exec(t, "view", dir, "--redact")
	if code != 0 || strings.Contains(out, "alex") {
		t.Errorf("view DIR --redact: exit %d\n%s", code, out)
	}
}

// convert --redact writes valid records: a key on a removed patch line
// ("\n-KEY" in the JSON string) or after an escaped control character is
// replaced in the text, not together with the escape's letters, and the
// records score as the originals do.
func TestConvertRedactKeepsRecordsValid(t *testing.T) {
	key := "sk-proj-" + "Zq8rT2vLm4Xw9Kp3Jd7Hs1Nc6Bf5Gy0A"
	traj := miniTraj([]string{exploreEcho("pkg/mod.py", 4, 5)}, []string{"ok"}, "File: pkg/mod.py\nLines: 4-5")
	var doc map[string]any
	json.Unmarshal([]byte(traj), &doc)
	doc["info"].(map[string]any)["submission"] = "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -4,1 +4,1 @@\n-" + key + "\n+\x1b" + key + "\n"
	b, _ := json.Marshal(doc)
	f := write(t, filepath.Join(t.TempDir(), "owner__repo-1.traj.json"), string(b))
	out, errs, code := run(t, "convert", f, "--redact")
	var rec struct {
		Patch string `json:"model_patch"`
	}
	if err := json.Unmarshal([]byte(out), &rec); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s\n%s", code, err, out, errs)
	}
	if strings.Contains(out, key[:12]) || !strings.Contains(rec.Patch, "\n-[REDACTED:key]\n+\x1b[REDACTED:key]\n") {
		t.Errorf("patch %q", rec.Patch)
	}
	recs := write(t, filepath.Join(t.TempDir(), "preds.jsonl"), out)
	scored, _, _ := run(t, "score", "--gold", exGold, "--pred", recs, "--repo", exRepo)
	if strings.Contains(scored, "invalid_prediction") || !strings.Contains(scored, `"num_steps": 1`) {
		t.Errorf("the redacted record scores %s", scored)
	}
}

// --redact reaches everything a run shows wherever it is opened: a run
// opened from the list (its commands and the repository's source), the
// list's rows (ids from file names, models), the page's source.
func TestRedactEverySurface(t *testing.T) {
	key := "ghp_" + "R7tY2uI9oP3aS5dF8gH1jK4lZ6xC0vB2nM7q"
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	os.MkdirAll(filepath.Join(repo, "pkg"), 0o755)
	os.WriteFile(filepath.Join(repo, "pkg", "conf.py"), []byte("TOKEN = '"+key+"'\nOWNER = 'ann@example.com'\n"), 0o644)
	goldFile := write(t, filepath.Join(dir, "gold.json"), `{"inst_id": "ann@example.com__owner__repo-1", "gold_ctx": [{"file": "pkg/conf.py", "start_line": 1, "end_line": 2}]}`)
	runs := filepath.Join(dir, "runs")
	os.Mkdir(runs, 0o755)
	traj := miniTraj([]string{"cat pkg/conf.py # " + key}, []string{"TOKEN = '" + key + "'\nOWNER = 'ann@example.com'"}, "File: pkg/conf.py\nLines: 1-2")
	var doc map[string]any
	json.Unmarshal([]byte(traj), &doc)
	doc["info"].(map[string]any)["config"] = map[string]any{"model": map[string]any{"model_name": "acme/" + key}}
	b, _ := json.Marshal(doc)
	f := write(t, filepath.Join(runs, "ann@example.com__owner__repo-1.traj.json"), string(b))

	set, err := runset.New([]string{runs}, runset.Reading{Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	set.Prepare(runset.Options{Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: repo}), Why: func(e error) string { return e.Error() }})
	for set.Step() {
	}
	st, _, _ := set.Open(1)
	seen := fmt.Sprint(set.Rows())
	if st != nil {
		seen += st.A.Run.Actions[0].Command + st.A.Run.Model
		content, _ := st.A.Source("pkg/conf.py")
		seen += string(content)
	}
	if st == nil || strings.Contains(seen, key[:12]) || strings.Contains(seen, "ann@example.com") || !strings.Contains(seen, "[REDACTED:key]") {
		t.Errorf("the list and the opened run show:\n%s", seen)
	}

	page := filepath.Join(dir, "run.html")
	if code, _, errs := exec(t, "export", f, "--gold", goldFile, "--repo", repo, "--redact", "-o", page); code != 0 {
		t.Fatalf("export: exit %d %s", code, errs)
	}
	html, _ := os.ReadFile(page)
	if strings.Contains(string(html), key[:12]) || strings.Contains(string(html), "ann@example.com") {
		t.Error("the page shows a key or an e-mail address from the repository, the id or the model")
	}
}

// Every kind of secret the redactor knows, in a run's output, is gone from
// every surface --redact serves: the summary, view --json, the page and
// convert's records.
func TestRedactEveryKindOnEverySurface(t *testing.T) {
	secrets := []string{
		"ASIAY34FZKBOKMUTVV7A", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo",
		"hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "glpat-xK9mN2pQ7rS4tU1vW8yZ", "3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e",
		"S3cr3tP4ss", "hunter22", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
		"EfGHIJ0987654321zz",
	}
	out := "aws ASIAY34FZKBOKMUTVV7A\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n" +
		"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END RSA PRIVATE KEY-----\n" +
		"hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 glpat-xK9mN2pQ7rS4tU1vW8yZ\nAuthorization: Bearer 3f9a1c7e5b2d4f6a8c0e1b3d5f7a9c2e\n" +
		"postgres://admin:S3cr3tP4ss@db:5432/app redis://:hunter22@cache:6379\nsk_live_4eC39HqLyjWDarjtT1zdp7dc AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY\n" +
		"key sk-proj-AbCdEf1234567890abcd\nEfGHIJ0987654321zz"
	f := write(t, filepath.Join(t.TempDir(), "owner__repo-1.traj.json"), miniTraj([]string{"cat .env", "cat pkg/mod.py"}, []string{out, "x"}, "File: pkg/mod.py\nLines: 4-5"))
	page := filepath.Join(t.TempDir(), "run.html")
	outputs := map[string]string{}
	for name, args := range map[string][]string{
		"summary": {"view", f, "--redact"}, "view --json": {"view", f, "--json", "--redact"},
		"export": {"export", f, "--redact", "-o", page},
	} {
		code, text, errs := exec(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", name, code, errs)
		}
		outputs[name] = text
	}
	html, _ := os.ReadFile(page)
	outputs["page"] = string(html)
	for name, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s shows %q", name, s)
			}
		}
	}
}
