package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, nil)

func load1(t *testing.T, path string) model.Run {
	t.Helper()
	return predtest.LoadOne(t, load, path)
}

var rng = predtest.Range

// TestStreamJSON covers the stream-json rules on testdata/stream.jsonl:
// stderr noise skipped, Read offset/limit checked against "N→" output,
// Grep and Glob as search hits, a sub-agent's calls (parent_tool_use_id)
// marked Sidechain, usage counted once per message.id, and a raw U+2028
// inside records that must not split them.
func TestStreamJSON(t *testing.T) {
	run := load1(t, "testdata/stream.jsonl")
	if run.Format != Name || run.Model != "claude-haiku-4-5-20251001" || run.InstanceID != "s-1" {
		t.Fatalf("run = %q %q %q", run.Format, run.Model, run.InstanceID)
	}
	type want struct {
		tool     string
		cat      model.Category
		reads    []model.ObservedRead
		searches []model.SearchHit
		edits    []string
		side     bool
		usage    model.Usage
	}
	wants := []want{
		{"Read", model.CategoryRead, rng("pkg/a.py", 10, 12), nil, nil, false, model.Usage{InputTokens: 3, OutputTokens: 10, CacheRead: 100, CacheWrite: 50}},
		{"Grep", model.CategorySearch, nil, []model.SearchHit{{File: "pkg/a.py"}, {File: "pkg/b.py"}}, nil, false, model.Usage{InputTokens: 4, OutputTokens: 20, CacheRead: 200}},
		{"Glob", model.CategorySearch, nil, []model.SearchHit{{File: "pkg/c.py"}}, nil, false, model.Usage{}},
		{"Task", model.CategoryOther, nil, nil, nil, false, model.Usage{InputTokens: 1, OutputTokens: 7, CacheRead: 300}},
		{"Read", model.CategoryRead, rng("pkg/b.py", 1, 2), nil, nil, true, model.Usage{InputTokens: 2, OutputTokens: 9, CacheRead: 50, CacheWrite: 10}},
		{"Bash", model.CategoryRead, rng("pkg/a.py", 1, 5), nil, nil, false, model.Usage{InputTokens: 5, OutputTokens: 11, CacheRead: 400}},
		// msg_E's; the final text-only msg_F, after the last call, is the
		// run's own (RestUsage).
		{"Edit", model.CategoryEdit, nil, nil, []string{"pkg/a.py"}, false, model.Usage{InputTokens: 6, OutputTokens: 12, CacheRead: 500}},
	}
	if run.RestUsage != (model.Usage{InputTokens: 7, OutputTokens: 13, CacheRead: 600}) {
		t.Errorf("rest usage %+v, want msg_F's", run.RestUsage)
	}
	if len(run.Actions) != len(wants) {
		t.Fatalf("%d actions, want %d", len(run.Actions), len(wants))
	}
	for i, w := range wants {
		a := run.Actions[i]
		if int(a.Index) != i || a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) ||
			!reflect.DeepEqual(a.Searches, w.searches) || !reflect.DeepEqual(a.Edits, w.edits) || a.Sidechain() != w.side || a.Usage != w.usage {
			t.Errorf("action %d = %+v\nwant %+v", i, a, w)
		}
	}
	if got := run.Thought(0); got != "Let me look at a.py." {
		t.Errorf("thought 0 = %q", got)
	}
	if got := run.Thought(5); got != "line one\u2028line two" {
		t.Errorf("thought 5 = %q (U+2028 record split?)", got)
	}
	if !strings.Contains(run.Observation(5), "b\u2028still line 2") {
		t.Errorf("observation 5 = %q", run.Observation(5))
	}
	// Steps: the three actions that displayed lines.
	p := run.Prediction
	if len(p.Steps) != 3 || !reflect.DeepEqual(run.Actions[4].Steps, []int{1}) || p.InstanceID != "s-1" {
		t.Fatalf("steps = %+v, links %v", p.Steps, run.Actions[4].Steps)
	}
	// The Read of /workspace/pkg/a.py and the shell's pkg/a.py are one file
	// of the session's working directory (/workspace).
	wantFinal := model.Step{
		Files: []string{"pkg/a.py", "pkg/b.py"},
		Spans: []model.FileSpans{
			{File: "pkg/a.py", Spans: []model.Interval{{Start: 1, End: 5}, {Start: 10, End: 12}}},
			{File: "pkg/b.py", Spans: []model.Interval{{Start: 1, End: 2}}},
		},
	}
	if !reflect.DeepEqual(p.Final, wantFinal) {
		t.Fatalf("final = %+v", p.Final)
	}
}

