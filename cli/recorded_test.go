package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordedAgentWork: a Claude Code Agent call whose sub-agent's
// transcript is not beside the session keeps the work its result records,
// on the summary, view --json and the page alike (issue 47 #3).
func TestRecordedAgentWork(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i, r := range []string{
		`{"type":"user","message":{"role":"user","content":"audit the cache"}}`,
		`{"type":"assistant","message":{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"toolu_B","name":"Agent","input":{"description":"vet the claims","subagent_type":"general-purpose","prompt":"q"}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_B","content":"vetted"}]},"toolUseResult":{"status":"completed","agentId":"a22","totalToolUseCount":44,"totalTokens":86120,"toolStats":{"readCount":14,"searchCount":0,"bashCount":30,"editFileCount":0}}}`,
	} {
		fmt.Fprintf(&b, "%s,\"uuid\":\"u%d\",\"sessionId\":\"sess-54\",\"timestamp\":\"2026-08-01T10:00:0%dZ\"}\n", strings.TrimSuffix(r, "}"), i, i)
	}
	file := write(t, filepath.Join(dir, "sess-54.jsonl"), b.String())
	const words = "not in the file: 44 tool calls (14 reads, 30 commands), 86.1k tokens"

	summary, errs, code := run(t, "view", "--no-cache", file)
	if code != 0 || !strings.Contains(summary, words) {
		t.Errorf("summary (exit %d, %s):\n%s", code, errs, summary)
	}
	out, _, _ := run(t, "view", "--no-cache", "--json", file)
	var doc struct {
		Agents []struct {
			ID       string         `json:"id"`
			Actions  int            `json:"actions"`
			Recorded map[string]int `json:"recorded"`
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Agents) != 2 {
		t.Fatalf("%v\n%s", err, out)
	}
	if a := doc.Agents[1]; a.ID != "a22" || a.Actions != 0 || a.Recorded["tool_uses"] != 44 || a.Recorded["reads"] != 14 ||
		a.Recorded["commands"] != 30 || a.Recorded["tokens"] != 86120 {
		t.Errorf("agent %+v", a)
	}
	page := filepath.Join(dir, "run.html")
	if _, errs, code := run(t, "export", "--no-cache", file, "-o", page); code != 0 {
		t.Fatalf("export: %s", errs)
	}
	if html, _ := os.ReadFile(page); !strings.Contains(string(html), words) {
		t.Errorf("the page does not carry %q", words)
	}
}
