package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajscope/trajscope/testkit"
	"github.com/trajscope/trajscope/testkit/goosedbtest"
	"github.com/trajscope/trajscope/testkit/opencodedbtest"
)

// watch finds a directory's sessions in a home laid out as the agents lay
// theirs, newest first, and opens the newest against the repository as it
// was when the session started: the session edits line 5 of the file as
// it was then, which later commits moved to line 8.
func TestWatchFindsTheNewestSession(t *testing.T) {
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, fmt.Sprintf("l%d", i))
	}
	before := strings.Join(lines, "\n") + "\n"
	after := "n1\nn2\nn3\n" + before
	repo, commits := testkit.GitRepoCommits(t, map[string]string{"a.py": before}, map[string]string{"a.py": after})
	started := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	zero := strings.Repeat("0", 40)
	reflog := fmt.Sprintf("%s %s Ann <ann@x.io> %d +0000\tcommit (initial): one\n%s %s Ann <ann@x.io> %d +0000\tcommit: two\n",
		zero, commits[0], started.Add(-time.Hour).Unix(), commits[0], commits[1], started.Add(time.Hour).Unix())
	os.MkdirAll(filepath.Join(repo, ".git", "logs"), 0o755)
	os.WriteFile(filepath.Join(repo, ".git", "logs", "HEAD"), []byte(reflog), 0o644)

	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	put := func(path, text string, age time.Duration) string {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte(text), 0o644)
		when := time.Now().Add(-age)
		os.Chtimes(path, when, when)
		return path
	}
	stamp := started.Format(time.RFC3339)
	claudeLine := func(rec string) string {
		return strings.Replace(rec, "{", fmt.Sprintf(`{"cwd": %q, "sessionId": "s", "timestamp": %q, `, repo, stamp), 1) + "\n"
	}
	session := claudeLine(`{"type": "user", "uuid": "u0", "parentUuid": null, "message": {"role": "user", "content": "fix it"}}`) +
		claudeLine(`{"type": "assistant", "uuid": "u1", "parentUuid": "u0", "message": {"model": "claude-x", "id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": "`+repo+`/a.py", "old_string": "l5", "new_string": "L5"}}]}}`) +
		claudeLine(`{"type": "user", "uuid": "u2", "parentUuid": "u1", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "ok"}]}}`)
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(repo, "-")
	newest := put(filepath.Join(home, ".claude", "projects", slug, "newest.jsonl"), session, time.Minute)
	older := put(filepath.Join(home, ".claude", "projects", slug, "older.jsonl"), session, 3*time.Hour)
	put(filepath.Join(home, ".claude", "projects", slug, "newest", "subagents", "agent-a.jsonl"), session, 0) // a sub-agent's, not a session
	meta := func(cwd string) string {
		return fmt.Sprintf(`{"timestamp": %q, "type": "session_meta", "payload": {"id": "x", "timestamp": %q, "cwd": %q, "git": {"commit_hash": %q}}}`+"\n", stamp, stamp, cwd, commits[0])
	}
	rollout := put(filepath.Join(home, ".codex", "sessions", "2026", "01", "01", "rollout-2026-01-01T00-00-00-x.jsonl"), meta(repo), 2*time.Hour)
	put(filepath.Join(home, ".codex", "sessions", "2026", "01", "01", "rollout-2026-01-01T00-00-00-y.jsonl"), meta("/elsewhere"), 0)
	sum := sha256.Sum256([]byte(repo))
	chat := put(filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats", "session-2026-01-01T00-00-x.json"),
		`{"sessionId": "g", "startTime": "`+stamp+`", "messages": []}`, 4*time.Hour)
	// Qwen Code's: found by the working directory its records name, not
	// by the folder's spelling.
	qwenLine := func(cwd string) string {
		return `{"uuid": "q0", "parentUuid": null, "sessionId": "q", "timestamp": "` + stamp + `", "type": "user", "cwd": "` + cwd + `", "version": "0.21.14", "message": {"role": "user", "parts": [{"text": "fix it"}]}}` + "\n"
	}
	qwenSession := put(filepath.Join(home, ".qwen", "projects", "any-name", "chats", "q.jsonl"), qwenLine(repo), 5*time.Hour)
	put(filepath.Join(home, ".qwen", "projects", "any-name", "chats", "other.jsonl"), qwenLine("/elsewhere"), 0)

	out := mustRun(t, "watch", repo, "--list")
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		f := strings.Fields(line)
		got = append(got, f[0]+" "+f[len(f)-1])
	}
	want := []string{"claude-code " + newest, "codex " + rollout, "claude-code " + older, "gemini-cli " + chat, "qwen-code " + qwenSession}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("watch --list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	code, summary, errs := exec(t, "watch", repo)
	if code != 0 {
		t.Fatalf("watch: exit %d: %s", code, errs)
	}
	// It names the commit and how it was chosen (issue 46 #2), and reads
	// under the lens view --follow does.
	if !strings.Contains(errs, "claude-code session "+newest) || !strings.Contains(errs, "read at "+commits[0][:12]+" (the repository's HEAD when the session started)") ||
		!strings.Contains(summary, "timeline (contextbench lens") {
		t.Errorf("watch says:\n%s", errs)
	}
	for _, w := range []string{"gold from edits: 1 edited region", "a.py", " 5-5 ", "blind edit @1"} {
		if !strings.Contains(summary, w) {
			t.Errorf("the summary lacks %q:\n%s", w, summary)
		}
	}

	if code, _, errs := exec(t, "watch", t.TempDir()); code == 0 || !strings.Contains(errs, "no Claude Code, Codex, Gemini CLI, Qwen Code, Goose or OpenCode session") {
		t.Errorf("a directory without sessions: exit %d: %s", code, errs)
	}
}