// TestSession covers the native session JSONL: "N\t" numbering with the
// structured toolUseResult, a record repeated by a resumed session (same
// uuid), isSidechain, Grep content hits with lines, usage deduplicated by
// message.id when the second line has the larger count, an error result
// (no read), and a half-written last line.
func TestSession(t *testing.T) {
	run := load1(t, "testdata/session.jsonl")
	if run.InstanceID != "sess-1" || run.Model != "claude-opus-5" {
		t.Fatalf("run = %q %q", run.InstanceID, run.Model)
	}
	if len(run.Actions) != 3 {
		t.Fatalf("%d actions, want 3 (the repeated record must not count)", len(run.Actions))
	}
	a := run.Actions
	if !reflect.DeepEqual(a[0].Reads, rng("src/m.py", 5, 8)) || a[0].Sidechain() || a[0].Timestamp != 1785956358 {
		t.Errorf("action 0 = %+v", a[0])
	}
	if a[0].Usage != (model.Usage{InputTokens: 2, OutputTokens: 40, CacheRead: 1000, CacheWrite: 100}) {
		t.Errorf("usage 0 = %+v", a[0].Usage)
	}
	if !a[1].Sidechain() || a[1].Category != model.CategorySearch || !reflect.DeepEqual(a[1].Reads, rng("src/m.py", 7, 7)) ||
		!reflect.DeepEqual(a[1].Searches, []model.SearchHit{{File: "src/m.py", Line: 7}}) {
		t.Errorf("action 1 = %+v", a[1])
	}
	// msg_3 is split over two lines with output 5 then 30: counted once, as 30.
	if a[2].Usage != (model.Usage{InputTokens: 3, OutputTokens: 30, CacheRead: 2000}) || run.Thought(2) != "Now n.py." {
		t.Errorf("action 2 = %+v", a[2])
	}
	if a[2].Reads != nil || a[2].Category != model.CategoryRead {
		t.Errorf("error read = %+v", a[2])
	}
}

// TestSubagentFiles: sub-agent transcripts beside a session file are merged
// by time and marked Sidechain.
func TestSubagentFiles(t *testing.T) {
	run := load1(t, "testdata/withsub/sess-9.jsonl")
	var got []string
	for _, a := range run.Actions {
		got = append(got, a.Tool+map[bool]string{true: "*", false: ""}[a.Sidechain()])
	}
	if strings.Join(got, ",") != "Task,Read*,Read" {
		t.Fatalf("actions = %v", got)
	}
	if !reflect.DeepEqual(run.Actions[1].Reads, rng("/app/y.py", 3, 4)) || run.Actions[1].Index != 1 {
		t.Fatalf("sub read = %+v", run.Actions[1])
	}
	// Nothing names the Task call that started the agent (its result says
	// no agent id): the one Task call before the agent's first action is.
	if len(run.Agents) != 2 || run.Agents[1].Call != 0 || run.Agents[1].Parent != 0 {
		t.Errorf("agents = %+v, want the sub-agent under the Task call (action 1)", run.Agents)
	}
}

