package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/testkit/benchgen"
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

// BenchmarkFollowReading is what one reading of a followed session costs
// (the file parsed and the run analysed again): the delay between a line
// reaching the file and its action on screen, past fsnotify's and the
// settle time. The real 711-line Claude Code session with sub-agents.
func BenchmarkFollowReading(b *testing.B) {
	path := "../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl"
	if _, err := os.Stat(path); err != nil {
		b.Skip("no ../shared")
	}
	set := openSet(b, path)
	b.ReportAllocs()
	for b.Loop() {
		if st, _ := set.Reread(1); st == nil {
			b.Fatal("no story")
		}
	}
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

// BenchmarkFollowLatency is the delay from a line reaching a followed
// session file to its reading on screen (read, analysed, the explorer
// updated and drawn), line by line through the real 711-line Claude Code
// session with sub-agents, one core kept busy meanwhile. It reports the
// median and 90th percentile in milliseconds.
func BenchmarkFollowLatency(b *testing.B) {
	src := "../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl"
	if _, err := os.Stat(src); err != nil {
		b.Skip("no ../shared")
	}
	data, _ := os.ReadFile(src)
	lines := strings.SplitAfter(string(data), "\n")
	var stopped atomic.Bool
	defer stopped.Store(true)
	go func() { // the busy core: it spins on purpose
		for n := 0; !stopped.Load(); n++ {
		}
	}()
	old := followIdle
	followIdle = time.Hour
	defer func() { followIdle = old }()
	var lat []float64
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "s.jsonl")
		os.WriteFile(path, []byte(strings.Join(lines[:60], "")), 0o644)
		set := openSet(b, path)
		st, _, _ := set.Open(1)
		m, err := ui.New(st, ui.Options{Live: true})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		msgs := make(chan tea.Msg, 64)
		stopFollow := followed(set, 1)(func(msg tea.Msg) { msgs <- msg })
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		lastSt := st
		for _, l := range lines[60:] {
			if !strings.HasSuffix(l, "\n") || strings.TrimSpace(l) == "" {
				continue // the file's last line ends without one: never read
			}
			start := time.Now()
			f.WriteString(l)
			select {
			case msg := <-msgs:
				m.Update(msg)
				m.View()
				if lm := msg.(ui.LiveMsg); lm.St != nil {
					lastSt = lm.St
				}
			case <-time.After(time.Minute):
				b.Fatal("no reading")
			}
			lat = append(lat, float64(time.Since(start).Microseconds())/1000)
		}
		f.Close()
		stopFollow()
		// Followed to its end, the run says what view of the file says.
		var last, want bytes.Buffer
		report.WriteRunJSON(&last, lastSt)
		st2, _, _ := openSet(b, path).Open(1)
		report.WriteRunJSON(&want, st2)
		if last.String() != want.String() {
			b.Fatal("the followed run ends unlike view of the finished file")
		}
	}
	sort.Float64s(lat)
	b.ReportMetric(lat[len(lat)/2], "ms-median")
	b.ReportMetric(lat[len(lat)*9/10], "ms-p90")
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

// BenchmarkFollowAppendedLine is the cost of one line appended to a long
// followed session: a generated 10,000-call Claude Code session with 8
// sub-agent transcripts (30 MB), the lead's last lines written one per
// reading. "appended" reads what was appended (view --follow), "whole"
// reads the files again as before; both analyse the run again, with the
// repository's files (a checked-out folder, as watch has) or without
// (the tree rebuilt from what the run displayed).
func BenchmarkFollowAppendedLine(b *testing.B) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	lead, subs := gen.ClaudeSession(10000, 8)
	repo := checkedOut(b, gen.Files)
	for _, mode := range []string{"appended", "whole", "appended-repo", "whole-repo"} {
		b.Run(mode, func(b *testing.B) {
			path, lines, held := benchSession(b, lead, subs, 2000)
			set := openSet(b, path)
			if strings.HasSuffix(mode, "-repo") {
				set.Prepare(runset.Options{Sem: model.ContextBench, Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: repo})})
			}
			read := set.Follow
			if strings.HasPrefix(mode, "whole") {
				read = set.Reread
			}
			if st, _ := read(1); st == nil || (strings.HasSuffix(mode, "-repo") && st.A.Partial != nil) {
				b.Fatal("not read with its repository")
			}
			for set.Behind() { // the start read first: the rest before the timing
				read(1)
			}
			appendedReadings(b, path, lines, held, read)
		})
	}
}

// checkedOut writes files (repository paths) into a new folder, as a
// checked-out repository, and returns it.
func checkedOut(tb testing.TB, files map[string]string) string {
	tb.Helper()
	repo := tb.TempDir()
	for p, c := range files {
		p = filepath.Join(repo, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	return repo
}

// benchSession writes a generated session (lead and its sub-agents'
// transcripts) into a new folder, the lead's last lines held back (back, at most half of them).
func benchSession(b *testing.B, lead []byte, subs map[string][]byte, back int) (path string, lines []string, held int) {
	dir := b.TempDir()
	path = filepath.Join(dir, "bench.jsonl")
	for id, data := range subs {
		p := filepath.Join(dir, "bench", "subagents", "agent-"+id+".jsonl")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, data, 0o644)
	}
	lines = strings.SplitAfter(string(lead), "\n")
	held = len(lines) - min(back, len(lines)/2)
	os.WriteFile(path, []byte(strings.Join(lines[:held], "")), 0o644)
	return path, lines, held
}

// appendedReadings times a reading after each held-back line is appended
// (once they are all in, readings of the whole session).
func appendedReadings(b *testing.B, path string, lines []string, held int, read func(int) (*story.Story, error)) {
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	defer f.Close()
	b.ReportAllocs()
	for b.Loop() {
		if held < len(lines) {
			f.WriteString(lines[held])
			held++
		}
		if st, _ := read(1); st == nil {
			b.Fatal("no story")
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

// BenchmarkFollowScale is one appended line's reading (view --follow, no
// repository: the tree rebuilt from what the run displayed) at 230, 2,000,
// 7,000 and 10,000 calls of a generated Claude Code session: how an
// update's cost grows with the session (issue 46 #6). With 8 sub-agents
// whose transcripts are written ahead, each lead line lands among their
// actions (time order); "lead/" is a session of one agent, whose lines
// land at the end; "lead-repo/" the same with its repository's files.
func BenchmarkFollowScale(b *testing.B) {
	for _, shape := range []struct {
		name string
		subs int
		repo bool
	}{{"", 8, false}, {"lead/", 0, false}, {"lead-repo/", 0, true}} {
		for _, n := range []int{230, 2000, 7000, 10000} {
			b.Run(fmt.Sprint(shape.name, n), func(b *testing.B) {
				gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
				lead, subs := gen.ClaudeSession(n, shape.subs)
				path, lines, held := benchSession(b, lead, subs, 200)
				set := openSet(b, path)
				if shape.repo {
					// The repository's files beside (a checked-out folder, as
					// watch has).
					set.Prepare(runset.Options{Sem: model.ContextBench, Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: checkedOut(b, gen.Files)})})
				}
				if st, _ := set.Follow(1); st == nil {
					b.Fatal("no story")
				}
				for set.Behind() { // the start read first: the rest before the timing
					set.Follow(1)
				}
				appendedReadings(b, path, lines, held, set.Follow)
			})
		}
	}
}
