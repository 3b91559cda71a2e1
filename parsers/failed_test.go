package parsers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedFormats holds the real samples, when this checkout has them.
const sharedFormats = "../../shared/data/formats/"

// TestFailedCommands: every format marks a failed command from what it
// records (an exit status, an error flag) or from the error lines the
// command printed, on real samples where they have failures and on small
// runs written in each format otherwise; successful actions stay unmarked.
func TestFailedCommands(t *testing.T) {
	type check struct {
		action int    // 1-based, as the timeline numbers actions
		want   string // the Failure; "" for none
		exit   int    // the recorded status, -1 for none
	}
	dir := t.TempDir()
	write := writer(t, dir)
	cases := []struct {
		format, file string
		real         bool
		checks       []check
	}{
		{"mini-swe-agent-v1", "mini-swe-agent-v1/django__django-15104.traj.json", true, []check{
			// nl through a pipe: status 0, but nl said the file was missing.
			{1, "nl: /testbed/lib/python3.x/site-packages/django/db/migrations/autodetector.py: No such file or directory", 0},
			{3, "", 0},
			{5, `exit 2: /bin/sh: 1: Syntax error: ")" unexpected`, 2},
			{8, "exit 2", 2},
		}},
		{"mini-swe-agent-v1", "mini-swe-agent-v1/pydata__xarray-4075.traj.json", true, []check{{2, "", 0}, {8, "exit 1", 1}}},
		{"mini-swe-agent-v2", "mini-swe-agent-v2/astropy__astropy-12907.traj.json", true, []check{{1, "", 0}, {3, "exit 1", 1}}},
		{"swe-agent", "swe-agent/pallets__flask-5014.checkpoints.jsonl", true, []check{
			{1, "", -1},
			{10, "usage: str_replace_editor [-h] [--file_text FILE_TEXT]", -1},
		}},
		{"openhands", "openhands/output.jsonl", true, []check{{1, "", -1}, {2, "", 0}}},
		{"atif", "claude-code/trajectory_pass.json", true, []check{{1, "", -1}}},
		{"openhands", write("oh/output.jsonl", `{"instance_id": "o__r-1", "history": [`+
			`{"id": 1, "action": "run", "args": {"command": "nl -ba pkg/a.py"}},`+
			`{"id": 2, "observation": "run", "cause": 1, "content": "bash: nl: command not found", "extras": {"metadata": {"exit_code": 127}}},`+
			`{"id": 3, "action": "run", "args": {"command": "ls"}},`+
			`{"id": 4, "observation": "run", "cause": 3, "content": "a.py", "extras": {"exit_code": 0}},`+
			`{"id": 5, "action": "read", "args": {"path": "/workspace/r/missing.py"}},`+
			`{"id": 6, "observation": "error", "cause": 5, "content": "File not found: /workspace/r/missing.py"}]}`+"\n"), false, []check{
			{1, "exit 127: bash: nl: command not found", 127}, {2, "", 0}, {3, "the tool reported an error", -1},
		}},
		{"claude-code", write("cc/run.jsonl", strings.Join([]string{
			`{"type": "system", "subtype": "init", "cwd": "/app", "session_id": "o__r-1", "model": "m"}`,
			`{"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "cat <EXPLORE_CONTEXT>"}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "/bin/sh: 1: Syntax error: end of file unexpected", "is_error": true}]}}`,
			`{"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "/app/a.py"}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": "     1→x"}]}}`,
		}, "\n")+"\n"), false, []check{
			{1, "the tool reported an error: /bin/sh: 1: Syntax error: end of file unexpected", -1}, {2, "", -1},
		}},
		{"atif", write("atif/trajectory.json", `{"schema_version": "ATIF-v1.5", "session_id": "o__r-1", "agent": {"name": "a", "version": "1", "model_name": "m"},
			"steps": [{"step_id": 1, "source": "agent", "message": "run",
				"tool_calls": [{"tool_call_id": "c1", "function_name": "Bash", "arguments": {"command": "grep -n x a.py"}},
				               {"tool_call_id": "c2", "function_name": "Bash", "arguments": {"command": "ls"}}],
				"observation": {"results": [{"source_call_id": "c1", "content": "grep: a.py: No such file or directory", "extra": {"is_error": true}},
				                            {"source_call_id": "c2", "content": "a.py"}]}}]}`), false, []check{
			{1, "the tool reported an error: grep: a.py: No such file or directory", -1}, {2, "", -1},
		}},
		{"swe-agent", write("sa/o__r-1.traj", `{"trajectory": [`+
			`{"action": "nl -ba pkg/a.py", "observation": "bash: line 1: nl: command not found", "thought": ""},`+
			`{"action": "str_replace_editor view /testbed/pkg/a.py", "observation": "The path /testbed/pkg/a.py does not exist. Please provide a valid path.", "thought": ""},`+
			`{"action": "ls", "observation": "pkg", "thought": ""}], "info": {}}`), false, []check{
			{1, "bash: line 1: nl: command not found", -1},
			{2, "The path /testbed/pkg/a.py does not exist. Please provide a valid path.", -1},
			{3, "", -1},
		}},
		{"mini-swe-agent-v2", write("m2/o__r-1.traj.json", `{"trajectory_format": "mini-swe-agent-1.1", "instance_id": "o__r-1", "info": {}, "messages": [`+
			`{"role": "system", "content": "s"}, {"role": "user", "content": "u"},`+
			`{"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "function": {"name": "bash", "arguments": "{\"command\": \"python t.py\"}"}}]},`+
			`{"role": "tool", "tool_call_id": "c1", "content": "<returncode>3</returncode>\n<output>\nboom\n</output>", "extra": {"returncode": 3}}]}`), false, []check{
			{1, "exit 3", 3},
		}},
	}
	for _, c := range cases {
		name := c.format + " " + filepath.Base(c.file)
		t.Run(name, func(t *testing.T) {
			path := c.file
			if c.real {
				path = sharedFormats + c.file
				if _, err := os.Stat(path); err != nil {
					t.Skip("shared data not available")
				}
			}
			runs, err := Load(path, "")
			if err != nil {
				t.Fatal(err)
			}
			if runs[0].Format != c.format {
				t.Fatalf("detected %q, want %q", runs[0].Format, c.format)
			}
			acts := runs[0].Actions
			for _, ch := range c.checks {
				if ch.action > len(acts) {
					t.Fatalf("%d actions, want at least %d", len(acts), ch.action)
				}
				a := acts[ch.action-1]
				exit := -1
				if a.ExitKnown {
					exit = int(a.ExitCode)
				}
				if a.Failure != ch.want || exit != ch.exit || a.Failed() != (ch.want != "") {
					t.Errorf("action %d (%.50q): failure %q exit %d, want %q exit %d", ch.action, a.Command, a.Failure, exit, ch.want, ch.exit)
				}
			}
		})
	}
}
