//go:build promises

package promises

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// A Claude Code session of 45,000 chained sub-agents (each started by the
// one before, 30 MB) is viewed within the memory promise (3 × the input +
// 150 MB): a tool call's input and result are kept without the parse of
// their records (issue 48 #8: 439–467 MB), and the summary indents a chain
// only so deep.
func TestPromiseChainedAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	path := filepath.Join(t.TempDir(), "chain.jsonl")
	var b strings.Builder
	b.WriteString(`{"type": "user", "uuid": "u0", "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "go"}}` + "\n")
	b.WriteString(`{"type": "assistant", "uuid": "L", "sessionId": "s", "timestamp": "2026-01-01T00:00:01Z", "message": {"role": "assistant", "id": "L", "content": [{"type": "tool_use", "id": "T0", "name": "Task", "input": {"description": "d", "subagent_type": "Explore", "prompt": "p"}}]}}` + "\n")
	for k := range 45000 {
		fmt.Fprintf(&b, `{"type": "assistant", "uuid": "a%d", "parentUuid": null, "sessionId": "s", "isSidechain": true, "agentId": "ag%d", "timestamp": "2026-01-01T00:00:02Z", "message": {"role": "assistant", "id": "m%d", "content": [{"type": "tool_use", "id": "T%d", "name": "Task", "input": {"description": "chain link", "subagent_type": "general-purpose", "prompt": "go deeper"}}]}}`+"\n", k, k, k, k+1)
		fmt.Fprintf(&b, `{"type": "user", "uuid": "r%d", "sessionId": "s", "isSidechain": true, "agentId": "ag%d", "timestamp": "2026-01-01T00:00:03Z", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "T%d", "content": "done"}]}, "toolUseResult": {"agentId": "ag%d"}}`+"\n", k, k, k+1, k+1)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	r := testkit.RunCapped(t, 2<<30, []string{"XDG_CACHE_HOME=" + t.TempDir()}, bin, "view", path)
	t.Logf("peak RSS %d MiB for %d MB", r.PeakRSS>>20, b.Len()>>20)
	if r.Code != 0 {
		t.Fatalf("exit %d: %.500s", r.Code, r.Stderr)
	}
	if promise := int64(3*b.Len()) + 150<<20; r.PeakRSS > promise {
		t.Errorf("peak RSS %d MiB, promise %d MiB", r.PeakRSS>>20, promise>>20)
	}
	widest := 0
	for _, l := range strings.Split(r.Stdout, "\n") {
		widest = max(widest, len(l))
	}
	if widest > 400 {
		t.Errorf("a summary line %d bytes wide: the agent tree indented too deep", widest)
	}
}

// A Codex rollout of 99,000 calls (90 MB) is converted and searched within
// the memory promise (issue 48 #13: convert 416 MB, grep 449 MB against
// 413), and a Qwen Code session holding one 60 MB output is viewed within
// it (#17).
func TestPromiseLongCodexAndHugeQwenOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	rollout := filepath.Join(dir, "rollout-2026-06-01T00-00-00-c1.jsonl")
	var b strings.Builder
	b.WriteString(`{"timestamp": "2026-06-01T00:00:00Z", "type": "session_meta", "payload": {"id": "c1", "cwd": "/w"}}` + "\n")
	out := strings.Repeat(`x = 1\n`, 60)
	for k := range 99000 {
		fmt.Fprintf(&b, `{"timestamp": "2026-06-01T00:00:01Z", "type": "response_item", "payload": {"type": "function_call", "name": "shell", "arguments": "{\"command\": [\"bash\", \"-lc\", \"sed -n '%d,%dp' src/mod%d.py\"]}", "call_id": "call_%d"}}`+"\n", k%500+1, k%500+40, k%300, k)
		fmt.Fprintf(&b, `{"timestamp": "2026-06-01T00:00:02Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "call_%d", "output": "{\"output\": \"%s\", \"metadata\": {\"exit_code\": 0}}"}}`+"\n", k, strings.ReplaceAll(out, `\n`, `\\n`))
	}
	os.WriteFile(rollout, []byte(b.String()), 0o644)
	qwen := filepath.Join(dir, "q.jsonl")
	os.WriteFile(qwen, []byte(`{"uuid": "u1", "sessionId": "q", "type": "user", "message": {"role": "user", "parts": [{"text": "why"}]}}`+"\n"+
		`{"uuid": "a1", "sessionId": "q", "type": "assistant", "message": {"role": "model", "parts": [{"functionCall": {"id": "c1", "name": "read_file", "args": {"absolute_path": "/r/p.py"}}}]}}`+"\n"+
		`{"uuid": "t1", "sessionId": "q", "type": "tool_result", "message": {"role": "user", "parts": [{"functionResponse": {"id": "c1", "name": "read_file", "response": {"output": "`+strings.Repeat("y", 60<<20)+`"}}}]}}`+"\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	for _, c := range []struct {
		name string
		file string
		args []string
	}{
		{"convert", rollout, []string{"convert", rollout, "-o", filepath.Join(dir, "preds.jsonl")}},
		{"grep", rollout, []string{"grep", "-l", "no such text", rollout}},
		{"view --json", qwen, []string{"view", qwen, "--json"}},
	} {
		st, _ := os.Stat(c.file)
		r := testkit.RunCapped(t, 2<<30, env, bin, c.args...)
		t.Logf("%s: peak RSS %d MiB for %d MiB", c.name, r.PeakRSS>>20, st.Size()>>20)
		if r.Code != 0 && !(c.name == "grep" && r.Code == 1) {
			t.Errorf("%s: exit %d: %.300s", c.name, r.Code, r.Stderr)
		}
		if promise := 3*st.Size() + 150<<20; r.PeakRSS > promise {
			t.Errorf("%s: peak RSS %d MiB, promise %d MiB", c.name, r.PeakRSS>>20, promise>>20)
		}
	}
}
