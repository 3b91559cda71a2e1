package goose

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

var load = predtest.Loader(ParseRuns, nil)

// A Goose export: toolRequest and toolResponse paired by id, the developer
// extension's text_editor and shell read as their kinds are, another
// extension's tool an action of its own, unknown ones counted.
func TestExport(t *testing.T) {
	run := predtest.LoadOne(t, load, "testdata/export.json")
	if run.InstanceID != "20260101_3" || run.Task != "Fix the off-by-one in lib/range.py" || run.CostUSD != 0.12 {
		t.Errorf("run %q %q %v", run.InstanceID, run.Task, run.CostUSD)
	}
	rng := predtest.Range
	want := []struct {
		cat   model.Category
		reads []model.ObservedRead
		edits []string
	}{
		{model.CategoryRead, rng("lib/range.py", 3, 9), nil},
		{model.CategorySearch, rng("lib/range.py", 3, 3), nil},
		{model.CategoryEdit, nil, []string{"lib/range.py"}},
		{model.CategoryOther, nil, nil},
		{model.CategoryOther, nil, nil},
	}
	if len(run.Actions) != len(want) {
		t.Fatalf("%d actions", len(run.Actions))
	}
	for i, w := range want {
		a := run.Actions[i]
		if a.Category != w.cat || !reflect.DeepEqual(a.Reads, w.reads) || !reflect.DeepEqual(a.Edits, w.edits) {
			t.Errorf("action %d (%s) = %v %+v %v, want %+v", i, a.Tool, a.Category, a.Reads, a.Edits, w)
		}
	}
	if want := map[string]int{"tool:developer__teleport": 1, "content:hologram": 1}; !reflect.DeepEqual(run.Unread, want) {
		t.Errorf("unread %v", run.Unread)
	}
}
