package codex

import (
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

var load = predtest.Loader(ParseRuns, nil)

const sharedRollout = "../../../shared/data/formats/codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl"

// want is what one action must be.
type want struct {
	tool    string
	cmd     string
	cat     model.Category
	reads   []model.ObservedRead
	hits    []model.SearchHit
	edits   []string
	failure string // a piece of it; "" for none
	usage   model.Usage
	thought string
}

func check(t *testing.T, run model.Run, wants []want) {
	t.Helper()
	if len(run.Actions) != len(wants) {
		for i, a := range run.Actions {
			t.Logf("%d: %s %q %v", i, a.Tool, a.Command, a.Category)
		}
		t.Fatalf("%d actions, want %d", len(run.Actions), len(wants))
	}
	for i, w := range wants {
		a := run.Actions[i]
		if a.Tool != w.tool || a.Command != w.cmd || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) ||
			!reflect.DeepEqual(a.Searches, w.hits) || !reflect.DeepEqual(a.Edits, w.edits) || a.Usage != w.usage ||
			(w.failure == "") != (a.Failure == "") || !strings.Contains(a.Failure, w.failure) || run.Thought(i) != w.thought {
			t.Errorf("action %d:\n got %q %q %v reads %v hits %v edits %v failure %q usage %+v thought %q\nwant %+v",
				i, a.Tool, a.Command, a.Category, a.Reads, a.Searches, a.Edits, a.Failure, a.Usage, run.Thought(i), w)
		}
	}
}

// The current rollout: shell calls (argv and string forms) read as shell
// commands are, outputs in the {"output", "metadata"} document and in the
// "Exit code:" text, apply_patch as a custom tool and as a shell heredoc,
// usage from token_count on the call it paid for, paths under the
// session's cwd made relative, and a half-written last line dropped.
func TestRollout(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/rollout.jsonl")
	if run.Format != Name || run.Agent != "codex 0.63.0" || run.Model != "gpt-5-codex" || run.InstanceID != "rollout" {
		t.Errorf("run %q %q %q %q", run.Format, run.Agent, run.Model, run.InstanceID)
	}
	check(t, run, []want{
		{tool: "shell", cmd: "sed -n '10,20p' pkg/mod.py", cat: model.CategoryRead, reads: predtest.Range("pkg/mod.py", 10, 20),
			usage: model.Usage{InputTokens: 200, OutputTokens: 50, CacheRead: 1000}, thought: "**Looking at the module**"},
		{tool: "shell_command", cmd: `rg -n "def run" /work/proj/pkg`, cat: model.CategorySearch,
			reads: predtest.Range("pkg/mod.py", 42, 42), hits: []model.SearchHit{{File: "pkg/mod.py", Line: 42}}},
		// A failed cat showed nothing: no read.
		{tool: "shell", cmd: "cat missing.py", cat: model.CategoryRead, failure: "exit 1: cat: missing.py: No such file"},
		{tool: "apply_patch", cmd: run.Actions[3].Command, cat: model.CategoryEdit, edits: []string{"pkg/mod.py"},
			usage: model.Usage{InputTokens: 500, OutputTokens: 80, CacheRead: 1500}},
		{tool: "shell", cmd: run.Actions[4].Command, cat: model.CategoryEdit, edits: []string{"pkg/new.py"}, thought: "Fixed."},
	})
	if run.Observation(0) != "x = 10\ny = 11\n" || run.Observation(1) != "/work/proj/pkg/mod.py:42:def run():\n" {
		t.Errorf("outputs %q, %q", run.Observation(0), run.Observation(1))
	}
	if run.Actions[0].Timestamp == 0 || !run.Actions[0].ExitKnown || run.Actions[2].ExitCode != 1 {
		t.Errorf("times and exits: %+v", run.Actions[:3])
	}
}

// The legacy rollout of early 2025: a header line, items without a
// wrapper, state records between them, local_shell_call.
func TestLegacyRollout(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/legacy.jsonl")
	check(t, run, []want{
		{tool: "shell", cmd: "grep -rn 'def run' pkg", cat: model.CategorySearch, reads: predtest.Range("pkg/mod.py", 42, 42),
			hits: []model.SearchHit{{File: "pkg/mod.py", Line: 42}}, thought: "Search first"},
		{tool: "local_shell", cmd: "head -n 5 pkg/mod.py", cat: model.CategoryRead, reads: []model.ObservedRead{{File: "pkg/mod.py", Kind: model.ReadHead, Start: 1, End: 5}}},
	})
}

