package opencodedb_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/opencode"
	"github.com/trajscope/trajscope/parsers/opencodedb"
	"github.com/trajscope/trajscope/testkit/opencodedbtest"
)

// A session OpenCode keeps in its database reads as its export does: the
// same actions, outputs, task and tokens; sessions come oldest first, each
// a run named by its id; a session written while it is read reads as far
// as it was written.
func TestSessionIsItsExport(t *testing.T) {
	export, err := os.ReadFile("../opencode/testdata/export.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := opencode.ParseRuns("export.json", export)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "opencode.db")
	db := opencodedbtest.Create(t, path)
	msgs := opencodedbtest.Messages(t, export)
	db.Session("ses_0", "", "/elsewhere", 1767225500000)
	db.Session("ses_1", "", "/home/u/app", 1767225600000)
	db.Add("ses_1", 1767225600000, msgs[:1]...)
	if f, err := parsers.Detect(path); err != nil || f != opencodedb.Name {
		t.Fatalf("detected as %q, %v", f, err)
	}
	runs, err := opencodedb.Load(path)
	if err != nil || len(runs) != 2 || runs[0].InstanceID != "ses_0" || runs[1].InstanceID != "ses_1" {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if runs[1].Task != want[0].Task || len(runs[1].Actions) != 0 {
		t.Errorf("the prompt alone: task %q, %d actions", runs[1].Task, len(runs[1].Actions))
	}
	db.Add("ses_1", 1767225601000, msgs[1:]...)
	runs, err = opencodedb.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := runs[1]
	if got.Format != opencodedb.Name || got.Task != want[0].Task || len(got.Actions) != len(want[0].Actions) || len(got.Actions) == 0 {
		t.Fatalf("format %s, task %q, %d actions; export: %q, %d actions", got.Format, got.Task, len(got.Actions), want[0].Task, len(want[0].Actions))
	}
	for i := range got.Actions {
		if !reflect.DeepEqual(got.Actions[i], want[0].Actions[i]) || got.Observation(i) != want[0].Observation(i) {
			t.Errorf("action %d: %+v\nexport: %+v", i, got.Actions[i], want[0].Actions[i])
		}
	}
	if got.RestUsage != want[0].RestUsage || got.CostUSD != want[0].CostUSD || got.Model != want[0].Model {
		t.Errorf("usage %+v $%v model %q; export %+v $%v %q", got.RestUsage, got.CostUSD, got.Model, want[0].RestUsage, want[0].CostUSD, want[0].Model)
	}
	list, err := opencodedb.Sessions(path)
	if err != nil || len(list) != 2 || list[1].Directory != "/home/u/app" || list[1].Updated.UnixMilli() != 1767225601000+int64(len(msgs))-2 {
		t.Errorf("sessions %+v, %v", list, err)
	}
}