// watch reads only the first bytes of regular files: a FIFO named like a
// Codex rollout or a Gemini CLI chat in the agents' folders, or placed at
// .git/logs/HEAD, is passed over, never waited on (issue 48 #6).
func TestWatchPassesOverFIFOs(t *testing.T) {
	repo, _ := testkit.GitRepo(t, map[string]string{"a.py": "x = 1\n"})
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("CLAUDE_CONFIG_DIR", "")
	t.Setenv("CODEX_HOME", "")
	sum := sha256.Sum256([]byte(repo))
	fifos := []string{
		filepath.Join(home, ".codex", "sessions", "2026", "01", "01", "rollout-2026-01-01T00-00-00-x.jsonl"),
		filepath.Join(home, ".gemini", "tmp", hex.EncodeToString(sum[:]), "chats", "session-2026-01-01T00-00-x.json"),
		filepath.Join(repo, ".git", "logs", "HEAD"),
	}
	for _, f := range fifos {
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.Remove(f)
		if err := syscall.Mkfifo(f, 0o600); err != nil {
			t.Skip(err)
		}
	}
	if code, out, errs := exec(t, "watch", repo, "--list"); code != 0 || !strings.Contains(out, "no session of") {
		t.Errorf("watch --list: exit %d: %s %s", code, out, errs)
	}
	if code, _, errs := exec(t, "watch", repo); code == 0 || !strings.Contains(errs, "no Claude Code, Codex, Gemini CLI, Qwen Code, Goose or OpenCode session") {
		t.Errorf("watch: exit %d: %s", code, errs)
	}
	// A session to open: its commit is looked for in the reflog, a FIFO.
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(repo, "-")
	session := filepath.Join(home, ".claude", "projects", slug, "s.jsonl")
	os.MkdirAll(filepath.Dir(session), 0o755)
	os.WriteFile(session, []byte(`{"type": "user", "uuid": "u0", "sessionId": "s", "cwd": "`+repo+`", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "go"}}`+"\n"), 0o644)
	if code, _, errs := exec(t, "watch", repo); code != 0 || !strings.Contains(errs, "claude-code session") {
		t.Errorf("watch with a session: exit %d: %s", code, errs)
	}
}

