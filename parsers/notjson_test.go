package parsers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNotJSONLinesNamed: in every JSON-lines session format, a line of
// text or binary between records (a CLI's stderr teed into the file) is
// skipped and named for what it holds, and the records around it are read
// (issue 47 #6).
func TestNotJSONLinesNamed(t *testing.T) {
	for _, c := range []struct{ format, fixture, name string }{
		{"claude-code", "claudecode/testdata/session.jsonl", "s.jsonl"},
		{"codex", "codex/testdata/rollout.jsonl", "rollout-x.jsonl"},
		{"qwen-code", "qwencode/testdata/session.jsonl", "q.jsonl"},
		{"gemini-cli", "gemini/testdata/chats/session-2026-04-01T00-00-s-main.jsonl", "session-2026-04-01T00-00-s-main.jsonl"},
	} {
		t.Run(c.format, func(t *testing.T) {
			data, err := os.ReadFile(c.fixture)
			if err != nil {
				t.Fatal(err)
			}
			clean, err := Load(c.fixture, c.format)
			if err != nil || len(clean) == 0 {
				t.Fatalf("fixture: %v", err)
			}
			lines := strings.SplitAfter(string(data), "\n")
			noisy := strings.Join(lines[:2], "") + "Error: rate limited, retrying\n" + "\x00\x01\xff\xfe\n" + strings.Join(lines[2:], "")
			// The files the session refers to (Gemini CLI's sub-agents) too.
			dir := filepath.Join(t.TempDir(), "d")
			if err := os.CopyFS(dir, os.DirFS(filepath.Dir(c.fixture))); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, c.name)
			os.WriteFile(p, []byte(noisy), 0o644)
			runs, err := Load(p, c.format)
			if err != nil || len(runs) != len(clean) || len(runs[0].Actions) != len(clean[0].Actions) {
				t.Fatalf("%v: %d runs", err, len(runs))
			}
			w := strings.Join(runs[0].Warnings, "\n")
			if !strings.Contains(w, `line 3 skipped: not a JSON record (text: "Error: rate limited, retrying")`) ||
				!strings.Contains(w, "line 4 skipped: not a JSON record (4 bytes of binary data)") {
				t.Errorf("warnings:\n%s", w)
			}
		})
	}
}
