package codex

import (
	"fmt"
	"github.com/trajscope/trajscope/model"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// TestTailIsAWholeReading writes rollouts out in random bursts, a lead's
// and its sub-agents' (a child the same day, a grandchild the next, an
// unrelated session beside them) interleaved, half lines included, and
// checks after every burst that the followed reading is exactly the run a
// whole reading of the files gives then.
func TestTailIsAWholeReading(t *testing.T) {
	team := "testdata/sessions"
	lead := "2026/07/01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl"
	cases := map[string]struct{ dir, lead string }{
		"a team over two days": {team, lead},
		"rollout":              {"testdata", "rollout.jsonl"},
		"legacy":               {"testdata", "legacy.jsonl"},
		"exec events":          {"testdata", "exec.jsonl"},
		"real":                 {filepath.Dir(sharedRollout), filepath.Base(sharedRollout)},
		"siblings, ties":       {"", tiedLead},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			src := map[string][]string{}
			switch {
			case c.dir == "":
				src = tiedTeam()
			case c.dir == team:
				filepath.WalkDir(team, func(p string, d os.DirEntry, err error) error {
					if err == nil && !d.IsDir() {
						rel, _ := filepath.Rel(team, p)
						src[rel] = readLines(t, p)
					}
					return nil
				})
			default:
				src[c.lead] = readLines(t, filepath.Join(c.dir, c.lead))
			}
			for seed := range uint64(4) {
				dir := t.TempDir()
				files := map[string][]string{}
				for rel, ls := range src {
					files[filepath.Join(dir, rel)] = ls
				}
				path := filepath.Join(dir, c.lead)
				tail := NewTail(path)
				predtest.Follow(t, rand.New(rand.NewPCG(seed, 11)), files, path, tail.Read, predtest.WholeReading(path, ParseRuns))
				// The same files opened to be followed, read a few KB at
				// a time.
				os.RemoveAll(dir)
				bounded := NewTail(path)
				predtest.Bounded(t, files, int64(1+seed*1500), bounded.Bound, bounded.Behind, bounded.Read, predtest.WholeReading(path, ParseRuns))
			}
		})
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	if strings.TrimSpace(string(data)) == "" {
		t.Skipf("%s: empty", path)
	}
	return predtest.Lines(data)
}

const tiedLead = "2026/07/01/rollout-2026-07-01T12-00-00-aaaaaaaa-0000-4000-8000-000000000000.jsonl"

// tiedTeam is a lead that spawns three sub-agents (one of them spawning
// another), every record at the same second or with none, model calls
// counted before a rollout's first call and twice after each, a line in
// each that does not decode: the order
// a whole reading meets things in decides the agents' numbers, where
// each count goes, and the order of actions.
func tiedTeam() map[string][]string {
	id := func(n int) string { return fmt.Sprintf("aaaaaaaa-0000-4000-8000-%012d", n) }
	rec := func(k int, typ, payload string) string {
		ts := `"timestamp": "2026-07-01T12:00:00Z", `
		if k%4 == 3 {
			ts = ""
		}
		return fmt.Sprintf(`{%s"type": %q, "payload": %s}`+"\n", ts, typ, payload)
	}
	rollout := func(n, parent int, spawns []int, calls int) []string {
		src := `"cli"`
		if parent >= 0 {
			src = fmt.Sprintf(`{"subagent": {"thread_spawn": {"parent_thread_id": %q, "agent_role": "r%d"}}}`, id(parent), n)
		}
		out := []string{rec(0, "session_meta", fmt.Sprintf(`{"id": %q, "cwd": "/repo", "cli_version": "0.150.0", "source": %s}`, id(n), src))}
		count := func(k, total int) string {
			return rec(k, "event_msg", fmt.Sprintf(`{"type": "token_count", "info": {"last_token_usage": {"input_tokens": %d, "output_tokens": 1}, "total_token_usage": {"input_tokens": %d, "output_tokens": %d}}}`, k+1, total, k+1))
		}
		out = append(out, count(1, 1))
		for k := range calls {
			out = append(out,
				rec(k, "response_item", fmt.Sprintf(`{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "agent %d step %d"}]}`, n, k)),
				rec(k, "response_item", fmt.Sprintf(`{"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"sed -n '%d,%dp' a%d.py\"}", "call_id": "call_%d"}`, k+1, k+3, n, k)),
				count(k+2, 10*(k+2)), count(k+2, 10*(k+2)),
				rec(k, "response_item", fmt.Sprintf(`{"type": "function_call_output", "call_id": "call_%d", "output": "Process exited with code 0\nOutput:\nx\n"}`, k)))
			if k < len(spawns) {
				out = append(out,
					rec(k, "response_item", fmt.Sprintf(`{"type": "function_call", "name": "spawn_agent", "arguments": "{}", "call_id": "spawn_%d"}`, k)),
					rec(k, "response_item", fmt.Sprintf(`{"type": "function_call_output", "call_id": "spawn_%d", "output": "{\"agent_id\": \"%s\"}"}`, k, id(spawns[k]))))
			}
		}
		out = append(out, `{"type": "response_item", "payload": oops}`+"\n") // does not decode: warned
		return append(out, rec(1, "response_item", `{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}`))
	}
	name := func(n int) string { return "2026/07/01/rollout-2026-07-01T12-00-00-" + id(n) + ".jsonl" }
	return map[string][]string{
		tiedLead: rollout(0, -1, []int{3, 1, 2}, 6),
		name(1):  rollout(1, 0, []int{4}, 4),
		name(2):  rollout(2, 0, nil, 3),
		name(3):  rollout(3, 0, nil, 5),
		name(4):  rollout(4, 1, nil, 2),
	}
}

