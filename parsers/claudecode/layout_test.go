package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// TestSubagentLayout2154 reads a session as Claude Code 2.1.154 and later
// lay it out (no public sample holds one; the shapes follow the field
// survey of real 2.1.160-2.1.226 sessions: the tool is Agent, no progress
// records, subagents/agent-<id>.jsonl with .meta.json naming agentType,
// description, toolUseId and, when nested, parentAgentId in the same flat
// folder; workflow agents under subagents/workflows/<run>/; agent-acompact
// files are compaction runs). An Agent call whose transcript is absent
// keeps the work its result records (issue 47 #3).
func TestSubagentLayout2154(t *testing.T) {
	dir := t.TempDir()
	n := 0
	rec := func(m map[string]any) string {
		n++
		m["uuid"], m["sessionId"] = "u"+strings.Repeat("x", n), "sess-54"
		m["timestamp"] = "2026-08-01T10:00:" + []string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15"}[n%16] + "Z"
		b, _ := json.Marshal(m)
		return string(b) + "\n"
	}
	use := func(id, name string, in map[string]any) map[string]any {
		return map[string]any{"role": "assistant", "id": "m" + id, "content": []any{map[string]any{"type": "tool_use", "id": id, "name": name, "input": in}}}
	}
	result := func(id, text string) map[string]any {
		return map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": text}}}
	}
	session := rec(map[string]any{"type": "user", "message": map[string]any{"role": "user", "content": "audit the cache"}}) +
		rec(map[string]any{"type": "assistant", "message": use("toolu_A", "Agent", map[string]any{"description": "find evictions", "subagent_type": "Explore", "prompt": "p"})}) +
		rec(map[string]any{"type": "assistant", "message": use("toolu_B", "Agent", map[string]any{"description": "vet the claims", "subagent_type": "general-purpose", "prompt": "q"})}) +
		rec(map[string]any{"type": "user", "message": result("toolu_A", "found two"), "toolUseResult": map[string]any{"status": "completed", "agentId": "a11"}}) +
		rec(map[string]any{"type": "user", "message": result("toolu_B", "vetted"), "toolUseResult": map[string]any{"status": "completed", "agentId": "a22",
			"totalToolUseCount": 44, "totalTokens": 86120, "totalDurationMs": 212341,
			"toolStats": map[string]any{"readCount": 14, "searchCount": 0, "bashCount": 30, "editFileCount": 0, "otherToolCount": 0}}}) +
		rec(map[string]any{"type": "assistant", "message": use("toolu_W0", "Workflow", map[string]any{"description": "fan out"})}) +
		rec(map[string]any{"type": "user", "message": result("toolu_W0", "launched"), "toolUseResult": map[string]any{"status": "async_launched", "runId": "wf_0de2", "workflowName": "fan-out"}}) +
		rec(map[string]any{"type": "attachment", "attachment": map[string]any{"type": "hook_success"}}) +
		rec(map[string]any{"type": "queue-operation", "operation": "enqueue"}) +
		rec(map[string]any{"type": "file-history-delta"}) +
		rec(map[string]any{"type": "atis-latch"}) +
		rec(map[string]any{"type": "relocated"})
	sub := func(agent string, calls ...[2]string) string {
		var s string
		for _, c := range calls {
			s += rec(map[string]any{"type": "assistant", "isSidechain": true, "agentId": agent, "message": use(c[0], c[1], map[string]any{"file_path": "/w/a.py", "description": "deeper", "subagent_type": "Explore", "prompt": "r"})})
			s += rec(map[string]any{"type": "user", "isSidechain": true, "agentId": agent, "message": result(c[0], "ok")})
		}
		return s
	}
	write := func(rel, body string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("sess-54.jsonl", session)
	// a11's transcript: its meta names its call; it starts a11n, nested,
	// whose meta names its parent (same flat folder).
	write("sess-54/subagents/agent-a11.jsonl", sub("a11", [2]string{"toolu_R1", "Read"}, [2]string{"toolu_N", "Agent"}))
	write("sess-54/subagents/agent-a11.meta.json", `{"agentType": "Explore", "description": "find evictions", "toolUseId": "toolu_A", "spawnDepth": 1}`)
	write("sess-54/subagents/agent-a11n.jsonl", sub("a11n", [2]string{"toolu_R2", "Read"}))
	write("sess-54/subagents/agent-a11n.meta.json", `{"agentType": "Explore", "description": "deeper", "toolUseId": "toolu_N", "spawnDepth": 2, "parentAgentId": "a11"}`)
	write("sess-54/subagents/agent-acompact-7f.jsonl", sub("acompact-7f", [2]string{"toolu_C", "Read"}))
	write("sess-54/subagents/workflows/wf_0de2/agent-aw1.jsonl", sub("aw1", [2]string{"toolu_W", "Read"}))
	write("sess-54/subagents/workflows/wf_0de2/journal.jsonl", `{"type": "started", "key": "k1", "agentId": "aw1"}`+"\n")

	run := load1(t, filepath.Join(dir, "sess-54.jsonl"))
	type ag struct {
		ID, Type, Description string
		Parent, Depth         int32
		Call                  string
		Recorded              *model.AgentTotals
	}
	var got []ag
	for _, a := range run.Agents[1:] {
		call := ""
		if a.Call >= 0 {
			call = run.Actions[a.Call].Tool + ":" + run.Actions[a.Call].Command
		}
		got = append(got, ag{a.ID, a.Type, a.Description, a.Parent, a.Depth, call, a.Recorded})
	}
	byID := map[string]ag{}
	for _, a := range got {
		byID[a.ID] = a
	}
	if len(got) != 4 {
		t.Fatalf("agents %+v", got)
	}
	if a := byID["a11"]; a.Type != "Explore" || a.Depth != 1 || !strings.Contains(a.Call, "find evictions") || a.Recorded != nil {
		t.Errorf("a11 %+v", a)
	}
	if a := byID["a11n"]; a.Depth != 2 || !strings.Contains(a.Call, "deeper") || run.Agents[a.Parent].ID != "a11" {
		t.Errorf("a11n %+v", a)
	}
	if a := byID["aw1"]; a.Description != "workflow wf_0de2" || !strings.HasPrefix(a.Call, "Workflow:") || a.Depth != 1 {
		t.Errorf("aw1 %+v", a)
	}
	want := model.AgentTotals{ToolUses: 44, Reads: 14, Commands: 30, Tokens: 86120}
	if a := byID["a22"]; a.Type != "general-purpose" || !strings.Contains(a.Call, "vet the claims") || a.Recorded == nil || *a.Recorded != want {
		t.Errorf("a22 %+v", a)
	}
	for _, a := range run.Actions {
		if strings.Contains(a.Command, "toolu_C") || a.Agent > 0 && run.Agents[a.Agent].ID == "acompact-7f" {
			t.Errorf("a compaction run's action read: %+v", a)
		}
	}
	if run.Unread["compaction run"] != 1 || len(run.Unread) != 1 {
		t.Errorf("unread %v", run.Unread)
	}
}
