package parsers

import (
	"os"
	"path/filepath"
	"testing"
)

// How a run ended and what it cost, where its format records them: small
// files of each format, then the real samples when they are present.
func TestExitStatusAndCost(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, content string
		status        string
		cost          float64
	}{
		{"a__b-1.traj.json", `{"trajectory_format":"mini-swe-agent-1","instance_id":"a__b-1",
			"info":{"exit_status":"LimitsExceeded","model_stats":{"instance_cost":1.5},"submission":""},
			"messages":[{"role":"system","content":"s"},{"role":"user","content":"u"},{"role":"assistant","content":"` + "```bash\\nls\\n```" + `"}]}`,
			"LimitsExceeded", 1.5},
		// No cost recorded, or not a usable number: 0.
		{"a__b-2.traj.json", `{"trajectory_format":"mini-swe-agent-1","info":{"exit_status":"Submitted","model_stats":{"instance_cost":"free"}},
			"messages":[{"role":"assistant","content":"` + "```bash\\nls\\n```" + `"}]}`,
			"Submitted", 0},
		{"v2.json", `{"trajectory_format":"mini-swe-agent-1.1","info":{"exit_status":"Submitted","model_stats":{"instance_cost":0.25}},
			"messages":[{"role":"assistant","content":"","tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},
			{"role":"tool","tool_call_id":"c1","content":"a"}]}`,
			"Submitted", 0.25},
		{"a__b-3.traj", `{"trajectory":[{"action":"ls","observation":"a","thought":""}],
			"info":{"exit_status":"submitted (exit_cost)","model_stats":{"instance_cost":2}}}`,
			"submitted (exit_cost)", 2},
		{"session.jsonl", `{"type":"system","subtype":"init","session_id":"s1","model":"claude"}
{"type":"assistant","message":{"id":"m1","model":"claude","content":[{"type":"text","text":"hi"}]}}
{"type":"result","subtype":"error_max_turns","total_cost_usd":0.5}`,
			"error_max_turns", 0.5},
		{"output.jsonl", `{"instance_id":"a__b-4","history":[],"error":"Agent reached maximum iteration","metrics":{"accumulated_cost":0.3}}`,
			"Agent reached maximum iteration", 0.3},
		{"atif.json", `{"schema_version":"ATIF-v1.7","session_id":"s","agent":{"name":"claude-code","model_name":"m"},"steps":[],
			"final_metrics":{"total_cost_usd":0.05}}`,
			"", 0.05},
	}
	for _, c := range cases {
		path := filepath.Join(dir, c.name)
		if err := os.WriteFile(path, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		checkEnd(t, path, c.status, c.cost)
	}

	real := []struct {
		path   string
		status string
		cost   float64
	}{
		{shared + "/formats/mini-swe-agent-v1/pydata__xarray-4075.traj.json", "Submitted", 0},
		{shared + "/formats/mini-swe-agent-v2/astropy__astropy-12907.traj.json", "Submitted", 0.04282165999999999},
		// SWE-agent recorded a null exit status for this attempt.
		{shared + "/formats/swe-agent/pallets__flask-5014.traj", "", 0.03140625},
		{shared + "/formats/openhands/output.jsonl", "", 0.070713},
		{shared + "/formats/claude-code/trajectory.json", "", 0.05176650000000001},
	}
	for _, c := range real {
		if _, err := os.Stat(c.path); err != nil {
			t.Logf("skipping %s: %v", c.path, err)
			continue
		}
		checkEnd(t, c.path, c.status, c.cost)
	}
}

func checkEnd(t *testing.T, path, status string, cost float64) {
	t.Helper()
	runs, err := Load(path, "")
	if err != nil || len(runs) == 0 {
		t.Errorf("%s: %d runs, %v", filepath.Base(path), len(runs), err)
		return
	}
	if r := runs[0]; r.ExitStatus != status || r.CostUSD != cost {
		t.Errorf("%s: exit %q cost %v, want %q %v", filepath.Base(path), r.ExitStatus, r.CostUSD, status, cost)
	}
}
