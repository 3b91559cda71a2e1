package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHarborTrialIsOneRun: a Harbor trial keeps a Claude Code session twice,
// as agent/claude-code.txt (stream-json) and as the session file under
// agent/sessions/projects/; a folder of trials lists each once, read from
// the stream, whose result.usage is the session's own token total (issue
// 47 #1). The session file alone is still a run.
func TestHarborTrialIsOneRun(t *testing.T) {
	root := t.TempDir()
	trial := filepath.Join(root, "jobs", "task-7__ab12")
	stream := `{"type":"system","subtype":"init","session_id":"5e1b7c2d-0000-4000-8000-000000000001","model":"claude-sonnet-4-5","cwd":"/app"}
{"type":"assistant","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/app/a.py"}}],"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":100}},"session_id":"5e1b7c2d-0000-4000-8000-000000000001"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"     1\tx = 1\n"}]},"session_id":"5e1b7c2d-0000-4000-8000-000000000001"}
{"type":"result","subtype":"success","total_cost_usd":0.01,"usage":{"input_tokens":30,"output_tokens":9,"cache_read_input_tokens":300},"session_id":"5e1b7c2d-0000-4000-8000-000000000001"}
`
	session := `{"type":"user","uuid":"u1","sessionId":"5e1b7c2d-0000-4000-8000-000000000001","cwd":"/app","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","sessionId":"5e1b7c2d-0000-4000-8000-000000000001","cwd":"/app","message":{"id":"msg_1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"/app/a.py"}}],"usage":{"input_tokens":10,"output_tokens":5,"cache_read_input_tokens":100}}}
`
	for rel, body := range map[string]string{
		"agent/claude-code.txt": stream,
		"agent/sessions/projects/-app/5e1b7c2d-0000-4000-8000-000000000001.jsonl": session,
		"result.json": `{"task_name": "task-7"}`,
	} {
		p := filepath.Join(trial, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	out, errs, code := run(t, "view", "--no-cache", "--json", filepath.Join(root, "jobs"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []struct {
		ID     string `json:"instance_id"`
		Path   string `json:"path"`
		Tokens int    `json:"tokens"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(rows) != 1 || rows[0].ID != "task-7" || !strings.HasSuffix(rows[0].Path, "claude-code.txt") || rows[0].Tokens != 339 {
		t.Errorf("rows %+v (stderr %s)", rows, errs)
	}
	if strings.Contains(errs, "appears 2 times") {
		t.Errorf("stderr: %s", errs)
	}
	// Named alone, the session file is a run.
	if out, _, code := run(t, "view", "--no-cache", filepath.Join(trial, "agent/sessions/projects/-app/5e1b7c2d-0000-4000-8000-000000000001.jsonl")); code != 0 || !strings.Contains(out, "task-7") {
		t.Errorf("the session file alone (exit %d):\n%s", code, out)
	}
}
