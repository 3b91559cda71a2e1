package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit/benchgen"
	"github.com/trajscope/trajscope/ui"
)

// Two Explore agents started by one message, written as Claude Code
// writes them (a transcript each beside the session, tied to its call by
// its .meta.json), their actions interleaved in time and arriving in
// bursts while the explorer follows: after each burst every agent's
// actions are listed under its own call, named by type and short id
// (issue 46 #5).
func TestFollowInterleavedAgents(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	subs := filepath.Join(dir, "s", "subagents")
	os.MkdirAll(subs, 0o755)
	task := func(id string) string {
		return fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"Task","input":{"description":"look","subagent_type":"Explore","prompt":"p"}}`, id)
	}
	os.WriteFile(path, []byte(`{"type":"user","uuid":"m0","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"go"}}`+"\n"+
		`{"type":"assistant","uuid":"m1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","id":"mm1","content":[`+task("t1")+","+task("t2")+`]}}`+"\n"), 0o644)
	for _, ag := range []struct{ id, call string }{{"aaaa1111", "t1"}, {"bbbb2222", "t2"}} {
		os.WriteFile(filepath.Join(subs, "agent-"+ag.id+".meta.json"), []byte(`{"agentType":"Explore","toolUseId":"`+ag.call+`"}`), 0o644)
	}
	// step writes agent id's read of file at second sec.
	step := func(id, file string, sec int) {
		f, err := os.OpenFile(filepath.Join(subs, "agent-"+id+".jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		u := fmt.Sprintf("%s-%d", id, sec)
		fmt.Fprintf(f, `{"type":"assistant","isSidechain":true,"agentId":%q,"uuid":"%s-a","sessionId":"s","timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"assistant","id":"%s-m","content":[{"type":"tool_use","id":"%s-t","name":"Read","input":{"file_path":"/app/%s"}}]}}`+"\n", id, u, sec, u, u, file)
		fmt.Fprintf(f, `{"type":"user","isSidechain":true,"agentId":%q,"uuid":"%s-r","sessionId":"s","timestamp":"2026-01-01T00:00:%02dZ","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s-t","content":"     1\tx = %d\n"}]}}`+"\n", id, u, sec, u, sec)
		f.Close()
	}
	set := openSet(t, path)
	m, msgs := followExplorer(t, set, path, "")
	// order reads the timeline's action numbers top to bottom, and the
	// agents' rows that name their agent.
	order := func() ([]int, map[int]string) {
		var nums []int
		named := map[int]string{}
		for _, line := range strings.Split(ansi.Strip(m.Render()), "\n") {
			f := strings.Fields(strings.TrimLeft(line, " *▸"))
			var n int
			if len(f) < 2 {
				continue
			}
			if _, err := fmt.Sscan(f[0], &n); err != nil || n < 1 || slices.Contains(nums, n) {
				continue
			}
			nums = append(nums, n)
			if i := strings.Index(line, "↳ Explore#"); i >= 0 {
				named[n] = line[i+len("↳ ") : i+len("↳ Explore#aaaa")]
			}
		}
		return nums, named
	}
	bursts := []struct {
		write func()
		n     int
		want  []int
		named map[int]string
	}{
		{func() { step("aaaa1111", "a.py", 2); step("bbbb2222", "b.py", 3) }, 4, []int{1, 3, 2, 4}, map[int]string{3: "Explore#aaaa", 4: "Explore#bbbb"}},
		{func() { step("aaaa1111", "c.py", 4) }, 5, []int{1, 3, 5, 2, 4}, map[int]string{3: "Explore#aaaa", 4: "Explore#bbbb"}},
		{func() { step("bbbb2222", "d.py", 6); step("aaaa1111", "e.py", 7) }, 7, []int{1, 3, 5, 7, 2, 4, 6}, map[int]string{3: "Explore#aaaa", 4: "Explore#bbbb"}},
	}
	for k, b := range bursts {
		b.write()
		for {
			if _, n := m.Live(); n == b.n {
				break
			}
			select {
			case msg := <-msgs:
				m.Update(msg)
			case <-time.After(time.Minute): // a hang guard, not a speed claim
				t.Fatalf("burst %d: no reading", k+1)
			}
		}
		nums, named := order()
		if !slices.Equal(nums[:min(len(nums), len(b.want))], b.want) {
			t.Errorf("burst %d: timeline %v, want %v\n%s", k+1, nums, b.want, ansi.Strip(m.Render()))
		}
		if fmt.Sprint(named) != fmt.Sprint(b.named) {
			t.Errorf("burst %d: agents named on rows %v, want %v", k+1, named, b.named)
		}
	}
}

// A long session opened to be followed shows its start at once, and the
// rest is read after without the agent writing anything more: the
// readings say so, and the last is view's story of the whole file
// (issue 46 #6).
func TestFollowLongSessionStartsAtOnce(t *testing.T) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	lead, subs := gen.ClaudeSession(3000, 2)
	dir := t.TempDir()
	path := filepath.Join(dir, "bench.jsonl")
	size := len(lead)
	for _, data := range subs {
		size += len(data)
	}
	if err := benchgen.WriteSubagents(path, subs); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, lead, 0o644)
	set, err := runset.New([]string{path}, runset.Reading{}) // as view --follow: not read yet
	if err != nil {
		t.Fatal(err)
	}
	set.Prepare(runset.Options{Sem: model.ContextBench})
	whole, _, _ := openSet(t, path).Open(1)
	first, _, err := set.OpenFollowing(1)
	if err != nil || first == nil {
		t.Fatal(err)
	}
	if n, all := len(first.A.Run.Actions), len(whole.A.Run.Actions); n == 0 || n >= all/4 || !set.Behind() {
		t.Fatalf("%d bytes: the first reading holds %d of %d actions (behind %v)", size, n, all, set.Behind())
	}
	old := followIdle
	followIdle = time.Hour
	t.Cleanup(func() { followIdle = old })
	msgs := make(chan tea.Msg, 64)
	stop := followed(set, 1)(func(msg tea.Msg) { msgs <- msg })
	defer stop()
	var last ui.LiveMsg
	readings, said := 0, false
	for last.St == nil || len(last.St.A.Run.Actions) < len(whole.A.Run.Actions) {
		select {
		case msg := <-msgs:
			last = msg.(ui.LiveMsg)
			readings++
			said = said || strings.HasPrefix(last.Note, "reading the rest of the session")
		case <-time.After(time.Minute): // a hang guard, not a speed claim
			t.Fatalf("after %d readings: no more", readings)
		}
	}
	if !said || last.Note != "" || set.Behind() {
		t.Errorf("%d readings: said it was reading the rest %v; last note %q; behind %v", readings, said, last.Note, set.Behind())
	}
	var a, b bytes.Buffer
	report.WriteRunJSON(&a, last.St)
	report.WriteRunJSON(&b, whole)
	if a.String() != b.String() {
		t.Errorf("read in parts and whole differ:\n%.600s\n%.600s", a.String(), b.String())
	}
}

