package sessions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trajscope/trajscope/testkit/goosedbtest"
	"github.com/trajscope/trajscope/testkit/opencodedbtest"
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

// Goose's sessions come from its database: those of the directory, newest
// written first, each named within the file; FindSince passes over the
// database when nothing was written since, and counts a session written
// in the second it began (Goose writes times to the second).
func TestGooseSessions(t *testing.T) {
	home := t.TempDir()
	db := filepath.Join(home, "sessions", "sessions.db")
	os.MkdirAll(filepath.Dir(db), 0o755)
	g := goosedbtest.Create(t, db)
	g.Session("20260101_1", "/w")
	g.Session("20260101_2", "/elsewhere")
	g.Session("20260101_3", "/w/")
	g.Written("20260101_1", time.Now().Add(-time.Hour))
	g.Written("20260101_3", time.Now().Add(-time.Minute))
	h := Homes{Goose: home}
	var got []string
	for _, s := range Find("/w", h) {
		got = append(got, s.Agent+" "+filepath.Base(s.Path)+"#"+s.Instance)
	}
	if want := "goose sessions.db#20260101_3, goose sessions.db#20260101_1"; strings.Join(got, ", ") != want {
		t.Errorf("found %v, want %s", got, want)
	}
	if n := len(FindSince("/w", h, time.Now().Add(time.Hour))); n != 0 {
		t.Errorf("%d sessions written in the future", n)
	}
	start := time.Now()
	g.Written("20260101_1", start)
	if s := FindSince("/w", h, start); len(s) != 1 || s[0].Instance != "20260101_1" {
		t.Errorf("a session written in the second since began: %+v", s)
	}
}

// OpenCode's sessions come from its databases (opencode.db and a
// channel's opencode-<channel>.db): those its user started in the
// directory, not a sub-agent's, newest written first.
func TestOpenCodeSessions(t *testing.T) {
	home := t.TempDir()
	db := opencodedbtest.Create(t, filepath.Join(home, "opencode.db"))
	beta := opencodedbtest.Create(t, filepath.Join(home, "opencode-beta.db"))
	now := time.Now().UnixMilli()
	db.Session("ses_1", "", "/w", now-3000)
	db.Session("ses_2", "ses_1", "/w", now-2000) // a sub-agent's
	db.Session("ses_3", "", "/elsewhere", now-1000)
	beta.Session("ses_9", "", "/w/", now-500)
	var got []string
	for _, s := range Find("/w", Homes{OpenCode: home}) {
		got = append(got, s.Agent+" "+filepath.Base(s.Path)+"#"+s.Instance)
	}
	if want := "opencode opencode-beta.db#ses_9, opencode opencode.db#ses_1"; strings.Join(got, ", ") != want {
		t.Errorf("found %v, want %s", got, want)
	}
	if s := FindSince("/w", Homes{OpenCode: home}, time.UnixMilli(now-1000)); len(s) != 1 || s[0].Instance != "ses_9" {
		t.Errorf("written since: %+v", s)
	}
}
