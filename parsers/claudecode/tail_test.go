package claudecode

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
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

func lines(data []byte) []string {
	var out []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l != "" {
			if !strings.HasSuffix(l, "\n") {
				l += "\n"
			}
			out = append(out, l)
		}
	}
	return out
}

// sessionAt reads a session file and the sub-agent folder beside it.
func sessionAt(t *testing.T, path string) session {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Skip(err)
	}
	s := session{id: strings.TrimSuffix(filepath.Base(path), ".jsonl"), lead: lines(data), subs: map[string][]string{}, metas: map[string][]byte{}}
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
			s.subs[e.Name()] = lines(b)
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
	generated := session{id: "bench", lead: lines(lead), subs: map[string][]string{}}
	for id, b := range subs {
		generated.subs["agent-"+id+".jsonl"] = lines(b)
	}
	cases := map[string]func(*testing.T) session{
		"ties and text-only messages":  func(*testing.T) session { return tied() },
		"generated, 5 sub-agent files": func(*testing.T) session { return generated },
		"team":                         func(t *testing.T) session { return sessionAt(t, "testdata/team/sess-t.jsonl") },
		"with a sub-agent":             func(t *testing.T) session { return sessionAt(t, "testdata/withsub/sess-9.jsonl") },
		"stream-json":                  func(t *testing.T) session { return sessionAt(t, "testdata/stream.jsonl") },
		"session":                      func(t *testing.T) session { return sessionAt(t, "testdata/session.jsonl") },
		"real, progress records": func(t *testing.T) session {
			return sessionAt(t, "../../../shared/data/formats/claude-code-subagents/entireio-cli__ckpt-78332696ed94-0.full.jsonl")
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
	appendTo := func(p, text string) {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	appendTo(path, "")
	if len(s.subs) > 0 {
		if err := os.MkdirAll(subDir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	left := map[string][]string{"": s.lead}
	names := []string{""}
	for n, ls := range s.subs {
		left[n] = ls
		names = append(names, n)
	}
	tail := NewTail(path)
	for burst := 0; ; burst++ {
		var open []string
		for _, n := range names {
			if len(left[n]) > 0 {
				open = append(open, n)
			}
		}
		if len(open) == 0 {
			break
		}
		n := open[rng.IntN(len(open))]
		k := min(len(left[n]), 1+rng.IntN(40))
		p := path
		if n != "" {
			p = filepath.Join(subDir, n)
			if meta, ok := s.metas[strings.TrimSuffix(n, ".jsonl")+".meta.json"]; ok {
				if err := os.WriteFile(strings.TrimSuffix(p, ".jsonl")+".meta.json", meta, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		chunk := strings.Join(left[n][:k], "")
		left[n] = left[n][k:]
		// Now and then a line comes in two writes: the half waits.
		if cut := rng.IntN(4); cut == 0 && len(chunk) > 2 {
			half := len(chunk) - 1 - rng.IntN(min(len(chunk)-1, 50))
			appendTo(p, chunk[:half])
			// The half of a line waits: the reading is that of the
			// whole lines before it.
			before, berr := tail.Read()
			whole, _ := os.ReadFile(p)
			if err := os.WriteFile(p, whole[:bytes.LastIndexByte(whole, '\n')+1], 0o644); err != nil {
				t.Fatal(err)
			}
			again, aerr := NewTail(path).Read()
			if err := os.WriteFile(p, whole, 0o644); err != nil {
				t.Fatal(err)
			}
			if (berr == nil) != (aerr == nil) {
				t.Fatalf("burst %d: with half a line: %v; without: %v", burst, berr, aerr)
			}
			if berr == nil {
				if d := firstDifference(before[0], again[0]); d != "" {
					t.Fatalf("burst %d: half a line changed the reading: %s", burst, d)
				}
			}
			appendTo(p, chunk[half:])
		} else {
			appendTo(p, chunk)
		}
		got, gerr := tail.Read()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := ParseRuns(path, data)
		if (gerr == nil) != (werr == nil) {
			if werr != nil && len(s.lead)-len(left[""]) == 0 {
				continue // no session line yet: both refuse, in their words
			}
			t.Fatalf("burst %d (%q +%d lines): errors %v and %v", burst, n, k, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if d := firstDifference(got[0], want[0]); d != "" {
			t.Fatalf("burst %d (%q +%d lines): the followed reading differs from a whole one: %s", burst, n, k, d)
		}
	}
}

// firstDifference names the first field where two runs differ, "" for none.
func firstDifference(got, want model.Run) string {
	if len(got.Actions) != len(want.Actions) {
		return fmt.Sprintf("%d actions, whole %d", len(got.Actions), len(want.Actions))
	}
	for i := range got.Actions {
		if !reflect.DeepEqual(got.Actions[i], want.Actions[i]) {
			return fmt.Sprintf("action %d: %+v\nwhole: %+v", i, got.Actions[i], want.Actions[i])
		}
	}
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range gv.NumField() {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			return fmt.Sprintf("%s: %+v\nwhole: %+v", gv.Type().Field(i).Name, gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
	return ""
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
	s.lead = append([]string{rec("lead", -1, "user", `{"content": "find it"}`)}, agent("lead", 6)...)
	for _, k := range []string{"b", "a", "c"} {
		s.subs["agent-"+k+".jsonl"] = agent(k, 4)
	}
	return s
}