// A session followed with its repository, in bursts: the readings go on
// from the steps and unions scored before (kept in the checkout's file
// cache), and after each burst the story is view's of the file as it then
// is, field for field (issue 46 #6).
func TestFollowWithRepositoryIsAView(t *testing.T) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 400})
	lead, _ := gen.ClaudeSession(120, 0)
	repo := checkedOut(t, gen.Files)
	withRepo := func(set *runset.Set) *runset.Set {
		set.Prepare(runset.Options{Sem: model.ContextBench, Checkouts: source.NewCheckouts(source.CheckoutOptions{Repo: repo})})
		return set
	}
	lines := strings.SplitAfter(string(lead), "\n")
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(strings.Join(lines[:3], "")), 0o644)
	set := withRepo(openSet(t, path))
	for at, burst := 3, 1; at < len(lines); at, burst = at+burst, burst%7+1 {
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(strings.Join(lines[at:min(at+burst, len(lines))], ""))
		f.Close()
		got, err := set.Follow(1)
		for err == nil && set.Behind() {
			got, err = set.Follow(1)
		}
		want, _, werr := withRepo(openSet(t, path)).Open(1)
		if err != nil || werr != nil {
			t.Fatalf("line %d: followed %v, viewed %v", at, err, werr)
		}
		if got.A.Partial != nil {
			t.Fatal("read without its repository")
		}
		var a, b bytes.Buffer
		report.WriteRunJSON(&a, got)
		report.WriteRunJSON(&b, want)
		if a.String() != b.String() {
			t.Fatalf("line %d: followed and viewed differ:\n%.2000s\n%.2000s", at, a.String(), b.String())
		}
	}
}
