package claudecode

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// session is a Claude Code session to write out in bursts: the lead's
// lines and each sub-agent transcript's (with its .meta.json, if any).
type session struct {
	id    string
	lead  []string
	subs  map[string][]string // by file name
	metas map[string][]byte
}

// sessionAt reads a session file and the sub-agent folder beside it.
func sessionAt(t *testing.T, path string) session {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	s := session{id: strings.TrimSuffix(filepath.Base(path), ".jsonl"), lead: predtest.Lines(data), subs: map[string][]string{}, metas: map[string][]byte{}}
	dir := filepath.Join(strings.TrimSuffix(path, ".jsonl"), "subagents")
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(e.Name(), ".meta.json") {
			s.metas[e.Name()] = b
		} else {
			s.subs[e.Name()] = predtest.Lines(b)
		}
	}
	return s
}

// TestTailIsAWholeReading writes sessions out in random bursts, the lead's
// and its sub-agents' lines interleaved (a transcript appearing when its
// first burst comes), and checks after every burst that the followed
// reading is exactly the run a whole reading of the files gives then:
// actions, agents, usage and thoughts in the same order.
func TestTailIsAWholeReading(t *testing.T) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 200})
	lead, subs := gen.ClaudeSession(400, 5)
	generated := session{id: "bench", lead: predtest.Lines(lead), subs: map[string][]string{}}
	for id, b := range subs {
		generated.subs["agent-"+id+".jsonl"] = predtest.Lines(b)
	}
	cases := map[string]func(*testing.T) session{
		"ties and text-only messages":  func(*testing.T) session { return tied() },
		"one file out of time order":   func(*testing.T) session { return outOfOrder() },
		"generated, 5 sub-agent files": func(*testing.T) session { return generated },
		"team":                         func(t *testing.T) session { return sessionAt(t, "testdata/team/sess-t.jsonl") },
		"with a sub-agent":             func(t *testing.T) session { return sessionAt(t, "testdata/withsub/sess-9.jsonl") },
		"stream-json":                  func(t *testing.T) session { return sessionAt(t, "testdata/stream.jsonl") },
		"session":                      func(t *testing.T) session { return sessionAt(t, "testdata/session.jsonl") },
		"real, progress records": func(t *testing.T) session {
			return sessionAt(t, "../../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-78332696ed94-0.full.jsonl")
		},
		"real, native": func(t *testing.T) session {
			return sessionAt(t, "../../../shared/data/formats/claude-code-native/orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl")
		},
		"real, 8 sub-agents": func(t *testing.T) session {
			return sessionAt(t, "../../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl")
		},
	}
	for name, get := range cases {
		t.Run(name, func(t *testing.T) {
			s := get(t)
			for seed := range uint64(3) {
				followInBursts(t, s, rand.New(rand.NewPCG(seed, 7)))
			}
		})
	}
}

