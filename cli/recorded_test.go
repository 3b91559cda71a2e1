package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
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

// TestReadsNotInTheRepository: reads of a file the run wrote itself and
// of a file outside the repository put no repository line in view; they
// are marked on their actions and counted, on the summary and view --json
// (issue 47 #2), instead of vanishing.
func TestReadsNotInTheRepository(t *testing.T) {
	repo, _ := testkit.GitRepo(t, map[string]string{"pkg/mod.py": "def f():\n    return 1\n"})
	dir := t.TempDir()
	var b strings.Builder
	n := 0
	step := func(id, tool, input, output string) {
		n++
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","sessionId":"s","timestamp":"2026-08-01T10:00:%02dZ","message":{"role":"assistant","id":"m%d","content":[{"type":"tool_use","id":"%s","name":"%s","input":%s}]}}`+"\n", n, n, n, id, tool, input)
		fmt.Fprintf(&b, `{"type":"user","uuid":"r%d","sessionId":"s","timestamp":"2026-08-01T10:00:%02dZ","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":%q}]}}`+"\n", n, n, id, output)
	}
	step("t1", "Read", `{"file_path":"pkg/mod.py"}`, "     1\tdef f():\n     2\t    return 1\n")
	step("t2", "Write", `{"file_path":"reproduce.py","content":"import pkg\n"}`, "File created successfully at: reproduce.py")
	step("t3", "Read", `{"file_path":"reproduce.py"}`, "     1\timport pkg\n")
	step("t4", "Bash", `{"command":"cat /etc/hosts"}`, "127.0.0.1 localhost\n")
	file := write(t, filepath.Join(dir, "s.jsonl"), b.String())

	summary, errs, code := run(t, "view", "--no-cache", "--repo", repo, file)
	if code != 0 || !strings.Contains(summary, "◌ reads not in the repository: 2 (1 of files the run wrote, 1 outside it)") {
		t.Fatalf("summary (exit %d, %s):\n%s", code, errs, summary)
	}
	marked := 0
	for _, l := range strings.Split(summary, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "3 ") || strings.HasPrefix(strings.TrimSpace(l), "4 ") {
			if strings.HasSuffix(l, "◌") {
				marked++
			}
		}
	}
	if marked != 2 {
		t.Errorf("rows 3 and 4 marked %d times:\n%s", marked, summary)
	}
	out, _, _ := run(t, "view", "--no-cache", "--json", "--repo", repo, file)
	var doc struct {
		Aside   map[string]int `json:"reads_not_in_repo"`
		Actions []struct {
			Aside []struct {
				File    string `json:"file"`
				Created bool   `json:"created"`
			} `json:"not_in_repo"`
		} `json:"actions"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Aside["created"] != 1 || doc.Aside["outside"] != 1 || len(doc.Actions) != 4 || len(doc.Actions[0].Aside) != 0 ||
		len(doc.Actions[2].Aside) != 1 || !doc.Actions[2].Aside[0].Created || len(doc.Actions[3].Aside) != 1 || doc.Actions[3].Aside[0].File != "/etc/hosts" {
		t.Errorf("json: %s", out)
	}
	// Without the repository nothing is said: the rebuilt tree holds only
	// what the run read.
	if s, _, _ := run(t, "view", "--no-cache", file); strings.Contains(s, "not in the repository") {
		t.Errorf("without a repository:\n%s", s)
	}
}
