package qwencode

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

var load = predtest.Loader(ParseRuns, nil)

// A Qwen Code session: each functionCall an action with its
// functionResponse, offsets counted from 0, paths made relative to the
// session's cwd, a record written twice counted once, what the reader does
// not know counted, a half-written last line skipped with a warning.
func TestSession(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/session.jsonl")
	if run.InstanceID != "q-1" || run.Model != "qwen3-coder-plus" || run.Task == "" || run.Format != Name {
		t.Errorf("run %q %q %q %q", run.InstanceID, run.Model, run.Task, run.Format)
	}
	rng := predtest.Range
	want := []struct {
		tool  string
		cat   model.Category
		reads []model.ObservedRead
		edits []string
	}{
		{"read_file", model.CategoryRead, rng("src/p.py", 10, 14), nil},
		{"run_shell_command", model.CategorySearch, rng("src/p.py", 12, 12), nil},
		{"edit", model.CategoryEdit, nil, []string{"src/p.py"}},
	}
	if len(run.Actions) != len(want) {
		t.Fatalf("%d actions", len(run.Actions))
	}
	for i, w := range want {
		a := run.Actions[i]
		if a.Tool != w.tool || a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) {
			t.Errorf("action %d = %s %v %+v %v, want %+v", i, a.Tool, a.Category, a.Reads, a.Edits, w)
		}
	}
	if u := run.Actions[0].Usage; u != model.NewUsage(400, 24, 100, 0) {
		t.Errorf("usage %+v", u)
	}
	if !reflect.DeepEqual(run.Unread, map[string]int{"system:brand_new_subtype": 1}) {
		t.Errorf("unread %v", run.Unread)
	}
	if len(run.Warnings) != 1 {
		t.Errorf("warnings %q", run.Warnings)
	}
}

func TestSniff(t *testing.T) {
	for head, want := range map[string]bool{
		`{"uuid":"a","sessionId":"s","type":"user","message":{"role":"user","parts":[{"text":"x"}]}}`: true,
		`{"uuid":"a","sessionId":"s","type":"user","message":{"role":"user","content":"x"}}`:          false,
		`{"sessionId":"s","projectHash":"h","messages":[]}`:                                           false,
	} {
		if Sniff("x", []byte(head)) != want {
			t.Errorf("Sniff(%s) = %v", head, !want)
		}
	}
}
