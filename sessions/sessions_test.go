package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A Codex meta whose instructions run past what is read of it is still
// matched by its working directory, which comes first; a commit recorded
// past the head is not guessed.
func TestCodexMetaWithLongInstructions(t *testing.T) {
	home := t.TempDir()
	dir := "/home/ann/src/app"
	long := strings.Repeat("x", 2*maxHead)
	for name, cwd := range map[string]string{"rollout-a.jsonl": dir, "rollout-b.jsonl": dir + "-other"} {
		p := filepath.Join(home, "sessions", "2026", "02", "03", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(`{"timestamp":"2026-02-03T04:05:06Z","type":"session_meta","payload":{"id":"i","timestamp":"2026-02-03T04:05:06.5Z","cwd":"`+cwd+
			`","instructions":"`+long+`","git":{"commit_hash":"`+strings.Repeat("a", 40)+`"}}}`+"\n"), 0o644)
	}
	got := codex(dir, home, time.Time{})
	if len(got) != 1 || filepath.Base(got[0].Path) != "rollout-a.jsonl" || got[0].Commit != "" || got[0].Started.IsZero() {
		t.Fatalf("sessions %+v", got)
	}
}
