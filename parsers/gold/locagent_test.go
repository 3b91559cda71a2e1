package gold

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// LocAgent / Loc-Bench gold (gt_location.jsonl) is file- and symbol-level
// gold: its rows name files and edited entities, no lines; ids are
// instance_id.
func TestLocAgentGold(t *testing.T) {
	p := filepath.Join(t.TempDir(), "gt_location.jsonl")
	os.WriteFile(p, []byte(`{"instance_id": "o__r-1", "repo": "o/r", "base_commit": "abc", "file_changes": [`+
		`{"file": "pkg/a.py", "changes": {"edited_entities": ["pkg/a.py:A.run"], "edited_modules": ["pkg/a.py:A"]}}, `+
		`{"file": "pkg/b.py", "changes": {}}, {"file": "pkg/a.py", "changes": {}}]}`+"\n"+
		`{"instance_id": "o__r-2", "file_changes": [{"changes": {}}]}`+"\n"), 0o644)
	set, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := set.Get("o__r-1")
	if !ok || g.Repo != "o/r" || g.Commit != "abc" || !reflect.DeepEqual(g.Files, []string{"pkg/a.py", "pkg/b.py"}) || len(g.Init) != 0 || g.Source != "locagent" {
		t.Fatalf("row 1: %+v", g)
	}
	if want := []model.FileSymbols{{File: "pkg/a.py", Symbols: []string{"A.run"}}}; !reflect.DeepEqual(g.Symbols, want) {
		t.Errorf("row 1 entities: %+v, want %+v", g.Symbols, want)
	}
	if _, ok := set.Get("o__r-2"); ok || len(set.Problems()) != 1 {
		t.Errorf("a row whose change names no file: %v", set.Problems())
	}
	const shared = "../../../shared/data/peers/locagent/gt_location.jsonl"
	if _, err := os.Stat(shared); err != nil {
		return
	}
	set, err = Load(shared)
	if err != nil || set.Len() < 200 {
		t.Fatalf("the shared LocAgent gold: %d rows, %v", set.Len(), err)
	}
	if g, ok := set.Get("astropy__astropy-12907"); !ok || !reflect.DeepEqual(g.Files, []string{"astropy/modeling/separable.py"}) {
		t.Errorf("astropy__astropy-12907: %+v", g)
	}
}
