package goosedb_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/goose"
	"github.com/trajscope/trajscope/parsers/goosedb"
	"github.com/trajscope/trajscope/testkit/goosedbtest"
)

// A session Goose keeps in its database reads as its export does: the
// same actions, outputs and task; sessions come oldest first, each a run
// named by its id; a session written while it is read reads as far as it
// was written.
func TestSessionIsItsExport(t *testing.T) {
	export, err := os.ReadFile("../goose/testdata/export.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := goose.ParseRuns("export.json", export)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "sessions.db")
	db := goosedbtest.Create(t, path)
	conv := goosedbtest.Conversation(t, export)
	db.Session("20260101_1", "/elsewhere")
	db.Session("20260101_3", "/w")
	db.Add("20260101_3", conv[:3]...)
	head, _ := os.ReadFile(path)
	if !goosedb.Sniff("sessions.db", head[:min(len(head), 64<<10)]) {
		t.Fatal("not recognised as Goose's database")
	}
	if f, err := parsers.Detect(path); err != nil || f != goosedb.Name {
		t.Fatalf("detected as %q, %v", f, err)
	}
	runs, err := goosedb.Load(path)
	if err != nil || len(runs) != 2 || runs[0].InstanceID != "20260101_1" || runs[1].InstanceID != "20260101_3" {
		t.Fatalf("%d runs, %v", len(runs), err)
	}
	if n := len(runs[1].Actions); n != 1 {
		t.Errorf("three messages written: %d actions, want 1", n)
	}
	db.Add("20260101_3", conv[3:]...)
	runs, err = goosedb.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	got := runs[1]
	if got.Format != goosedb.Name || got.Task != want[0].Task || len(got.Actions) != len(want[0].Actions) {
		t.Fatalf("format %s, task %q, %d actions; export: %q, %d actions", got.Format, got.Task, len(got.Actions), want[0].Task, len(want[0].Actions))
	}
	for i := range got.Actions {
		if !reflect.DeepEqual(got.Actions[i], want[0].Actions[i]) || got.Observation(i) != want[0].Observation(i) {
			t.Errorf("action %d: %+v\nexport: %+v", i, got.Actions[i], want[0].Actions[i])
		}
	}
	list, err := goosedb.Sessions(path)
	if err != nil || len(list) != 2 || list[1].WorkingDir != "/w" || list[1].Updated.IsZero() {
		t.Errorf("sessions %+v, %v", list, err)
	}
}

// What is not Goose's database is refused in one line, never read as one.
func TestNotAGooseDatabase(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.db")
	os.WriteFile(text, []byte("hello"), 0o644)
	if goosedb.Sniff("notes.db", []byte("hello")) {
		t.Error("text taken for a database")
	}
	if _, err := goosedb.Load(text); err == nil {
		t.Error("text read as a database")
	}
	if _, err := goosedb.Load(dir); err == nil {
		t.Error("a folder read as a database")
	}
}