func TestJSONArray(t *testing.T) {
	// The array holds the first records of stream.jsonl: the init, msg_A's
	// two lines with the Read and its result, and msg_B's Grep (no result).
	run := load1(t, "testdata/array.json")
	if len(run.Actions) != 2 || !reflect.DeepEqual(run.Actions[0].Reads, rng("pkg/a.py", 10, 12)) ||
		run.Actions[1].Tool != "Grep" || run.Actions[1].Searches != nil {
		t.Fatalf("actions = %+v", run.Actions)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"bad.jsonl":   "{\"type\": \"assistant\", oops}\n{\"type\": \"assistant\", oops}\n",
		"other.jsonl": "{\"instance_id\": \"x\", \"traj_data\": {}}\n",
		"array.json":  "[{\"type\": \"assistant\"}, 3]",
		"empty.jsonl": "\n\n",
	}
	wants := map[string]string{
		"bad.jsonl":   "bad.jsonl:1:23: invalid JSON: expected a string key",
		"other.jsonl": "no Claude Code records",
		"array.json":  "record 1: expected a JSON object",
		"empty.jsonl": "no Claude Code records",
	}
	for name, body := range cases {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := load(p)
		if err == nil || !strings.Contains(err.Error(), wants[name]) {
			t.Errorf("%s: err = %v, want %q", name, err, wants[name])
		}
	}
}

// One malformed line (a corrupt record, a half-written last line) is
// skipped with a warning naming it; the rest of the session is read.
func TestMalformedLineSkipped(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	body := `{"type":"system","subtype":"init","session_id":"s-2"}` + "\n" +
		`{"type": "assistant", oops}` + "\n" +
		`{"type":"assistant","message":{"id":"m1","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a.py"}}]}}` + "\n" +
		`{"type":"user","message":{"content":[{"type":"tool_res`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	run := load1(t, p)
	if len(run.Actions) != 1 || run.Actions[0].Tool != "Read" {
		t.Fatalf("actions %+v", run.Actions)
	}
	if len(run.Warnings) != 2 || !strings.HasPrefix(run.Warnings[0], "line 2 skipped: "+p+":2:23: invalid JSON") ||
		!strings.HasPrefix(run.Warnings[1], "line 4 skipped: ") {
		t.Errorf("warnings %q", run.Warnings)
	}
}

func TestSniff(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Skip(err)
		}
		if len(b) > 64<<10 {
			b = b[:64<<10]
		}
		return b
	}
	for _, p := range []string{"testdata/stream.jsonl", "testdata/session.jsonl", "testdata/array.json"} {
		if !Sniff("renamed.txt", read(p)) {
			t.Errorf("Sniff(%s) = false", p)
		}
	}
	for _, s := range []string{
		`{"instance_id": "a", "traj_data": {"pred_steps": []}}`,
		`{"schema_version": "ATIF-v1.7", "steps": [{"source": "user", "message": {"type": "user"}}]}`,
		`{"info": {}, "messages": [{"role": "user", "content": "x"}], "trajectory_format": "mini-swe-agent-1"}`,
		`{"instance_id": "x", "history": [{"action": "read"}]}`,
		"plain text",
	} {
		if Sniff("x.jsonl", []byte(s)) {
			t.Errorf("Sniff(%.40s) = true", s)
		}
	}
}

// TestRealSession loads the real native session sample (Claude Code
// 2.1.222, Harbor's hello-world task). Counted by hand in
// data/formats/claude-code/d7d4e19e-….jsonl: of its 10 lines, line 7 is the
// only assistant record with a tool_use (Write /app/hello.txt), line 8 its
// result, line 9 a text-only answer; lines 1-2 are queue operations, 3 the
// prompt, 4-6 attachments, 10 last-prompt. So one action, which reads
// nothing and edits /app/hello.txt. The file has no Read, Grep or Bash, so
// observed reads of three actions are checked on the ATIF export of a
// larger run instead (parsers/atif TestRealTrajectoryPass).
func TestRealSession(t *testing.T) {
	path := "../../../shared/data/formats/claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl"
	predtest.NeedFile(t, path)
	run := load1(t, path)
	if len(run.Actions) != 1 {
		t.Fatalf("%d actions, want 1", len(run.Actions))
	}
	a := run.Actions[0]
	if a.Tool != "Write" || a.Category != model.CategoryEdit || !reflect.DeepEqual(a.Edits, []string{"hello.txt"}) || a.Reads != nil {
		t.Fatalf("action = %+v", a)
	}
	// Lines 7 and 9 are two messages (msg_011Cdk7ekmbV…, msg_011Cdk7eyAy…):
	// input 2+2, output 82+25, cache read 13788+18905, cache write
	// 5117+119, the totals Harbor's ATIF export of the same session lists
	// in final_metrics. The second, after the one call, is the run's own.
	if got := a.Usage.Plus(run.RestUsage); got != (model.Usage{InputTokens: 4, OutputTokens: 107, CacheRead: 32693, CacheWrite: 5236}) ||
		a.Usage != (model.Usage{InputTokens: 2, OutputTokens: 82, CacheRead: 13788, CacheWrite: 5117}) {
		t.Fatalf("usage = %+v, rest %+v", a.Usage, run.RestUsage)
	}
	if run.InstanceID != "d7d4e19e-608d-44ef-b166-cd050ef274ba" || run.Model != "claude-opus-5" || a.Timestamp == 0 {
		t.Fatalf("run = %q %q %v", run.InstanceID, run.Model, a.Timestamp)
	}
	if !Sniff(path, []byte(`{"parentUuid":null,"isSidechain":false,"type":"user","message":{}}`)) {
		t.Fatal("sniff")
	}
}

