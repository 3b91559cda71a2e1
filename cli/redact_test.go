package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
