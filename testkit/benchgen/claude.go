package benchgen

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ClaudeSession is a Claude Code session over the task's repository, as
// Claude Code writes it to its projects folder: the lead's JSONL and, for
// each of its sub-agents (started by Task calls spread over the session),
// subagents/agent-<id>.jsonl. actions counts every agent's tool calls:
// Reads of 20 to 200 numbered lines (most of them), Greps, Edits of a
// line as the file then was, and Bash test runs, a record every 1.5 s.
func (t *Task) ClaudeSession(actions, subagents int) (lead []byte, subs map[string][]byte) {
	rng := rand.New(rand.NewPCG(uint64(actions), uint64(subagents)))
	var files []string
	for p := range t.Files {
		files = append(files, p)
	}
	sort.Strings(files)
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	seq := 0
	line := func(agent string, parent *string, typ string, msg map[string]any) []byte {
		seq++
		clock = clock.Add(1500 * time.Millisecond) // 10,000 calls: eight hours
		uuid := fmt.Sprintf("u%07d", seq)
		var up any = *parent
		if *parent == "" {
			up = nil // an agent's first record
		}
		rec := map[string]any{"type": typ, "uuid": uuid, "parentUuid": up, "sessionId": "bench",
			"timestamp": clock.Format(time.RFC3339), "cwd": "/repo", "isSidechain": agent != "", "message": msg}
		if agent != "" {
			rec["agentId"] = agent
		}
		*parent = uuid
		b, _ := json.Marshal(rec)
		return append(b, '\n')
	}
	use := func(id, name string, in map[string]any) map[string]any {
		return map[string]any{"model": "claude-bench", "id": "m" + id, "role": "assistant", "type": "message",
			"content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": in}},
			"usage":   map[string]any{"input_tokens": 3, "output_tokens": 90, "cache_read_input_tokens": 20000, "cache_creation_input_tokens": 400}}
	}
	result := func(id, out string) map[string]any {
		return map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}}}
	}
	// call writes one tool call and its result by an agent ("" the lead).
	call := func(w *[]byte, agent string, parent *string, k int) {
		id := fmt.Sprintf("t%07d", k)
		p := files[rng.IntN(len(files))]
		lines := strings.Split(strings.TrimSuffix(t.Files[p], "\n"), "\n")
		var name, out string
		var in map[string]any
		switch r := rng.IntN(100); {
		case r < 60:
			a := 1 + rng.IntN(len(lines))
			n := 20 + rng.IntN(180)
			var sb strings.Builder
			for i := a; i < a+n && i <= len(lines); i++ {
				fmt.Fprintf(&sb, "%6d→%s\n", i, lines[i-1])
			}
			name, in, out = "Read", map[string]any{"file_path": "/repo/" + p, "offset": a, "limit": n}, sb.String()
		case r < 80:
			k := rng.IntN(max(len(lines)/30, 1))
			var sb strings.Builder
			for i, l := range lines {
				if strings.Contains(l, fmt.Sprintf("helper_%d(", k)) {
					fmt.Fprintf(&sb, "/repo/%s:%d:%s\n", p, i+1, l)
				}
			}
			name, in, out = "Grep", map[string]any{"pattern": fmt.Sprintf("helper_%d\\(", k), "path": "/repo", "output_mode": "content", "-n": true}, sb.String()
		case r < 90:
			i := rng.IntN(len(lines))
			for strings.TrimSpace(lines[i]) == "" {
				i = (i + 1) % len(lines) // an edit names text it replaces
			}
			name, in, out = "Edit", map[string]any{"file_path": "/repo/" + p, "old_string": lines[i], "new_string": lines[i] + "  # fixed"}, "The file has been updated."
			lines[i] += "  # fixed"
			t.Files[p] = strings.Join(lines, "\n") + "\n"
		default:
			name, in, out = "Bash", map[string]any{"command": "python -m pytest -q tests/test_helpers.py"}, "..F.....\n1 failed, 7 passed in 0.12s"
		}
		*w = append(*w, line(agent, parent, "assistant", use(id, name, in))...)
		*w = append(*w, line(agent, parent, "user", result(id, out))...)
	}
	subs = map[string][]byte{}
	parent := ""
	lead = line("", &parent, "user", map[string]any{"role": "user", "content": "Fix the wrong totals of the helpers."})
	per := actions / (subagents + 1) // each sub-agent makes as many calls as the lead
	k := 0
	for a := 0; a <= subagents; a++ {
		// The lead's calls, spread between its Task calls.
		for range per/(subagents+1) + boolInt(a < per%(subagents+1)) {
			call(&lead, "", &parent, k)
			k++
		}
		if a == subagents {
			break
		}
		// A Task call; its sub-agent works between the call and its result.
		id := fmt.Sprintf("task%03d", a)
		lead = append(lead, line("", &parent, "assistant", use(id, "Task", map[string]any{"description": fmt.Sprintf("explore part %d", a), "subagent_type": "Explore", "prompt": "look"}))...)
		agent := fmt.Sprintf("a%03d", a)
		var sub []byte
		subParent := ""
		for range per {
			call(&sub, agent, &subParent, k)
			k++
		}
		subs[agent] = sub
		lead = append(lead, line("", &parent, "user", result(id, "done"))...)
	}
	return lead, subs
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// SubagentPath is where Claude Code keeps sub-agent id's transcript of the
// session whose transcript is lead: <lead without .jsonl>/subagents/.
func SubagentPath(lead, id string) string {
	return filepath.Join(strings.TrimSuffix(lead, ".jsonl"), "subagents", "agent-"+id+".jsonl")
}

// WriteSubagents writes the sub-agents' transcripts (ClaudeSession's subs)
// of the session whose transcript is lead, where Claude Code keeps them.
func WriteSubagents(lead string, subs map[string][]byte) error {
	for id, data := range subs {
		p := SubagentPath(lead, id)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