// TestTeam: a session's sub-agents are agents of the run, read from every
// place Claude Code keeps them: inline progress records (a sub-agent's
// sub-agent inside its progress), and transcripts in subagents/ tied to
// their Task call by the call's result, one nested in another. A forked
// transcript's repeat of the lead's history counts once; what the reader
// does not know is counted, not guessed.
func TestTeam(t *testing.T) {
	run := load1(t, "testdata/team/sess-t.jsonl")
	type act struct {
		tool  string
		agent int32
	}
	var got []act
	for _, a := range run.Actions {
		got = append(got, act{a.Tool, a.Agent})
	}
	want := []act{{"Read", 0}, {"Task", 0}, {"Read", 1}, {"Task", 1}, {"Grep", 2}, {"Task", 0},
		{"Read", 3}, {"Task", 3}, {"Glob", 4}, {"FrobnicateTool", 3}, {"Edit", 0}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("actions (tool, agent):\n got %v\nwant %v", got, want)
	}
	agents := []model.Agent{
		{Parent: -1, Call: -1},
		{ID: "e1", Type: "Explore", Description: "look around", Parent: 0, Call: 1, Depth: 1},
		{ID: "g1", Type: "general-purpose", Description: "dig", Parent: 1, Call: 3, Depth: 2},
		{ID: "f1", Type: "reviewer", Description: "review", Parent: 0, Call: 5, Depth: 1},
		{ID: "f2", Type: "Explore", Description: "deeper", Parent: 3, Call: 7, Depth: 2},
	}
	if !reflect.DeepEqual(run.Agents, agents) {
		t.Errorf("agents:\n got %+v\nwant %+v", run.Agents, agents)
	}
	if !reflect.DeepEqual(run.Actions[2].Reads, rng("/w/b.py", 5, 6)) || !reflect.DeepEqual(run.Actions[6].Reads, rng("/w/d.py", 1, 2)) {
		t.Errorf("sub-agent reads %+v %+v", run.Actions[2].Reads, run.Actions[6].Reads)
	}
	if want := map[string]int{"tool:FrobnicateTool": 1, "record:mystery-record": 1}; !reflect.DeepEqual(run.Unread, want) {
		t.Errorf("unread %v, want %v", run.Unread, want)
	}
	for i, a := range run.Actions {
		if int(a.Index) != i {
			t.Errorf("action %d has index %d", i, a.Index)
		}
	}
}

// Links to one sub-agent transcript are not read (64 links would read it
// 64 times); the transcript itself is, once.
func TestSubagentLinksNotRead(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/withsub/sess-9.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := os.ReadFile("testdata/withsub/sess-9/subagents/agent-x1.jsonl")
	os.WriteFile(filepath.Join(dir, "sess-9.jsonl"), src, 0o644)
	subs := filepath.Join(dir, "sess-9", "subagents")
	os.MkdirAll(subs, 0o755)
	os.WriteFile(filepath.Join(subs, "agent-x1.jsonl"), sub, 0o644)
	for i := range 64 {
		os.Symlink("agent-x1.jsonl", filepath.Join(subs, fmt.Sprintf("agent-l%02d.jsonl", i)))
	}
	once := predtest.LoadOne(t, load, "testdata/withsub/sess-9.jsonl")
	run := predtest.LoadOne(t, load, filepath.Join(dir, "sess-9.jsonl"))
	if len(run.Actions) != len(once.Actions) || len(run.Agents) != len(once.Agents) {
		t.Errorf("%d actions, %d agents; without the links %d, %d", len(run.Actions), len(run.Agents), len(once.Actions), len(once.Agents))
	}
	if len(run.Warnings) == 0 || !strings.Contains(strings.Join(run.Warnings, "\n"), "not a regular file") {
		t.Errorf("warnings %q", run.Warnings)
	}
}