// watch beside agents, on a terminal: started before any session it
// waits on screen; the first session opens when it appears; a newer
// session of the directory is followed when it starts, saying so, and
// backspace goes back to the one before (issue 46 #1, #2).
func TestWatchFollowsTheWork(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	useCache(t)
	repo, _ := testkit.GitRepo(t, map[string]string{"a.py": "x = 1\n"})
	home := t.TempDir()
	slug := regexp.MustCompile(`[^A-Za-z0-9]`).ReplaceAllString(repo, "-")
	write := func(name, command string) {
		p := filepath.Join(home, ".claude", "projects", slug, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		lines := `{"type": "user", "uuid": "u0", "sessionId": "s", "cwd": "` + repo + `", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "go"}}` + "\n" +
			`{"type": "assistant", "uuid": "a1", "parentUuid": "u0", "sessionId": "s", "timestamp": "2026-01-01T00:00:01Z", "message": {"role": "assistant", "id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "` + command + `"}}]}}` + "\n"
		if err := os.WriteFile(p+".part", []byte(lines), 0o644); err != nil {
			t.Fatal(err)
		}
		os.Rename(p+".part", p) // whole, as an agent's first flush
	}
	o, master := watchOnTerminal(t, repo, home)
	if !o.await("waiting for an agent's session of", hangGuard) {
		t.Fatalf("no waiting screen:\n%s", o.output())
	}
	write("first.jsonl", "echo first-session")
	if !o.await("echo first-session", hangGuard) {
		t.Fatalf("the first session did not open:\n%s", o.output())
	}
	write("second.jsonl", "echo second-session")
	if !o.await("second-session", hangGuard) || !o.await("a newer session started", hangGuard) {
		t.Fatalf("watch did not follow the newer session:\n%s", o.output())
	}
	master.Write([]byte{0x7f})                            // backspace
	if !o.await("first.jsonl (⌫ goes back)", hangGuard) { // the screen writes only what changed: the words before it may stay from the last status
		t.Fatalf("backspace did not go back:\n%s", o.output())
	}
}

// Goose keeps its sessions in one database: watch finds those of the
// directory (not another's), names the one it opens, and follows it as
// Goose writes messages into it (its write-ahead log), then a newer
// session of the directory (issue 46 #2).
func TestWatchFollowsGoose(t *testing.T) {
	repo, home, path := agentDataHome(t, "goose", "sessions", "sessions.db")
	db := goosedbtest.Create(t, path)
	db.Session("20260101_1", "/elsewhere")
	db.Add("20260101_1", goosedbtest.Prompt("other", 1), goosedbtest.Shell("o", "echo other-dir", 2))
	db.Session("20260101_2", repo)
	db.Add("20260101_2", goosedbtest.Prompt("fix it", 10), goosedbtest.Shell("a", "echo goose-first", 11))
	db.Written("20260101_2", time.Now().Add(-time.Minute))

	if out := mustRun(t, "watch", repo, "--list"); !strings.Contains(out, "goose") || !strings.Contains(out, "sessions.db#20260101_2") || strings.Contains(out, "#20260101_1") {
		t.Fatalf("watch --list:\n%s", out)
	}
	code, summary, errs := exec(t, "watch", repo)
	if code != 0 || !strings.Contains(errs, "goose session "+path+"#20260101_2") || !strings.Contains(summary, "echo goose-first") || strings.Contains(summary, "other-dir") {
		t.Fatalf("watch: exit %d\n%s\n%s", code, errs, summary)
	}

	o, _ := watchOnTerminal(t, repo, home)
	if !o.await("echo goose-first", hangGuard) {
		t.Fatalf("the session did not open:\n%s", o.output())
	}
	db.Add("20260101_2", goosedbtest.Shell("b", "echo goose-second", 12))
	if !o.await("goose-second", hangGuard) {
		t.Fatalf("a message Goose wrote did not show:\n%s", o.output())
	}
	db.Session("20260101_3", repo)
	db.Add("20260101_3", goosedbtest.Prompt("next", 20), goosedbtest.Shell("c", "echo goose-newer", 21))
	if !o.await("goose-newer", hangGuard) || !o.await("a newer session started", hangGuard) {
		t.Fatalf("watch did not follow the newer session:\n%s", o.output())
	}
}

// OpenCode keeps its sessions in one database too: watch finds the one its
// user started in the directory (not a sub-agent's session, not another
// directory's) and follows it as OpenCode writes messages into it.
func TestWatchFollowsOpenCode(t *testing.T) {
	repo, home, path := agentDataHome(t, "opencode", "opencode.db")
	db := opencodedbtest.Create(t, path)
	bash := func(msg, command string) opencodedbtest.Message {
		var m opencodedbtest.Message
		json.Unmarshal([]byte(`{"info": {"id": "`+msg+`", "role": "assistant", "modelID": "m"}, "parts": [{"type": "tool", "callID": "`+msg+`c", "tool": "bash",
			"state": {"status": "completed", "input": {"command": "`+command+`"}, "output": "ok"}}]}`), &m)
		return m
	}
	now := time.Now().UnixMilli()
	db.Session("ses_a", "", repo, now-60000)
	db.Add("ses_a", now-60000, bash("msg_1", "echo oc-first"))
	db.Session("ses_b", "ses_a", repo, now-50000) // a sub-agent's
	db.Add("ses_b", now-50000, bash("msg_2", "echo oc-sub"))
	db.Session("ses_c", "", "/elsewhere", now-40000)

	if out := mustRun(t, "watch", repo, "--list"); !strings.Contains(out, "opencode.db#ses_a") || strings.Contains(out, "#ses_b") || strings.Contains(out, "#ses_c") {
		t.Fatalf("watch --list:\n%s", out)
	}
	o, _ := watchOnTerminal(t, repo, home)
	if !o.await("echo oc-first", hangGuard) {
		t.Fatalf("the session did not open:\n%s", o.output())
	}
	db.Add("ses_a", now, bash("msg_3", "echo oc-second"))
	if !o.await("oc-second", hangGuard) {
		t.Fatalf("a message OpenCode wrote did not show:\n%s", o.output())
	}
}

// watchOnTerminal runs trajscope watch DIR on a pseudo-terminal, the
// agents' folders under home; master is what the user types into.
func watchOnTerminal(t *testing.T, dir, home string) (*onTerminal, *os.File) {
	t.Helper()
	master, tty := openPTY(t)
	o := &onTerminal{cmd: asMain("watch", dir), master: master}
	o.cmd.Env = append(o.cmd.Env, "TERM=xterm-256color", "HOME="+home, "XDG_DATA_HOME=", "CLAUDE_CONFIG_DIR=", "CODEX_HOME=")
	o.cmd.Stdin, o.cmd.Stdout, o.cmd.Stderr = tty, tty, tty
	o.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := o.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go o.pump()
	t.Cleanup(func() { o.cmd.Process.Kill(); o.cmd.Wait() })
	return o, master
}

// agentDataHome is what the watch tests of agents that keep a database
// need: a repository to watch, a home whose data folder ($XDG_DATA_HOME
// unset) holds the database's folder, and the database's path there
// (rel under ~/.local/share). It skips under -short: they run the binary
// on a pseudo-terminal.
func agentDataHome(t *testing.T, rel ...string) (repo, home, path string) {
	t.Helper()
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	useCache(t)
	repo, _ = testkit.GitRepo(t, map[string]string{"a.py": "x = 1\n"})
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", "")
	path = filepath.Join(append([]string{home, ".local", "share"}, rel...)...)
	os.MkdirAll(filepath.Dir(path), 0o755)
	return repo, home, path
}