// `codex exec --json`: commands unwrapped from bash -lc in both quoting
// styles, a declined command marked as not run, a failed one, a
// file_change as an edit, the turn's usage on its last action.
func TestExecJSON(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/exec.jsonl")
	check(t, run, []want{
		{tool: "shell", cmd: "sed -n '1,5p' pkg/mod.py", cat: model.CategoryRead, reads: predtest.Range("pkg/mod.py", 1, 5), thought: "**Reading the module**"},
		{tool: "shell", cmd: "nl -ba pkg/mod.py | sed -n '3,4p'", cat: model.CategoryRead, reads: predtest.Range("pkg/mod.py", 3, 4)},
		{tool: "shell", cmd: "rm -rf build", cat: model.CategoryEdit, failure: "not run: the command was declined"},
		{tool: "shell", cmd: "cat nope.py", cat: model.CategoryRead, failure: "exit 1: cat: nope.py"},
		{tool: "file_change", cmd: "apply patch: update pkg/mod.py, add pkg/extra.py", cat: model.CategoryEdit, edits: []string{"pkg/mod.py", "pkg/extra.py"},
			usage: model.Usage{InputTokens: 1000, OutputTokens: 300, CacheRead: 4000}},
	})
}

// The real rollout of ../shared (skipped without it): every shell call an
// action, its reads and searches, the edits of its apply_patch heredocs.
func TestSharedRollout(t *testing.T) {
	predtest.NeedFile(t, sharedRollout)
	run := predtest.LoadOne(t, load, sharedRollout)
	if len(run.Actions) != 39 || run.Model != "gpt-5.1-codex" || run.Agent != "codex 0.58.0" {
		t.Fatalf("%d actions, model %q, agent %q", len(run.Actions), run.Model, run.Agent)
	}
	cats := map[model.Category]int{}
	var usage model.Usage
	for _, a := range run.Actions {
		cats[a.Category]++
		usage = usage.Plus(a.Usage)
	}
	if cats[model.CategoryRead] != 18 || cats[model.CategorySearch] != 17 || cats[model.CategoryEdit] != 2 || cats[model.CategoryOther] != 2 {
		t.Errorf("categories %v", cats)
	}
	if a := run.Actions[1]; a.Command != "cat 'LM Studio configuration.md'" || !reflect.DeepEqual(a.Reads, []model.ObservedRead{{File: "LM Studio configuration.md", Kind: model.ReadRange, Start: 1, End: 55}}) {
		t.Errorf("action 2: %q %v", a.Command, a.Reads)
	}
	if a := run.Actions[37]; !reflect.DeepEqual(a.Edits, []string{"components/chat/chat-helpers/index.ts"}) {
		t.Errorf("action 38 edits %v", a.Edits)
	}
	if a := run.Actions[20]; a.ExitCode != 2 || !strings.Contains(a.Failure, "No such file") {
		t.Errorf("action 21: exit %d, %q", a.ExitCode, a.Failure)
	}
	// Each count is written twice, and the first comes before any call:
	// the run's usage is the rollout's own last running total.
	if want := (model.Usage{InputTokens: 1099261 - 1027328, OutputTokens: 22305, CacheRead: 1027328}); usage != want {
		t.Errorf("usage %+v, want the rollout's total %+v", usage, want)
	}
	if len(run.Prediction.Steps) == 0 {
		t.Error("no ContextBench steps declared from the reads")
	}
}

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		name, head string
		want       bool
	}{
		{"rollout", `{"timestamp":"t","type":"session_meta","payload":{"id":"x"}}`, true},
		{"rollout item first", `{"timestamp":"t","type":"response_item","payload":{"type":"message"}}`, true},
		{"exec", "{\"type\":\"thread.started\",\"thread_id\":\"x\"}\n{\"type\":\"turn.started\"}", true},
		{"legacy", "{\"id\":\"x\",\"timestamp\":\"t\",\"instructions\":\"\"}\n{\"record_type\":\"state\"}", true},
		{"legacy without header", "{\"record_type\":\"state\"}", false},
		{"claude code", `{"type":"user","message":{"content":"hi"},"sessionId":"s"}`, false},
		{"unified", `{"instance_id":"a","traj_data":{"pred_steps":[]},"type":"response_item","payload":{}}`, false},
		{"text", "type: session_meta", false},
	} {
		if got := Sniff("f.jsonl", []byte(c.head)); got != c.want {
			t.Errorf("%s: Sniff = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	predtest.LoadErrors(t, load, "bad.jsonl", [][2]string{
		{"{not json}\n{not json either}\n", "bad.jsonl:1:2: invalid JSON"},
		{`{"type":"something"}` + "\n", "no Codex records"},
	})
}