// Tokens as Claude Code and ccusage count them (total = input + output +
// cache creation + cache read), on fixtures written in the shapes their
// records and ccusage's own fixtures take: records without a type (a
// message's role says which), one count per message id and request id
// (the line of the largest total kept; a sub-agent's replay of a message
// is that message), a run without a tool call, and the print mode's
// result usage as the session's own total.
func TestTokensAsTheAgentCounts(t *testing.T) {
	line := func(s string) string { return s + "\n" }
	usage := func(in, out, cw, cr int) string {
		return fmt.Sprintf(`"usage": {"input_tokens": %d, "output_tokens": %d, "cache_creation_input_tokens": %d, "cache_read_input_tokens": %d}`, in, out, cw, cr)
	}
	cases := []struct {
		name  string
		data  string
		total int
	}{
		{"records without a type, no tool call",
			line(`{"timestamp": "2026-02-01T10:00:00Z", "sessionId": "s", "message": {"role": "assistant", "id": "m1", "model": "claude-x", `+usage(120, 40, 30, 10)+`}, "requestId": "r1", "costUSD": 0.2}`) +
				line(`{"timestamp": "2026-02-01T11:00:00Z", "sessionId": "s", "message": {"role": "assistant", "id": "m2", "model": "claude-x", `+usage(210, 60, 0, 25)+`}, "requestId": "r2", "costUSD": 0.3}`),
			120 + 40 + 30 + 10 + 210 + 60 + 25},
		{"a message split over lines, counted once at its largest",
			line(`{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "a"}], `+usage(5, 1, 0, 100)+`}, "requestId": "r1"}`) +
				line(`{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}], `+usage(5, 9, 0, 100)+`}, "requestId": "r1"}`) +
				line(`{"type": "user", "sessionId": "s", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py"}]}}`) +
				// The same message id under another request: another count.
				line(`{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "b"}], `+usage(7, 3, 0, 0)+`}, "requestId": "r2"}`) +
				// A sidechain's replay of m1 with a new request id: m1 again.
				line(`{"type": "assistant", "sessionId": "s", "isSidechain": true, "message": {"role": "assistant", "id": "m1", "content": [{"type": "text", "text": "a"}], `+usage(5, 9, 0, 100)+`}, "requestId": "r9"}`),
			5 + 9 + 100 + 7 + 3},
		{"the print mode's result is the session's total",
			line(`{"type": "system", "subtype": "init", "session_id": "s", "model": "claude-x"}`) +
				line(`{"type": "assistant", "session_id": "s", "message": {"role": "assistant", "id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}], `+usage(3, 10, 0, 100)+`}}`) +
				line(`{"type": "user", "session_id": "s", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "a.py"}]}}`) +
				line(`{"type": "result", "subtype": "success", "session_id": "s", `+usage(9, 40, 20, 300)+`}`),
			9 + 40 + 20 + 300},
	}
	for _, c := range cases {
		path := filepath.Join(t.TempDir(), "s.jsonl")
		os.WriteFile(path, []byte(c.data), 0o644)
		runs, err := ParseRuns(path, []byte(c.data))
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		u := runs[0].RestUsage
		for _, a := range runs[0].Actions {
			u = u.Plus(a.Usage)
		}
		if got := total(u); got != c.total {
			t.Errorf("%s: %d tokens (%+v), want %d", c.name, got, u, c.total)
		}
	}
}

