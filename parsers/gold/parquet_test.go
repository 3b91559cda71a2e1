package gold

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/trajscope/trajscope/model"
)

const (
	sharedDir       = "../../../shared/data/contextbench/"
	textParquet     = sharedDir + "test.parquet"
	jsonParquet     = sharedDir + "contextbench_verified_test.parquet"
	sharedNotLoaded = "shared data not present"
)

func loadShared(t testing.TB, path string) *Set {
	t.Helper()
	if _, err := os.Stat(path); os.IsNotExist(err) {
		t.Skip(sharedNotLoaded)
	}
	set, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestSharedParquets loads both 50-row hub exports. The text-form gold of
// test.parquet must give exactly the spans of the JSON form in
// contextbench_verified_test.parquet, row by row, and every other column must
// agree.
func TestSharedParquets(t *testing.T) {
	text := loadShared(t, textParquet)
	js := loadShared(t, jsonParquet)
	for _, s := range []*Set{text, js} {
		if s.Len() != 50 {
			t.Fatalf("Len = %d, want 50", s.Len())
		}
		if len(s.Problems()) != 0 {
			t.Fatalf("problems: %v", s.Problems())
		}
	}
	spans := 0
	for i, tg := range text.All() {
		jg := js.All()[i]
		if !tg.TextForm || jg.TextForm {
			t.Errorf("row %d: TextForm text=%v json=%v", i, tg.TextForm, jg.TextForm)
		}
		if len(jg.Init) == 0 || !reflect.DeepEqual(tg.Init, jg.Init) {
			t.Errorf("row %d (%s): text spans %v\njson spans %v", i, tg.ID, tg.Init, jg.Init)
		}
		spans += len(jg.Init)
		a, b := *tg, *jg
		a.Init, b.Init, a.TextForm = nil, nil, false
		if !reflect.DeepEqual(a, b) {
			t.Errorf("row %d: other columns differ:\n%+v\n%+v", i, a, b)
		}
		if tg.RepoURL != "" || tg.Commit == "" || tg.Patch == "" || tg.InstID == "" || tg.Add != nil {
			t.Errorf("row %d: unexpected fields %+v", i, a)
		}
	}
	// The reference counts 391 entries in the sample.
	if spans != 391 {
		t.Errorf("%d spans in all, want 391", spans)
	}
}

func TestSharedParquetSpotCheck(t *testing.T) {
	for _, path := range []string{textParquet, jsonParquet} {
		s := loadShared(t, path)
		g, ok := s.Get("django__django-12419")
		if !ok {
			t.Fatalf("%s: django__django-12419 not found", path)
		}
		want := []model.GoldSpan{
			{File: "django/conf/global_settings.py", Start: 630, End: 642},
			{File: "django/conf/global_settings.py", Start: 637, End: 642},
		}
		if !reflect.DeepEqual(g.Init, want) {
			t.Errorf("%s: Init = %v", path, g.Init)
		}
		if g.ID != "django__django-12419" || g.InstID != "SWE-Bench-Verified__python__maintenance__bugfix__16c72e4c" ||
			g.Commit != "7fa1a93c6c8109010a6ff3f604fda83b604e0e97" || g.Repo != "django/django" ||
			g.Language != "python" || g.Source != "Verified" {
			t.Errorf("%s: fields %+v", path, *g)
		}
		if g2, ok := s.Get(g.InstID); !ok || g2 != g {
			t.Errorf("%s: lookup by instance_id failed", path)
		}
		// A Multi row keeps its container path; normalisation is the scorer's.
		m, ok := s.Get("cli__cli-5973")
		if !ok || len(m.Init) != 3 || m.Init[0] != (model.GoldSpan{File: "/workspace/cli__cli__0.1/pkg/cmd/repo/clone/clone.go", Start: 1, End: 180}) {
			t.Errorf("%s: cli__cli-5973 = %+v", path, m)
		}
	}
}

// hubRow is the hub export's schema: optional strings. RepoURL is left out of
// the schema unless withURL is used, like the shipped files.
type hubRow struct {
	InstanceID     *string `parquet:"instance_id,optional"`
	OriginalInstID *string `parquet:"original_inst_id,optional"`
	Repo           *string `parquet:"repo,optional"`
	BaseCommit     *string `parquet:"base_commit,optional"`
	GoldContext    *string `parquet:"gold_context,optional"`
	Patch          *string `parquet:"patch,optional"`
	ProblemStmt    *string `parquet:"problem_statement,optional"`
	Source         *string `parquet:"source,optional"`
	Language       *string `parquet:"language,optional"`
}

type hubRowURL struct {
	InstanceID  *string `parquet:"instance_id,optional"`
	RepoURL     *string `parquet:"repo_url,optional"`
	BaseCommit  *string `parquet:"base_commit,optional"`
	GoldContext *string `parquet:"gold_context,optional"`
}

func ptr(s string) *string { return &s }

func TestParquetRows(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hub.parquet")
	rows := []hubRow{
		{InstanceID: ptr("NEW__1"), OriginalInstID: ptr("o__r-1"), Repo: ptr("o/r"), BaseCommit: ptr("c1"),
			GoldContext: ptr(`[{"file": "a.py", "start_line": 5, "end_line": 6}]`), Patch: ptr("diff"), Source: ptr("Verified"), Language: ptr("python"), ProblemStmt: ptr("long text")},
		{InstanceID: ptr("NEW__2"), GoldContext: ptr("context0：\nfile: b.py\nstart_line: 1\nend_line: 2\nbody\n")},
		{OriginalInstID: ptr("o__r-3"), GoldContext: nil},
		{GoldContext: ptr("[]")},
		{InstanceID: ptr("NEW__5"), GoldContext: ptr("garbage")},
		{InstanceID: ptr("NEW__6"), GoldContext: ptr(`[{"file": "c.py", "start_line": "7"}]`)},
		{InstanceID: ptr("NEW__7"), GoldContext: ptr(`[{"file": "", "start_line": 7}, {"file": "d.py"}]`)},
	}
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		id       string
		want     model.Gold
		notFound bool
	}{
		{id: "o__r-1", want: model.Gold{ID: "o__r-1", InstID: "NEW__1", OriginalInstID: "o__r-1", Repo: "o/r", Commit: "c1",
			Init: []sp{{File: "a.py", Start: 5, End: 6}}, Patch: "diff", Task: "long text", Source: "Verified", Language: "python"}},
		{id: "NEW__1", want: model.Gold{ID: "o__r-1", InstID: "NEW__1", OriginalInstID: "o__r-1", Repo: "o/r", Commit: "c1",
			Init: []sp{{File: "a.py", Start: 5, End: 6}}, Patch: "diff", Task: "long text", Source: "Verified", Language: "python"}},
		{id: "NEW__2", want: model.Gold{ID: "NEW__2", InstID: "NEW__2", Init: []sp{{File: "b.py", Start: 1, End: 2}}, TextForm: true}},
		{id: "o__r-3", want: model.Gold{ID: "o__r-3", OriginalInstID: "o__r-3"}},
		{id: "NEW__5", want: model.Gold{ID: "NEW__5", InstID: "NEW__5"}},
		{id: "NEW__6", notFound: true},
		{id: "NEW__7", want: model.Gold{ID: "NEW__7", InstID: "NEW__7", Init: []sp{{File: "d.py", Start: 1, End: 1}}}},
	}
	for _, tt := range tests {
		g, ok := s.Get(tt.id)
		if ok == tt.notFound {
			t.Errorf("Get(%q) found = %v", tt.id, ok)
			continue
		}
		if ok && !reflect.DeepEqual(*g, tt.want) {
			t.Errorf("Get(%q) = %+v\nwant %+v", tt.id, *g, tt.want)
		}
	}
	if s.Len() != 5 {
		t.Errorf("Len = %d, want 5", s.Len())
	}
	want := []string{
		p + ": row 4: no instance_id or original_inst_id (row skipped)",
		p + `: row 5 (NEW__5): gold_context: neither JSON nor the text form ("context0：\nfile: …"); read as empty gold (as upstream)`,
		p + ": row 6 (NEW__6): gold_context[0].start_line: expected an integer, found a string (row skipped)",
	}
	if got := problemTexts(s); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestParquetRepoURL: a repo_url column, when a file has one, is read.
func TestParquetRepoURL(t *testing.T) {
	p := filepath.Join(t.TempDir(), "url.parquet")
	rows := []hubRowURL{{InstanceID: ptr("X"), RepoURL: ptr("https://github.com/o/r.git"), BaseCommit: ptr("c"), GoldContext: ptr("[]")}}
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := s.Get("X"); !ok || g.RepoURL != "https://github.com/o/r.git" || g.Commit != "c" {
		t.Errorf("got %+v", g)
	}
}

func TestParquetSchemaErrors(t *testing.T) {
	type noGold struct {
		InstanceID *string `parquet:"instance_id,optional"`
	}
	type intGold struct {
		InstanceID  *string `parquet:"instance_id,optional"`
		GoldContext int64   `parquet:"gold_context"`
	}
	dir := t.TempDir()
	p1 := filepath.Join(dir, "nogold.parquet")
	p2 := filepath.Join(dir, "intgold.parquet")
	if err := parquet.WriteFile(p1, []noGold{{ptr("a")}}); err != nil {
		t.Fatal(err)
	}
	if err := parquet.WriteFile(p2, []intGold{{ptr("a"), 3}}); err != nil {
		t.Fatal(err)
	}
	// A truncated file: the footer is gone.
	data, _ := os.ReadFile(p1)
	p3 := filepath.Join(dir, "cut.parquet")
	os.WriteFile(p3, data[:len(data)/2], 0o644)
	for _, tt := range []struct{ path, want string }{
		{p1, "nogold.parquet: no gold_context column"},
		{p2, `intgold.parquet: column "gold_context": expected an optional string column`},
		{p3, "cut.parquet: not a readable parquet file"},
	} {
		_, err := Load(tt.path)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Load(%s) err = %v, want %q", tt.path, err, tt.want)
		}
	}
}

func BenchmarkLoadParquet(b *testing.B) {
	for _, path := range []string{jsonParquet, textParquet} {
		if _, err := os.Stat(path); err != nil {
			b.Skip(sharedNotLoaded)
		}
		b.Run(filepath.Base(path), func(b *testing.B) {
			for b.Loop() {
				s, err := Load(path)
				if err != nil || s.Len() != 50 {
					b.Fatal(err)
				}
			}
		})
	}
}
