package parsers

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// Each format's recorded edits become the action's Changes, in the
// format's own argument names; a shell's sed -i records none.
func TestRecordedChanges(t *testing.T) {
	dir := t.TempDir()
	write := writer(t, dir)
	lines := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	cases := []struct {
		name, path string
		action     int // 1-based
		want       []model.Change
	}{
		{"claude-code Edit", write("cc/s.jsonl", lines(
			`{"type": "system", "subtype": "init", "cwd": "/app", "session_id": "o__r-1", "model": "m"}`,
			`{"type": "user", "message": {"role": "user", "content": "Fix the bug"}}`,
			`{"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": "/app/a.py", "old_string": "x = 1", "new_string": "x = 2"}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "ok"}]}}`,
			`{"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "MultiEdit", "input": {"file_path": "/app/a.py", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t2", "type": "tool_result", "content": "ok"}]}}`,
			`{"type": "assistant", "message": {"id": "m3", "role": "assistant", "content": [{"type": "tool_use", "id": "t3", "name": "Write", "input": {"file_path": "/app/b.py", "content": "print(1)\n"}}]}}`,
			`{"type": "user", "message": {"role": "user", "content": [{"tool_use_id": "t3", "type": "tool_result", "content": "ok"}]}}`,
		)), 1, []model.Change{{File: "a.py", Kind: model.ChangeReplace, Old: "x = 1", New: "x = 2"}}},
		{"claude-code MultiEdit", filepath.Join(dir, "cc/s.jsonl"), 2, []model.Change{
			{File: "a.py", Kind: model.ChangeReplace, Old: "a", New: "b"}, {File: "a.py", Kind: model.ChangeReplace, Old: "c", New: "d"}}},
		{"claude-code Write", filepath.Join(dir, "cc/s.jsonl"), 3, []model.Change{{File: "b.py", Kind: model.ChangeWhole, New: "print(1)\n"}}},
		{"swe-agent str_replace", write("sa/o__r-1.traj", `{"trajectory": [`+
			`{"action": "str_replace_editor str_replace /testbed/a.py   --old_str 'x = 1\nif x:' --new_str 'x = '\"'\"'2'\"'\"''", "observation": "The file /testbed/a.py has been edited.", "thought": ""}], "info": {}}`),
			1, []model.Change{{File: "/testbed/a.py", Kind: model.ChangeReplace, Old: "x = 1\nif x:", New: "x = '2'"}}},
		{"openhands edit", write("oh/output.jsonl", `{"instance_id": "o__r-1", "history": [`+
			`{"id": 1, "action": "edit", "args": {"command": "insert", "path": "/workspace/o__r__1/a.py", "insert_line": 3, "new_str": "y = 2"}},`+
			`{"id": 2, "observation": "edit", "cause": 1, "content": "The file has been edited."}]}`+"\n"),
			1, []model.Change{{File: "/workspace/o__r__1/a.py", Kind: model.ChangeInsert, Line: 3, New: "y = 2"}}},
		{"codex apply_patch", write("cx/rollout-2025-11-20T10-00-00-x.jsonl", lines(
			`{"timestamp":"2025-11-20T10:00:00.000Z","type":"session_meta","payload":{"id":"x","cwd":"/work/proj","originator":"codex_cli_rs","cli_version":"0.63.0"}}`,
			`{"timestamp":"2025-11-20T10:00:04.000Z","type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Update File: pkg/mod.py\n@@\n-x = 10\n+x = 11\n*** End Patch","call_id":"c1"}}`,
			`{"timestamp":"2025-11-20T10:00:05.000Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c1","output":"Success."}}`,
		)), 1, []model.Change{{File: "pkg/mod.py", Kind: model.ChangeReplace, Old: "x = 10", New: "x = 11"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			runs, err := Load(c.path, "")
			if err != nil {
				t.Fatal(err)
			}
			acts := runs[0].Actions
			if len(acts) < c.action {
				t.Fatalf("%d actions", len(acts))
			}
			if got := acts[c.action-1].Changes; !reflect.DeepEqual(got, c.want) {
				t.Errorf("changes %+v\nwant %+v", got, c.want)
			}
		})
	}
	// On the real samples: every Edit of the Claude Code session and the
	// resolver's two accepted replacements.
	for _, c := range []struct {
		file    string
		run     int
		changes int
	}{{"claude-code-native/orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl", 0, 7}, {"openhands/output.jsonl", 1, 2}} {
		path := sharedFormats + c.file
		if _, err := os.Stat(path); err != nil {
			continue
		}
		runs, err := Load(path, "")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, a := range runs[c.run].Actions {
			n += len(a.Changes)
		}
		if n != c.changes {
			t.Errorf("%s: %d changes, want %d", c.file, n, c.changes)
		}
	}
}