// Text or binary between records (a CLI's stderr teed into the file) is
// skipped and named, as a malformed record is (issue 48 #14).
func TestNotJSONLinesNamed(t *testing.T) {
	data := `{"type": "user", "uuid": "u0", "sessionId": "s", "message": {"role": "user", "content": "go"}}` + "\n" +
		"Error: rate limited, retrying\n" + "\x00\x01\xff\xfe\n" +
		`{"type": "assistant", "uuid": "a1", "sessionId": "s", "message": {"role": "assistant", "id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]}}` + "\n"
	runs, err := ParseRuns(filepath.Join(t.TempDir(), "s.jsonl"), []byte(data))
	if err != nil || len(runs[0].Actions) != 1 {
		t.Fatalf("%v %+v", err, runs)
	}
	w := strings.Join(runs[0].Warnings, "\n")
	if !strings.Contains(w, `line 2 skipped: not a JSON record (text: "Error: rate limited, retrying")`) || !strings.Contains(w, "line 3 skipped: not a JSON record (4 bytes of binary data)") {
		t.Errorf("warnings:\n%s", w)
	}
}

// BenchmarkUntiedAgents reads a session of 4,000 Task calls and 4,000
// sidechain agents no result names, each tied (or not) by time and type
// (issue 48 #7: cubic, 2,000 agents 12 s).
func BenchmarkUntiedAgents(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "go"}}` + "\n")
	for k := range 4000 {
		fmt.Fprintf(&sb, `{"type": "assistant", "uuid": "L%d", "sessionId": "s", "timestamp": "2026-01-01T00:00:01Z", "message": {"role": "assistant", "id": "L%d", "content": [{"type": "tool_use", "id": "T%d", "name": "Task", "input": {"description": "d", "subagent_type": "Explore", "prompt": "p"}}]}}`+"\n", k, k, k)
	}
	for k := range 4000 {
		fmt.Fprintf(&sb, `{"type": "assistant", "uuid": "a%d", "sessionId": "s", "isSidechain": true, "agentId": "ag%d", "timestamp": "2026-01-01T00:00:02Z", "message": {"role": "assistant", "id": "m%d", "content": [{"type": "tool_use", "id": "t%d", "name": "Bash", "input": {"command": "ls"}}]}}`+"\n", k, k, k, k)
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseRuns("s.jsonl", data); err != nil {
			b.Fatal(err)
		}
	}
}

// TestTaskIsTheFirstPrompt: the task is what the user asked first, a slash
// command as typed; Claude Code's own records and housekeeping commands
// are not. The shapes are Claude Code's: a command record, then the
// expanded prompt as an isMeta record.
func TestTaskIsTheFirstPrompt(t *testing.T) {
	n := 0
	user := func(content string, meta bool) string {
		n++
		b, _ := json.Marshal(map[string]any{"type": "user", "uuid": fmt.Sprint("u", n), "sessionId": "s", "isMeta": meta,
			"message": map[string]any{"role": "user", "content": content}})
		return string(b) + "\n"
	}
	cases := []struct {
		name, data, want string
	}{
		{"prompt", user("Fix the flaky test in a.py", false), "Fix the flaky test in a.py"},
		{"slash command with args",
			user("<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>12</command-args>", false) +
				user("Review pull request 12 of this repository and report issues.", true) +
				user("now also check the docs", false),
			"/review 12"},
		{"slash command without args",
			user("<command-name>/init</command-name>\n<command-message>init</command-message>\n<command-args></command-args>", false) +
				user("Please analyze this codebase and create a CLAUDE.md", true),
			"/init"},
		{"housekeeping first",
			user("Caveat: The messages below were generated by the user while running local commands.", true) +
				user("<command-name>/model</command-name>\n<command-message>model</command-message>\n<command-args></command-args>", false) +
				user("<local-command-stdout>Set model to opus</local-command-stdout>", false) +
				user("Add a --dry-run flag", false),
			"Add a --dry-run flag"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs, err := ParseRuns(filepath.Join(t.TempDir(), "s.jsonl"), []byte(c.data))
			if err != nil {
				t.Fatal(err)
			}
			if runs[0].Task != c.want {
				t.Errorf("task %q, want %q", runs[0].Task, c.want)
			}
		})
	}
}