func FuzzCodex(f *testing.F) {
	for _, p := range []string{"testdata/rollout.jsonl", "testdata/legacy.jsonl", "testdata/exec.jsonl"} {
		f.Add(predtest.ReadFile(f, p))
	}
	f.Add([]byte(`{"type":"item.completed","item":{"type":"command_execution","command":"bash -lc '\\''","exit_code":1e99}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := parse("fuzz.jsonl", data)
		if err != nil {
			return
		}
		if err := predtest.CheckRun(&run); err != nil {
			t.Fatal(err)
		}
	})
}

// A rollout of Codex 0.147+: item_completed events enriching the calls
// they repeat (parsed_cmd where the shell reading knows nothing) or adding
// their own (a user shell command, a file change), a Code Mode script's
// commands one action each, and the threads it spawned read from their
// rollouts beside it (one nested, one in the next day's folder) as agents;
// an unrelated rollout left alone, an unknown item counted, a half-written
// line skipped.
func TestRollout0150(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/sessions/2026/07/01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl")
	type act struct {
		cmd   string
		agent int32
		reads []model.ObservedRead
	}
	rng := predtest.Range
	want := []act{
		// A whole file is what the command printed of it (one line here).
		{"bat src/cache.rs", 0, []model.ObservedRead{{File: "src/cache.rs", Kind: model.ReadRange, Start: 1, End: 1}}},
		{"nl -ba src/lru.rs | sed -n '5,9p'", 0, rng("src/lru.rs", 5, 9)},
		{"sed -n '1,3p' src/map.rs", 0, rng("src/map.rs", 1, 3)},
		{`rg -n "evict" src`, 0, rng("src/lru.rs", 7, 7)},
		{`spawn_agent message="Check eviction" task_name="audit"`, 0, nil},
		{"sed -n '20,30p' src/lru.rs", 1, rng("src/lru.rs", 20, 30)},
		{`spawn_agent message="dig"`, 1, nil},
		{"apply patch: src/cache.rs", 0, nil},
		{"cat src/map.rs", 2, []model.ObservedRead{{File: "src/map.rs", Kind: model.ReadRange, Start: 1, End: 1}}},
	}
	var got []act
	for _, a := range run.Actions {
		got = append(got, act{a.Command, a.Agent, a.Reads})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("actions:\n got %+v\nwant %+v", got, want)
	}
	agents := []model.Agent{{Parent: -1, Call: -1},
		{ID: "22222222-2222-4222-8222-222222222222", Type: "auditor", Parent: 0, Call: 4, Depth: 1},
		{ID: "33333333-3333-4333-8333-333333333333", Type: "digger", Parent: 1, Call: 6, Depth: 2}}
	if !reflect.DeepEqual(run.Agents, agents) {
		t.Errorf("agents:\n got %+v\nwant %+v", run.Agents, agents)
	}
	if run.Task != "Explain why the cache misses." || run.Model != "gpt-5.5-codex" || run.Agent != "codex 0.150.0" {
		t.Errorf("run %q %q %q", run.Task, run.Model, run.Agent)
	}
	if !reflect.DeepEqual(run.Unread, map[string]int{"item:Teleport": 1}) || len(run.Warnings) != 1 {
		t.Errorf("unread %v warnings %q", run.Unread, run.Warnings)
	}
}

func TestCodeModeCommands(t *testing.T) {
	for src, want := range map[string][]string{
		`text(await tools.exec_command({cmd:"git push"}));`:                                  {"git push"},
		"await tools.exec_command({ cmd: 'echo \"hi\" \\'x\\'' , yield_time_ms: 9 })":        {`echo "hi" 'x'`},
		"await tools.exec_command({cmd: `ls -la`}); await tools.exec_command({cmd: `${x}`})": {"ls -la"},
		`const r = await tools.exec_command({cmd: command});`:                                nil,
		`await tools.exec_command({cmd: "a\nb \u00e9"})`:                                     {"a\nb é"},
	} {
		if got := codeModeCommands(src); !reflect.DeepEqual(got, want) {
			t.Errorf("codeModeCommands(%q) = %q, want %q", src, got, want)
		}
	}
}

// FuzzTail holds the followed reading to the whole one on any input.
func FuzzTail(f *testing.F) {
	predtest.FuzzTail(f, "rollout-x.jsonl", func(path string) func() ([]model.Run, error) { return NewTail(path).Read },
		ParseRuns, "testdata/rollout.jsonl", "testdata/legacy.jsonl", "testdata/exec.jsonl")
}
