package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// v2Run is a mini-swe-agent v2 run (tool calls) that reads pkg/mod.py 4-5
// of the vector repository and edits line 5.
const v2Run = `{"trajectory_format": "mini-swe-agent-1.1",
 "info": {"mini_version": "2.3.0", "exit_status": "Submitted",
  "submission": "--- a/pkg/mod.py\n+++ b/pkg/mod.py\n@@ -5,1 +5,1 @@\n-    return x + 1\n+    return x + 2\n"},
 "messages": [
  {"role": "system", "content": "s"}, {"role": "user", "content": "task"},
  {"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
    "function": {"name": "bash", "arguments": "{\"command\": \"nl -ba /testbed/pkg/mod.py | sed -n '4,5p'\"}"}}]},
  {"role": "tool", "tool_call_id": "c1", "content": "<returncode>0</returncode>\n<output>\n     4\tdef alpha(x):\n     5\t    return x + 1\n</output>"}
 ]}`

// TestScoreMiniSWEv2: parity reads a v2 .traj.json with upstream's v1
// extractor (no context: an error row); fixed reads it as v2.
func TestScoreMiniSWEv2(t *testing.T) {
	dir := t.TempDir()
	pred := filepath.Join(dir, "owner__repo-1.traj.json")
	if err := os.WriteFile(pred, []byte(v2Run), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _, code := run(t, "score", "--gold", exGold, "--pred", pred, "--repo", exRepo)
	if code != 0 || strings.TrimSpace(out) != `{"instance_id": "owner__repo-1", "error": "no_context_extracted"}` {
		t.Fatalf("contextbench: exit %d, out %q", code, out)
	}
	out, _, code = run(t, "score", "--gold", exGold, "--pred", pred, "--repo", exRepo, "--semantics", "fixed", "--format", "csv")
	if code != 0 {
		t.Fatalf("fixed: exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	// Gold G1: mod 4-5 and util 1-2. The run saw mod 4-5: file 1/2, line 2/4.
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "owner__repo-1,,1,0.5,1.0,") {
		t.Fatalf("fixed csv:\n%s", out)
	}
}

// score reads a JSONL file of unified records a chunk at a time; what it
// writes, on stdout and in --out, is byte for byte what reading the whole
// file gives (--input-format takes that path), across chunk boundaries,
// bad lines, blank lines, ids without gold and records without ids.
func TestScoreStreamsJSONL(t *testing.T) {
	preds, err := os.ReadFile(exPreds)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(preds)), "\n")
	var b strings.Builder
	for i := 0; i < 2*streamChunk+90; i++ {
		b.WriteString(lines[i%len(lines)] + "\n")
		switch i % 97 {
		case 13:
			b.WriteString("{not json\n")
		case 29:
			b.WriteString("\n   \n")
		case 41:
			b.WriteString(`{"traj_data": {"pred_steps": []}}` + "\n")
		}
	}
	dir := t.TempDir()
	big := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(big, []byte(b.String()), 0o644)
	if !streamable(big) {
		t.Fatal("the file is not read a line at a time")
	}
	for _, sem := range []string{"contextbench", "fixed"} {
		args := []string{"score", "--gold", exGold, "--pred", big, "--repo", exRepo, "--semantics", sem}
		streamOut, streamErr, code1 := run(t, append(args, "--out", filepath.Join(dir, "s.jsonl"), "--format", "jsonl")...)
		wholeOut, wholeErr, code2 := run(t, append(args, "--out", filepath.Join(dir, "w.jsonl"), "--format", "jsonl", "--input-format", "unified")...)
		s, _ := os.ReadFile(filepath.Join(dir, "s.jsonl"))
		w, _ := os.ReadFile(filepath.Join(dir, "w.jsonl"))
		if code1 != 0 || code2 != 0 || streamOut != wholeOut || string(s) != string(w) || len(s) == 0 {
			t.Errorf("%s: streamed and whole-file results differ (exit %d/%d)", sem, code1, code2)
		}
		norm := func(s string) string { return strings.NewReplacer("s.jsonl", "X", "w.jsonl", "X").Replace(s) }
		if norm(streamErr) != norm(wholeErr) {
			t.Errorf("%s: stderr differs:\n%s\nwant\n%s", sem, streamErr, wholeErr)
		}
	}
}
