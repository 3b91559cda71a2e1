package parsers

import (
	"os"
	"strings"
	"testing"
)

// Each format's task is the issue the agent was given, out of its
// harness's prompt: checked on the real samples of ../shared.
func TestTaskStatements(t *testing.T) {
	cases := []struct {
		file   string
		run    int
		prefix string
	}{
		{"mini-swe-agent-v1/pydata__xarray-4075.traj.json", 0, "[bug] when passing boolean weights to weighted mean"},
		{"swe-agent/pallets__flask-5014.traj", 0, "Require a non-empty name for Blueprints"},
		{"openhands/output.jsonl", 1, "Add a toggle for dark mode\n\nIt'd be nice"},
		{"openhands-v1/openagentsafety_gpt-4o_output.jsonl", 0, "# Task\n\nYou are an AI agent assisting employees"},
		{"claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl", 0, `Create a file called hello.txt with "Hello, world!"`},
		{"claude-code-native/orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl", 0, "Implement the following plan:"},
		{"codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl", 0, "finish up the users work by rigging up the chatbot-ui"},
	}
	for _, c := range cases {
		path := sharedFormats + c.file
		if _, err := os.Stat(path); err != nil {
			t.Skip("shared data not available")
		}
		runs, err := Load(path, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := runs[c.run].Task; !strings.HasPrefix(got, c.prefix) {
			t.Errorf("%s: task %.80q, want it to start %q", c.file, got, c.prefix)
		}
	}
}
