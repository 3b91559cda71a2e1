package parsers

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusedCommandsDidNotRun: in every format that records a refusal (a
// user's or a policy's denial, a blocklist), the refused action is marked
// not run with the reason and reads nothing, while the same command that
// ran reads its lines. Each fixture is written in the format's own words, as
// the agent's source writes them.
func TestRefusedCommandsDidNotRun(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	cases := []struct {
		format, path string
		ran, refused int // 1-based actions: the same read, run and refused
		reason       string
	}{
		{"claude-code", write("cc/s.jsonl", lines(
			`{"type": "system", "subtype": "init", "cwd": "/app", "session_id": "o__r-1", "model": "m"}`,
			`{"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "/app/a.py", "offset": 1, "limit": 2}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "     1→x\n     2→y"}]}}`,
			`{"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/app/a.py", "offset": 1, "limit": 2}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.", "is_error": true}]}}`,
			`{"type": "assistant", "message": {"id": "m3", "role": "assistant", "content": [{"type": "tool_use", "id": "t3", "name": "Bash", "input": {"command": "sed -n '1,2p' a.py"}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t3", "type": "tool_result", "content": "Permission to use Bash with command sed -n '1,2p' a.py has been denied.", "is_error": true}]}}`,
		)), 1, 2, "not run: rejected by the user"},
		{"claude-code", filepath.Join(dir, "cc/s.jsonl"), 1, 3, "not run: permission denied"},
		{"codex", write("cx/rollout-2025-11-20T10-00-00-x.jsonl", lines(
			`{"timestamp":"2025-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"x","cwd":"/work/proj","originator":"codex_cli_rs","cli_version":"0.63.0"}}`,
			`{"timestamp":"2025-11-20T10:00:04.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"sed -n '10,20p' pkg/mod.py\"]}","call_id":"c1"}}`,
			`{"timestamp":"2025-11-20T10:00:05.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"x = 10\\n\",\"metadata\":{\"exit_code\":0}}"}}`,
			`{"timestamp":"2025-11-20T10:00:06.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"bash\",\"-lc\",\"sed -n '10,20p' pkg/mod.py\"]}","call_id":"c2"}}`,
			`{"timestamp":"2025-11-20T10:00:07.000Z","type":"response_item","payload":{"type":"function_call_output","call_id":"c2","output":"exec command rejected by user"}}`,
		)), 1, 2, "not run: rejected by the user"},
		{"codex", write("cx/exec.jsonl", lines(
			`{"type":"thread.started","thread_id":"t"}`,
			`{"type":"turn.started"}`,
			`{"type":"item.completed","item":{"id":"i1","type":"command_execution","command":"bash -lc 'sed -n 1,5p a.py'","aggregated_output":"x\n","exit_code":0,"status":"completed"}}`,
			`{"type":"item.completed","item":{"id":"i2","type":"command_execution","command":"bash -lc 'sed -n 1,5p a.py'","aggregated_output":"","status":"declined"}}`,
		)), 1, 2, "not run: the command was declined"},
		{"swe-agent", write("sa/o__r-1.traj", `{"trajectory": [`+
			`{"action": "cat pkg/a.py", "observation": "x\ny", "thought": ""},`+
			`{"action": "less pkg/a.py", "observation": "Operation 'less pkg/a.py' is not supported by this environment.", "thought": ""}], "info": {}}`),
			1, 2, "not run: blocked by the environment's blocklist"},
		{"swe-agent", write("sa2/o__r-1.traj", `{"trajectory": [`+
			`{"action": "cat pkg/a.py", "observation": "x\ny", "thought": ""},`+
			`{"action": "", "observation": "Your output was not formatted correctly. You must always include one discussion and one command as part of your response.", "thought": "cat pkg/a.py"}], "info": {}}`),
			1, 2, "not run: format error: the reply held no command to run"},
		{"openhands", write("oh/output.jsonl", `{"instance_id": "o__r-1", "history": [`+
			`{"id": 1, "action": "run", "args": {"command": "sed -n '1,2p' pkg/a.py"}},`+
			`{"id": 2, "observation": "run", "cause": 1, "content": "x\ny", "extras": {"metadata": {"exit_code": 0}}},`+
			`{"id": 3, "action": "run", "args": {"command": "sed -n '1,2p' pkg/a.py"}},`+
			`{"id": 4, "observation": "user_rejected", "cause": 3, "content": "Action has been rejected by the user! Waiting for further user input."}]}`+"\n"),
			1, 2, "not run: rejected by the user"},
	}
	for _, c := range cases {
		t.Run(c.format+" "+c.reason, func(t *testing.T) {
			runs, err := Load(c.path, "")
			if err != nil {
				t.Fatal(err)
			}
			if runs[0].Format != c.format {
				t.Fatalf("detected %q, want %q", runs[0].Format, c.format)
			}
			acts := runs[0].Actions
			if len(acts) < c.refused {
				t.Fatalf("%d actions", len(acts))
			}
			ran, refused := acts[c.ran-1], acts[c.refused-1]
			if ran.NotRun || ran.Failed() || len(ran.Reads) == 0 {
				t.Errorf("the command that ran: not run %v, failure %q, reads %v", ran.NotRun, ran.Failure, ran.Reads)
			}
			if !refused.NotRun || refused.Failure != c.reason || len(refused.Reads) != 0 || len(refused.Edits) != 0 {
				t.Errorf("the refused command: not run %v, failure %q, reads %v", refused.NotRun, refused.Failure, refused.Reads)
			}
		})
	}
}
