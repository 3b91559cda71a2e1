package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// eventsSchema is CodeScaleBench's schema, beside the project (../shared);
// "" when it is not there.
const eventsSchema = "../../shared/data/peers/codecontextbench/retrieval_events_schema.json"

// convert --to retrieval-events writes a document per run that validates
// against the pipeline's schema, says what each action read (its lines),
// searched and wrote and which hit the gold; view reads it back as a run
// whose observed reads are the original's.
func TestRetrievalEvents(t *testing.T) {
	dir := t.TempDir()
	traj := "../testdata/testvectors/traj/owner__repo-1.traj.json"
	out := filepath.Join(dir, "events")
	if _, errs, code := run(t, "convert", traj, "--to", "retrieval-events", "--gold", exGold, "--repo", exRepo, "-o", out); code != 0 {
		t.Fatalf("convert: exit %d: %s", code, errs)
	}
	path := filepath.Join(out, "owner__repo-1.retrieval_events.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		SchemaVersion string `json:"schema_version"`
		Coverage      struct {
			TraceSource    string  `json:"trace_source"`
			DegradedReason *string `json:"degraded_reason"`
			HasGT          bool    `json:"has_ground_truth"`
		} `json:"coverage"`
		GroundTruth struct {
			Files []string `json:"files"`
		} `json:"ground_truth"`
		Events []struct {
			Step      int                        `json:"step_index"`
			Category  string                     `json:"tool_category"`
			Targets   []string                   `json:"target_files"`
			Hits      bool                       `json:"hits_ground_truth"`
			Arguments map[string]json.RawMessage `json:"arguments"`
		} `json:"events"`
		Summary struct {
			Total, Local, GTHit int
			First               *int `json:"first_ground_truth_hit_step"`
		} `json:"summary"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.SchemaVersion != "1.0" || doc.Coverage.TraceSource != "trajectory" || doc.Coverage.DegradedReason != nil || !doc.Coverage.HasGT ||
		len(doc.GroundTruth.Files) == 0 || len(doc.Events) == 0 || doc.Summary.First == nil {
		t.Fatalf("document:\n%s", raw)
	}
	lines := 0
	for _, e := range doc.Events {
		if e.Category == "file_read" {
			if _, ok := e.Arguments["lines"]; ok {
				lines++
			}
		}
	}
	if lines == 0 {
		t.Errorf("no file_read event says the lines it showed:\n%s", raw)
	}
	if b, err := os.ReadFile(eventsSchema); err == nil {
		c := jsonschema.NewCompiler()
		var s any
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		if err := c.AddResource("schema.json", s); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile("schema.json")
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		json.Unmarshal(raw, &inst)
		if err := sch.Validate(inst); err != nil {
			t.Errorf("the document does not validate against the pipeline's schema: %v", err)
		}
		inst.(map[string]any)["extra"] = 1 // the schema admits no other member: the check can fail
		if sch.Validate(inst) == nil {
			t.Error("the schema check accepts anything")
		}
	} else {
		t.Logf("no %s: schema validation skipped", eventsSchema)
	}
	// Read back: the same observed reads, the same observed figures.
	obs := func(args ...string) string {
		t.Helper()
		o, errs, code := run(t, append([]string{"view", "--json", "--gold", exGold, "--repo", exRepo}, args...)...)
		if code != 0 {
			t.Fatalf("view %v: %s", args, errs)
		}
		var v struct {
			Lenses map[string]struct {
				Coverage []json.RawMessage `json:"coverage"`
				Read     json.RawMessage   `json:"read_lines"`
			} `json:"lenses"`
		}
		json.Unmarshal([]byte(o), &v)
		l := v.Lenses["observed"]
		if len(l.Coverage) == 0 {
			return ""
		}
		// After the last action (the document has only the actions that
		// retrieved: the run's submit is not one).
		return string(l.Coverage[len(l.Coverage)-1]) + " " + string(l.Read)
	}
	// (what the run declared is not in the document: only what it saw)
	if a, b := obs(traj), obs(path); len(a) < 10 || a != b {
		t.Errorf("observed coverage and lines read of the run %s, of its document %s", a, b)
	}
	if _, errs, code := run(t, "convert", traj, "--to", "retrieval-events"); code != exitUsage || !strings.Contains(errs, "-o DIR") {
		t.Errorf("no -o: exit %d %s", code, errs)
	}
}

// A session that retrieves through an MCP server's tool: the document's
// event is MCP evidence, a read of the lines the tool showed.
func TestRetrievalEventsMCP(t *testing.T) {
	dir := t.TempDir()
	session := filepath.Join(dir, "s.jsonl")
	line := func(s string) string { return s + "\n" }
	os.WriteFile(session, []byte(
		line(`{"type": "user", "uuid": "u0", "sessionId": "s", "cwd": "/w", "timestamp": "2026-01-01T00:00:00Z", "message": {"role": "user", "content": "fix"}}`)+
			line(`{"type": "assistant", "uuid": "a1", "parentUuid": "u0", "sessionId": "s", "timestamp": "2026-01-01T00:00:01Z", "message": {"role": "assistant", "id": "m1", "content": [{"type": "tool_use", "id": "t1", "name": "mcp__codegraph__read_file", "input": {"path": "pkg/mod.py"}}]}}`)+
			line(`{"type": "user", "uuid": "u2", "parentUuid": "a1", "sessionId": "s", "timestamp": "2026-01-01T00:00:02Z", "message": {"role": "user", "content": [{"tool_use_id": "t1", "type": "tool_result", "content": "     1\tx = 1\n     2\ty = 2\n     3\tz = 3"}]}}`),
	), 0o644)
	out := filepath.Join(dir, "ev")
	if _, errs, code := run(t, "convert", session, "--to", "retrieval-events", "--repo", exRepo, "-o", out); code != 0 {
		t.Fatalf("convert: %s", errs)
	}
	raw, err := os.ReadFile(filepath.Join(out, "s.retrieval_events.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Events []struct {
			Tool     string                     `json:"tool_name"`
			Category string                     `json:"tool_category"`
			MCP      bool                       `json:"is_mcp"`
			Args     map[string]json.RawMessage `json:"arguments"`
		} `json:"events"`
		Summary struct {
			MCP int `json:"mcp_events"`
		} `json:"summary"`
	}
	json.Unmarshal(raw, &doc)
	var lines bytes.Buffer
	if len(doc.Events) == 1 {
		json.Compact(&lines, doc.Events[0].Args["lines"])
	}
	if len(doc.Events) != 1 || !doc.Events[0].MCP || doc.Events[0].Category != "file_read" || doc.Summary.MCP != 1 ||
		lines.String() != `{"pkg/mod.py":[[1,3]]}` {
		t.Errorf("document:\n%s", raw)
	}
}
