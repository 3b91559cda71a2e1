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