// BenchmarkTailAppendedLine is what reading a long rollout costs once a
// line is appended: "appended" follows it (Tail), "whole" reads it again
// (ParseRuns). A generated rollout of 10,000 shell calls that each print
// 60 numbered lines (about 24 MB), the last 2,000 lines appended one per
// reading.
func BenchmarkTailAppendedLine(b *testing.B) {
	var lines []string
	rec := func(typ, payload string) {
		lines = append(lines, fmt.Sprintf(`{"timestamp": "2026-07-01T12:00:00Z", "type": %q, "payload": %s}`+"\n", typ, payload))
	}
	rec("session_meta", `{"id": "bbbbbbbb-0000-4000-8000-000000000000", "cwd": "/repo", "cli_version": "0.150.0", "source": "cli"}`)
	var out strings.Builder
	for i := range 60 {
		fmt.Fprintf(&out, `%6d\tline %d of the file, as the agent saw it`+`\n`, i+1, i+1)
	}
	for k := range 10000 {
		rec("response_item", fmt.Sprintf(`{"type": "function_call", "name": "exec_command", "arguments": "{\"cmd\": \"nl -ba pkg/m%d.py | sed -n '1,60p'\"}", "call_id": "call_%d"}`, k%50, k))
		rec("event_msg", fmt.Sprintf(`{"type": "token_count", "info": {"last_token_usage": {"input_tokens": 100, "output_tokens": 5}, "total_token_usage": {"input_tokens": %d, "output_tokens": %d}}}`, 100*(k+1), 5*(k+1)))
		rec("response_item", fmt.Sprintf(`{"type": "function_call_output", "call_id": "call_%d", "output": "Process exited with code 0\nOutput:\n%s"}`, k, out.String()))
	}
	for _, mode := range []string{"appended", "whole"} {
		b.Run(mode, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "rollout-2026-07-01T12-00-00-bbbbbbbb-0000-4000-8000-000000000000.jsonl")
			read := NewTail(path).Read
			if mode == "whole" {
				read = predtest.WholeReading(path, ParseRuns)
			}
			predtest.BenchAppended(b, path, lines, len(lines)-2000, read)
		})
	}
}

// A followed rollout whose files change under it other than by growing
// (truncated, replaced, a sub-agent's rollout rewritten or removed) is
// read again from the start: the reading is still a whole one's.
func TestTailStartsOver(t *testing.T) {
	src := tiedTeam()
	child := "2026/07/01/rollout-2026-07-01T12-00-00-aaaaaaaa-0000-4000-8000-000000000001.jsonl"
	for _, c := range []struct {
		name   string
		change func(lead, child string)
	}{
		{"rollout truncated", func(lead, _ string) { os.WriteFile(lead, []byte(strings.Join(src[tiedLead][:6], "")), 0o644) }},
		{"rollout replaced", func(lead, _ string) {
			os.WriteFile(lead+".new", []byte(strings.Join(src[tiedLead][:9], "")), 0o644)
			os.Rename(lead+".new", lead)
		}},
		{"sub-agent's rewritten", func(_, path string) {
			os.WriteFile(path, []byte(strings.ReplaceAll(strings.Join(src[child][:8], ""), "a1.py", "b1.py")), 0o644)
		}},
		{"sub-agent's removed", func(_, path string) { os.Remove(path) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for rel, ls := range src {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755)
				os.WriteFile(filepath.Join(dir, rel), []byte(strings.Join(ls, "")), 0o644)
			}
			lead := filepath.Join(dir, tiedLead)
			tail := NewTail(lead)
			if _, err := tail.Read(); err != nil {
				t.Fatal(err)
			}
			c.change(lead, filepath.Join(dir, child))
			predtest.SameReading(t, tail.Read, predtest.WholeReading(lead, ParseRuns))
		})
	}
}

// Codex names an MCP server's tool server__tool: read as every agent's MCP
// tool, a call whose result shows numbered lines is a read of them.
func TestCodexMCPTool(t *testing.T) {
	rec := func(typ, payload string) string {
		return fmt.Sprintf(`{"timestamp": "2026-07-01T12:00:00Z", "type": %q, "payload": %s}`+"\n", typ, payload)
	}
	data := rec("session_meta", `{"id": "cccccccc-0000-4000-8000-000000000000", "cwd": "/repo", "cli_version": "0.150.0", "source": "cli"}`) +
		rec("response_item", `{"type": "function_call", "name": "codegraph__read_file", "arguments": "{\"path\": \"a.py\"}", "call_id": "c1"}`) +
		rec("response_item", `{"type": "function_call_output", "call_id": "c1", "output": "     7\tx = 1\n     8\ty = 2\n"}`)
	runs, err := ParseRuns("rollout.jsonl", []byte(data))
	if err != nil || len(runs) != 1 || len(runs[0].Actions) != 1 {
		t.Fatalf("runs %+v, %v", runs, err)
	}
	a := runs[0].Actions[0]
	if a.Tool != "mcp__codegraph__read_file" || a.Category != model.CategoryRead || len(a.Reads) != 1 || a.Reads[0].Start != 7 || a.Reads[0].End != 8 || len(runs[0].Unread) != 0 {
		t.Errorf("action %+v, unread %v", a, runs[0].Unread)
	}
}
