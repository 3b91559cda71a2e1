package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/testkit/goosedbtest"
	"github.com/trajscope/trajscope/ui"
)

// Following a Claude Code session as it is written, the way an agent
// writes it: a line in two writes, a sub-agent transcript appearing beside
// it, the file truncated. After each burst the explorer holds what view
// of the file as it then is holds, and at the end its story is view's of
// the finished file, field for field.
func TestFollowSessionInBursts(t *testing.T) {
	src := "../parsers/claudecode/testdata/withsub"
	lines := readLines(t, filepath.Join(src, "sess-9.jsonl"))
	sub := readLines(t, filepath.Join(src, "sess-9/subagents/agent-x1.jsonl"))
	dir := t.TempDir()
	path := filepath.Join(dir, "sess-9.jsonl")
	write := func(text string, flag int) {
		f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(text)
		f.Close()
	}
	write(strings.Join(lines[:2], ""), os.O_TRUNC)

	set := openSet(t, path)
	m, msgs := followExplorer(t, set, path, "")
	if state, n := m.Live(); state != "live" || n != 1 || m.Current() != 0 {
		t.Fatalf("opened: %s, %d actions, at %d", state, n, m.Current())
	}
	next := func(what string) ui.LiveMsg {
		t.Helper()
		select {
		case msg := <-msgs:
			m.Update(msg)
			m.View() // every pane draws each reading
			return msg.(ui.LiveMsg)
		case <-time.After(time.Minute): // a hang guard, not a speed claim
			t.Fatalf("%s: no reading", what)
		}
		return ui.LiveMsg{}
	}
	actions := func() int { _, n := m.Live(); return n }

	// The third line in two writes: the half-written one waits.
	half := len(lines[2]) / 2
	write(lines[2][:half], os.O_APPEND)
	write(lines[2][half:]+lines[3], os.O_APPEND)
	if msg := next("a line in two writes"); msg.St == nil || len(msg.St.A.Run.Warnings) > 0 {
		t.Fatalf("reading %+v", msg)
	}
	if actions() != 2 || m.Current() != 1 {
		t.Errorf("after the burst: %d actions, at %d; want 2, at the newest", actions(), m.Current())
	}

	// A sub-agent transcript appears beside the session.
	os.MkdirAll(filepath.Join(dir, "sess-9", "subagents"), 0o755)
	os.WriteFile(filepath.Join(dir, "sess-9", "subagents", "agent-x1.jsonl"), []byte(strings.Join(sub, "")), 0o644)
	for actions() != 3 {
		if msg := next("a sub-agent transcript"); msg.St == nil {
			t.Fatalf("reading %+v", msg)
		}
	}

	// The user steps back to the first action: a new action leaves them
	// there.
	m.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	more := strings.NewReplacer(`"parentUuid": "m2"`, `"parentUuid": "m3"`, `"t2"`, `"t9"`, `"mm2"`, `"mm9"`, `"m3"`, `"m9"`).Replace(lines[3])
	write(more, os.O_APPEND)
	for actions() != 4 {
		next("one more action")
	}
	if m.Current() != 0 {
		t.Errorf("a new action moved the user's step to %d", m.Current())
	}

	// Truncated: read again from the start, and said.
	write(strings.Join(lines[:1], ""), os.O_TRUNC)
	msg := next("truncation")
	if !strings.Contains(msg.Note, "truncated") {
		t.Errorf("truncation said %q", msg.Note)
	}

	// Written again to its end: the same story as view of the file.
	write(strings.Join(lines, ""), os.O_TRUNC)
	var last *ui.LiveMsg
	for actions() != 3 {
		msg := next("the whole file again")
		last = &msg
	}
	if last == nil || last.St == nil {
		t.Fatal("no story of the finished file")
	}
	if m.Current() != 2 {
		t.Errorf("at %d, want the newest (the truncated reading's one action was the newest)", m.Current())
	}
	m.View() // every pane draws the last reading
	want, _, _ := openSet(t, path).Open(1)
	var a, b bytes.Buffer
	report.WriteRunJSON(&a, last.St)
	report.WriteRunJSON(&b, want)
	if a.String() != b.String() {
		t.Errorf("followed and viewed differ:\n%s\n%s", a.String(), b.String())
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.SplitAfter(string(data), "\n")
	if out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// openSet opens one run file as view does, without gold or repository.
func openSet(t testing.TB, path string) *runset.Set {
	t.Helper()
	set, err := runset.New([]string{path}, runset.Reading{})
	if err != nil {
		t.Fatal(err)
	}
	set.Prepare(runset.Options{Sem: model.ContextBench})
	set.LoadAll()
	return set
}

// --follow follows one session file, on a terminal; anything else is a
// usage error that says so.
func TestFollowRefusals(t *testing.T) {
	store := filepath.Join(t.TempDir(), "sessions.db")
	goosedbtest.Create(t, store).Session("20260101_1", "/w")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"view", "--follow", demoTraj, demoTraj}, "follows one session file"},
		{[]string{"view", "--follow", store}, "holds all of an agent's sessions; name one with --instance ID"},
		{[]string{"view", "--follow", "../demo/task"}, "is not a regular file"},
		{[]string{"view", "--follow", demoTraj}, "needs a terminal"},
	} {
		code, _, errs := exec(t, c.args...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want a usage error saying %q", c.args, code, errs, c.want)
		}
	}
}