func followInBursts(t *testing.T, s session, rng *rand.Rand) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, s.id+".jsonl")
	subDir := filepath.Join(dir, s.id, "subagents")
	files := map[string][]string{path: s.lead}
	for n, ls := range s.subs {
		files[filepath.Join(subDir, n)] = ls
	}
	for n, meta := range s.metas {
		if err := os.MkdirAll(subDir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(subDir, n), meta, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tail := NewTail(path)
	predtest.Follow(t, rng, files, path, tail.Read, predtest.WholeReading(path, ParseRuns))
	// The same files opened to be followed, read a few KB at a time.
	os.RemoveAll(dir)
	bounded := NewTail(path)
	predtest.Bounded(t, files, 1+rng.Int64N(4096), bounded.Bound, bounded.Behind, bounded.Read, predtest.WholeReading(path, ParseRuns))
}

// tied is a session whose agents' records share timestamps (or have none),
// with messages of text alone whose usage goes to the next action: the
// order a whole reading meets things in decides where each lands.
func tied() session {
	s := session{id: "tie", subs: map[string][]string{}}
	rec := func(agent string, n int, typ, msg string) string {
		ts := `"timestamp": "2026-03-01T00:00:00Z", `
		if n%3 == 2 {
			ts = ""
		}
		return fmt.Sprintf(`{"type": %q, "uuid": "%s-%d", %s"sessionId": "tie", "message": %s}`+"\n", typ, agent, n, ts, msg)
	}
	agent := func(name string, calls int) []string {
		var out []string
		for n := range calls {
			id := fmt.Sprintf("%s-t%d", name, n)
			out = append(out,
				rec(name, 3*n, "assistant", fmt.Sprintf(`{"id": "%s-m%d", "content": [{"type": "text", "text": "thinking %d"}], "usage": {"input_tokens": %d, "output_tokens": 1}}`, name, n, n, n+1)),
				rec(name, 3*n+1, "assistant", fmt.Sprintf(`{"id": "%s-c%d", "content": [{"type": "tool_use", "id": %q, "name": "Read", "input": {"file_path": "/w/%s.py"}}], "usage": {"input_tokens": 2, "output_tokens": %d}}`, name, n, id, name, n+1)),
				rec(name, 3*n+2, "user", fmt.Sprintf(`{"content": [{"type": "tool_result", "tool_use_id": %q, "content": "1\\tline %d"}]}`, id, n)))
		}
		return out
	}
	// A line that does not decode, here and there: each file's warnings
	// come in a whole reading's order.
	broken := func(ls []string) []string {
		return append(ls[:3:3], append([]string{`{"type": "assistant", "message": oops}` + "\n"}, ls[3:]...)...)
	}
	s.lead = broken(append([]string{rec("lead", -1, "user", `{"content": "find it"}`)}, agent("lead", 6)...))
	for _, k := range []string{"b", "a", "c"} {
		s.subs["agent-"+k+".jsonl"] = broken(agent(k, 4))
	}
	return s
}

// outOfOrder is a session of one file whose records are not in time
// order (each call after a thought): a reading puts its actions, and
// their thoughts, in time order.
func outOfOrder() session {
	s := session{id: "ooo", subs: map[string][]string{}}
	s.lead = []string{`{"type": "user", "uuid": "u0", "timestamp": "2026-03-01T00:00:00Z", "sessionId": "ooo", "message": {"content": "find it"}}` + "\n"}
	for n, sec := range []int{50, 10, 30, 20, 40, 5, 45, 15} {
		ts := fmt.Sprintf("2026-03-01T00:00:%02dZ", sec)
		id := fmt.Sprintf("t%d", n)
		s.lead = append(s.lead,
			fmt.Sprintf(`{"type": "assistant", "uuid": "a%d", "timestamp": %q, "sessionId": "ooo", "message": {"id": "m%d", "content": [{"type": "thinking", "thinking": "thought %d"}, {"type": "tool_use", "id": %q, "name": "Read", "input": {"file_path": "/w/f%d.py"}}]}}`+"\n", n, ts, n, n, id, n),
			fmt.Sprintf(`{"type": "user", "uuid": "r%d", "timestamp": %q, "sessionId": "ooo", "message": {"content": [{"type": "tool_result", "tool_use_id": %q, "content": "1\tline %d"}]}}`+"\n", n, ts, id, n))
	}
	return s
}

// BenchmarkTailAppendedLine is what reading a long session costs once a
// line is appended: "appended" follows it (Tail), "whole" reads it and its
// sub-agents' transcripts again (ParseRuns). A generated session of 10,000
// calls with 8 sub-agents (30 MB), the lead's last 2,000 lines appended
// one per reading.
func BenchmarkTailAppendedLine(b *testing.B) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	lead, subs := gen.ClaudeSession(10000, 8)
	lines := predtest.Lines(lead)
	for _, mode := range []string{"appended", "whole"} {
		b.Run(mode, func(b *testing.B) {
			dir := b.TempDir()
			path := filepath.Join(dir, "bench.jsonl")
			if err := benchgen.WriteSubagents(path, subs); err != nil {
				b.Fatal(err)
			}
			read := NewTail(path).Read
			if mode == "whole" {
				read = predtest.WholeReading(path, ParseRuns)
			}
			predtest.BenchAppended(b, path, lines, len(lines)-2000, read)
		})
	}
}

// A followed session whose files change under it other than by growing
// (truncated, replaced, a transcript removed) is read again from the
// start: the reading is still a whole one's.
func TestTailStartsOver(t *testing.T) {
	s := sessionAt(t, "testdata/team/sess-t.jsonl")
	for _, c := range []struct {
		name   string
		change func(path, sub string)
	}{
		{"session truncated", func(path, _ string) { os.WriteFile(path, []byte(strings.Join(s.lead[:2], "")), 0o644) }},
		{"session replaced", func(path, _ string) {
			os.WriteFile(path+".new", []byte(strings.Join(s.lead[:3], "")+s.lead[len(s.lead)-1]), 0o644)
			os.Rename(path+".new", path)
		}},
		{"transcript rewritten", func(_, sub string) {
			// Its own lines (past the fork's copies) read another file, and
			// its last line is gone.
			ls := s.subs["agent-f1.jsonl"]
			os.WriteFile(sub, []byte(strings.ReplaceAll(strings.Join(ls[:len(ls)-1], ""), "/w/d.py", "/w/z.py")), 0o644)
		}},
		{"transcript removed", func(_, sub string) { os.Remove(sub) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sess-t.jsonl")
			subDir := filepath.Join(dir, "sess-t", "subagents")
			os.MkdirAll(subDir, 0o755)
			os.WriteFile(path, []byte(strings.Join(s.lead, "")), 0o644)
			for n, ls := range s.subs {
				os.WriteFile(filepath.Join(subDir, n), []byte(strings.Join(ls, "")), 0o644)
			}
			tail := NewTail(path)
			if _, err := tail.Read(); err != nil {
				t.Fatal(err)
			}
			c.change(path, filepath.Join(subDir, "agent-f1.jsonl"))
			predtest.SameReading(t, tail.Read, predtest.WholeReading(path, ParseRuns))
		})
	}
}
