package gold

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/testkit"
)

// checkSet asserts what every loaded Set keeps, whatever the input: each
// problem names the file and says what is wrong, each row has an id it can
// be found by, and no span lost its file.
func checkSet(t *testing.T, set *Set, file string) {
	t.Helper()
	for _, e := range set.Problems() {
		p := e.(*Problem)
		if p.File != file || p.Msg == "" || p.Line < 0 {
			t.Fatalf("bad problem %+v", p)
		}
	}
	for _, g := range set.All() {
		if g.ID == "" || (g.ID != g.OriginalInstID && g.ID != g.InstID) {
			t.Fatalf("bad id %+v", g)
		}
		if _, ok := set.Get(g.ID); !ok {
			t.Fatalf("Get(%q) misses a loaded row", g.ID)
		}
		for _, s := range append(g.Init, g.Add...) {
			if s.File == "" {
				t.Fatal("span without a file kept")
			}
		}
	}
}

// FuzzGoldJSON: a gold file in the JSON form (a list of rows or one row
// object) never panics; an error names the file.
func FuzzGoldJSON(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.json")
	annots, _ := filepath.Glob("testdata/annot/*/annot.json")
	for _, p := range append(seeds, annots...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`[{"inst_id": "a", "init_ctx": [{"file": "x", "start_line": -1, "end_line": 1e999}]}, 3, null`))
	f.Add([]byte("\xef\xbb\xbf {\"original_inst_id\": \"o\", \"gold_ctx\": \"context0：\\nfile: a\\n\"}"))
	// One file per fuzz process: the loader reads paths, not bytes.
	path := filepath.Join(f.TempDir(), "gold.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := loadFile(path)
		if err != nil && !strings.HasPrefix(err.Error(), path) {
			t.Fatalf("error does not start with the file: %v", err)
		}
		if set != nil {
			checkSet(t, set, path)
		}
	})
}

// FuzzGoldParquet: a corrupt or hostile parquet file gives an error naming
// the file, never a panic (parquet-go panics on some corrupt input; the
// loader must turn that into an error).
func FuzzGoldParquet(f *testing.F) {
	for _, rows := range [][]hubRow{
		{{InstanceID: ptr("NEW__1"), OriginalInstID: ptr("o__r-1"), Repo: ptr("o/r"), BaseCommit: ptr("c1"),
			GoldContext: ptr(`[{"file": "a.py", "start_line": 5, "end_line": 6}]`), Patch: ptr("diff")}},
		{{InstanceID: ptr("NEW__2"), GoldContext: ptr("context0：\nfile: b.py\nstart_line: 1\nend_line: 2\nbody\n")},
			{OriginalInstID: ptr("o__r-3")}, {GoldContext: ptr("[]")}, {InstanceID: ptr("NEW__5"), GoldContext: ptr("garbage")}},
	} {
		var buf bytes.Buffer
		if err := parquet.Write(&buf, rows); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes())
	}
	var buf bytes.Buffer
	if err := parquet.Write(&buf, []hubRowURL{{InstanceID: ptr("X"), RepoURL: ptr("https://github.com/o/r.git"), GoldContext: ptr("[]")}}); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	path := filepath.Join(f.TempDir(), "gold.parquet")
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := loadParquet(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path) {
				t.Fatalf("error does not start with the file: %v", err)
			}
			return
		}
		// Look-ups before the set is built answer as the built set does.
		lazy := map[string]*model.Gold{}
		for id := range set.lazy.byKey {
			g, _ := set.Get(id)
			lazy[id] = g
		}
		checkSet(t, set, path)
		for id, want := range lazy {
			if g, _ := set.Get(id); g != want {
				t.Fatalf("Get(%q) before the set was built %v, after %v", id, want, g)
			}
		}
	})
}
