package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// score --resume finishes an interrupted --out: whatever prefix a killed run
// left (nothing, whole rows, half a row), the finished file is the
// uninterrupted run's byte for byte and the summary is the whole file's;
// on the streamed path, the whole-file path and a shard.
func TestScoreResume(t *testing.T) {
	preds, err := os.ReadFile(exPreds)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(preds)), "\n")
	var b strings.Builder
	for i := 0; i < streamChunk+40; i++ {
		b.WriteString(lines[i%len(lines)] + "\n") // ids repeat: a resume counts them
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(big, []byte(b.String()), 0o644)
	for _, c := range []struct {
		name  string
		extra []string
	}{
		{"streamed", nil},
		{"whole file", []string{"--input-format", "unified"}},
		{"a shard", []string{"--shard", "2/3"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"score", "--gold", exGold, "--pred", big, "--repo", exRepo}, c.extra...)
			full := filepath.Join(dir, "full.jsonl")
			_, fullErr, code := run(t, append(args, "--out", full)...)
			want, _ := os.ReadFile(full)
			if code != 0 || strings.Count(string(want), "\n") < 10 {
				t.Fatalf("uninterrupted: exit %d, %d bytes: %s", code, len(want), fullErr)
			}
			second := strings.Index(string(want), "\n") + 1
			for _, cut := range []int{0, second / 2, second, len(want) / 2, len(want) - 3, len(want)} {
				out := filepath.Join(dir, "part.jsonl")
				os.WriteFile(out, want[:cut], 0o644)
				_, errs, code := run(t, append(args, "--out", out, "--resume")...)
				got, _ := os.ReadFile(out)
				if code != 0 || string(got) != string(want) {
					t.Errorf("cut at %d: exit %d, %d bytes, want %d: %s", cut, code, len(got), len(want), errs)
				}
				summary := func(s string) string {
					s = s[strings.Index(s, "======"):]
					return strings.ReplaceAll(s, "part.jsonl", "full.jsonl")
				}
				if summary(errs) != summary(fullErr) {
					t.Errorf("cut at %d: the summary is not the whole file's:\n%s\nwant\n%s", cut, summary(errs), summary(fullErr))
				}
				if half := cut > 0 && want[cut-1] != '\n'; half != strings.Contains(errs, "the last line is incomplete") {
					t.Errorf("cut at %d: the half-written line is said %v: %s", cut, !half, errs)
				}
			}
		})
	}

	// A file that is not an interrupted score's is refused and left alone;
	// --resume needs a file.
	other := filepath.Join(dir, "notes.jsonl")
	os.WriteFile(other, []byte("{\"instance_id\": \"x\"}\nnot a row\n"), 0o644)
	_, errs, code := run(t, "score", "--gold", exGold, "--pred", big, "--repo", exRepo, "--out", other, "--resume")
	if b, _ := os.ReadFile(other); code != exitRuntime || !strings.Contains(errs, "nothing was changed") || string(b) != "{\"instance_id\": \"x\"}\nnot a row\n" {
		t.Errorf("a foreign file: exit %d, %q, now %q", code, errs, b)
	}
	// A file with no complete line that is not the start of a row (a JSON
	// document on one line, a binary file), and rows of another gold's
	// instances, are not an interrupted score's either: never truncated.
	rows, _, _ := run(t, "score", "--gold", exGold, "--pred", big, "--repo", exRepo)
	first, _, _ := strings.Cut(rows, "\n")
	var row map[string]any
	json.Unmarshal([]byte(first), &row)
	foreign := strings.Replace(first, `{"instance_id": "`+row["instance_id"].(string)+`"`, `{"instance_id": "someone__else-9"`, 1) + "\n"
	for _, c := range []struct{ name, body, why string }{
		{"doc.json", `{"results": [], "note": "one line, no newline"}`, "not the start of a result row"},
		{"blob.bin", "\x00\x01\x02binary\xff", "not the start of a result row"},
		{"other.jsonl", foreign, `which the gold has no instance of`},
	} {
		f := filepath.Join(dir, c.name)
		os.WriteFile(f, []byte(c.body), 0o644)
		_, errs, code := run(t, "score", "--gold", exGold, "--pred", big, "--repo", exRepo, "--out", f, "--resume")
		if b, _ := os.ReadFile(f); code == 0 || !strings.Contains(errs, c.why) || !strings.Contains(errs, "nothing was changed") || string(b) != c.body {
			t.Errorf("%s: exit %d, %q, now %q", c.name, code, errs, b)
		}
	}
	if _, errs, code := run(t, "score", "--gold", exGold, "--pred", big, "--repo", exRepo, "--resume"); code != exitUsage || !strings.Contains(errs, "--resume continues an --out FILE") {
		t.Errorf("--resume without --out: exit %d, %q", code, errs)
	}
}
