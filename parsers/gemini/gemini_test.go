package gemini

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

var load = predtest.Loader(ParseRuns, nil)

// TestSessionJSONL: a session of JSON lines replayed as Gemini CLI does (a
// message written again replaces itself, $rewindTo drops what follows,
// $set is metadata), its sub-agents' sessions read as agents of the run,
// one nested in another, and a half-written last line skipped with a
// warning.
func TestSessionJSONL(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/chats/session-2026-04-01T00-00-s-main.jsonl")
	if run.InstanceID != "s-main" || run.Model != "gemini-3-pro" || run.Task != "fix the parser" || run.Format != Name {
		t.Errorf("run %q %q %q %q", run.InstanceID, run.Model, run.Task, run.Format)
	}
	type act struct {
		tool  string
		agent int32
		reads []model.ObservedRead
	}
	rng := predtest.Range
	whole := func(f string) model.ObservedRead { return model.ObservedRead{File: f, Kind: model.ReadWhole} }
	want := []act{
		{"read_file", 0, rng("src/p.py", 10, 20)},
		{"codebase_investigator", 0, nil}, // when it was called, before what it ran
		{"read_many_files", 1, []model.ObservedRead{whole("src/p.py"), whole("src/README.md")}},
		{"generalist", 1, nil},
		{"glob", 2, nil},
		{"mystery_tool", 2, nil},
		{"complete_task", 1, nil},
		{"grep_search", 0, nil},
		{"run_shell_command", 0, rng("src/q.py", 1, 5)},
	}
	var got []act
	for _, a := range run.Actions {
		got = append(got, act{a.Tool, a.Agent, a.Reads})
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("actions:\n got %+v\nwant %+v", got, want)
	}
	agents := []model.Agent{{Parent: -1, Call: -1},
		{ID: "sub-1", Type: "codebase_investigator", Description: "Find where tokens are split", Parent: 0, Call: 1, Depth: 1},
		{ID: "sub-2", Type: "generalist", Description: "double-check", Parent: 1, Call: 3, Depth: 2}}
	if !reflect.DeepEqual(run.Agents, agents) {
		t.Errorf("agents:\n got %+v\nwant %+v", run.Agents, agents)
	}
	if a := run.Actions[0]; a.Usage != model.NewUsage(60, 15, 40, 0) {
		t.Errorf("usage %+v", a.Usage)
	}
	if a := run.Actions[8]; !a.ExitKnown || a.ExitCode != 0 || run.Observation(8) != "a\nb\nc\nd\ne" {
		t.Errorf("shell: exit %v %d, output %q", a.ExitKnown, a.ExitCode, run.Observation(8))
	}
	if !reflect.DeepEqual(run.Unread, map[string]int{"tool:mystery_tool": 1}) {
		t.Errorf("unread %v", run.Unread)
	}
	if len(run.Warnings) != 1 || !strings.HasPrefix(run.Warnings[0], "line 11 skipped: ") {
		t.Errorf("warnings %q", run.Warnings)
	}
}

func TestSniff(t *testing.T) {
	for head, want := range map[string]bool{
		`{"sessionId":"a","projectHash":"b","messages":[]}`:                 true,
		"{\"sessionId\":\"a\",\"projectHash\":\"b\",\"kind\":\"main\"}\n{}": true,
		`{"sessionId":"a","type":"user","message":{"role":"user"}}`:         false,
		`[{"sessionId":"a","projectHash":"b"}]`:                             false,
	} {
		if Sniff("x", []byte(head)) != want {
			t.Errorf("Sniff(%s) = %v", head, !want)
		}
	}
}

// BenchmarkRewinds reads a JSON-lines session of 40,000 messages, each
// model message rewound once and written again (17 MB): a rewind finds its
// message at once (issue 48 #12: quadratic, 7 s for 10 MB).
func BenchmarkRewinds(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"sessionId": "g", "projectHash": "ab", "startTime": "2026-01-01T00:00:00Z"}` + "\n")
	for k := range 40000 {
		typ := "user"
		if k%2 == 1 {
			typ = "gemini"
		}
		m := fmt.Sprintf(`{"id": "m%d", "type": %q, "timestamp": "2026-01-01T00:00:00Z", "content": %q}`+"\n", k, typ, strings.Repeat("x", 200))
		sb.WriteString(m)
		if k%2 == 1 {
			fmt.Fprintf(&sb, `{"$rewindTo": "m%d"}`+"\n", k)
			sb.WriteString(m)
		}
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParseRuns("session-2026-01-01T00-00-g.jsonl", data); err != nil {
			b.Fatal(err)
		}
	}
}