// Following a Codex session whose sub-agents write rollouts of their own
// beside it, one the next day: each is joined as it appears, and the
// followed run ends as view of the finished files.
func TestFollowCodexTeam(t *testing.T) {
	src := "../parsers/codex/testdata/sessions/2026/07"
	lead := "01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl"
	child := "01/rollout-2026-07-01T23-59-09-22222222-2222-4222-8222-222222222222.jsonl"
	grand := "02/rollout-2026-07-02T00-00-01-33333333-3333-4333-8333-333333333333.jsonl"
	dir := filepath.Join(t.TempDir(), "sessions", "2026", "07")
	for _, d := range []string{"01", "02"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	write := func(rel string, lines []string) {
		f, err := os.OpenFile(filepath.Join(dir, rel), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(strings.Join(lines, ""))
		f.Close()
	}
	leadLines, childLines := readLines(t, filepath.Join(src, lead)), readLines(t, filepath.Join(src, child))
	write(lead, leadLines[:5])
	path := filepath.Join(dir, lead)
	m, msgs := followExplorer(t, openSet(t, path), path, "codex")
	// waitFor takes readings until the explorer holds n actions of k agents.
	waitFor := func(what string, n, k int) *ui.LiveMsg {
		t.Helper()
		for {
			select {
			case msg := <-msgs:
				m.Update(msg)
				m.View()
				lm := msg.(ui.LiveMsg)
				if lm.St != nil && len(lm.St.A.Run.Actions) == n && max(1, len(lm.St.A.Run.Agents)) == k {
					return &lm
				}
			case <-time.After(time.Minute): // a hang guard, not a speed claim
				t.Fatalf("%s: no reading of %d actions by %d agents", what, n, k)
			}
		}
	}
	whole := func() *story.Story {
		st, _, _ := openSet(t, path).Open(1)
		return st
	}
	write(lead, leadLines[5:])
	waitFor("the lead's lines", len(whole().A.Run.Actions), 1)
	write(child, childLines[:len(childLines)-1])
	waitFor("a sub-agent's rollout", len(whole().A.Run.Actions), 2)
	write(grand, readLines(t, filepath.Join(src, grand)))
	write(child, childLines[len(childLines)-1:]) // the next-day folder is not watched: the child's next line brings it
	want := whole()
	last := waitFor("its sub-agent's, the next day", len(want.A.Run.Actions), 3)
	var a, b bytes.Buffer
	report.WriteRunJSON(&a, last.St)
	report.WriteRunJSON(&b, want)
	if a.String() != b.String() {
		t.Errorf("followed and viewed differ:\n%s\n%s", a.String(), b.String())
	}
}

// followExplorer opens run 1 of set in a live explorer (120x40) and
// follows the file at path as view --follow does, its readings sent to
// msgs; the session never goes quiet while the test runs.
func followExplorer(t *testing.T, set *runset.Set, path, format string) (*ui.Model, <-chan tea.Msg) {
	t.Helper()
	st, _, _ := set.Open(1)
	m, err := ui.New(st, ui.Options{Live: true})
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	old := followIdle
	followIdle = time.Hour
	t.Cleanup(func() { followIdle = old })
	msgs := make(chan tea.Msg, 16)
	t.Cleanup(followed(set, 1)(func(msg tea.Msg) { msgs <- msg }))
	return m, msgs
}

// A call whose result has not come is "running…" and counts no read; its
// result arriving makes it a read of what it showed (issue 46 #3).
func TestFollowRunningCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	lines := []string{
		`{"type":"user","uuid":"u0","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"go"}}`,
		`{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.py"}}]}}`,
	}
	os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	set := openSet(t, path)
	m, msgs := followExplorer(t, set, path, "")
	screen := m.Render()
	if !strings.Contains(screen, "running…") || strings.Contains(screen, "1/1 steps") {
		t.Fatalf("before the result:\n%s", screen)
	}
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"user","uuid":"r1","sessionId":"s","timestamp":"2026-01-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"     1\tx = 1\n     2\ty = 2\n"}]}}` + "\n")
	f.Close()
	select {
	case msg := <-msgs:
		m.Update(msg)
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("no reading")
	}
	if screen := m.Render(); strings.Contains(screen, "running…") || !strings.Contains(screen, "1/1 steps") {
		t.Errorf("after the result:\n%s", screen)
	}
}
