package gold

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

type sp = model.GoldSpan

func problemTexts(s *Set) []string {
	var out []string
	for _, e := range s.Problems() {
		out = append(out, e.Error())
	}
	return out
}

// TestJSONLRules checks each row rule of upstream's Gold(data) on the rows of
// testdata/rows.jsonl.
func TestJSONLRules(t *testing.T) {
	s, err := Load("testdata/rows.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		id       string
		wantID   string
		init     []sp
		add      []sp
		textForm bool
		commit   string
	}{
		{"init_ctx and add_ctx win over gold_ctx", "owner__repo-1", "owner__repo-1",
			[]sp{{File: "a.py", Start: 3, End: 5}}, []sp{{File: "b.py", Start: 1, End: 2}}, false, "c1"},
		{"gold_ctx when init and add are empty; falsy files dropped", "A2", "A2",
			[]sp{{File: "c.py", Start: 7, End: 9}}, nil, false, ""},
		{"init_ctx of falsy-file items still blocks gold_ctx", "A3", "A3", nil, nil, false, ""},
		{"missing lines default to 1, others kept raw", "A4", "A4",
			[]sp{{File: "e.py", Start: 1, End: 1}, {File: "f.py", Start: 10, End: 1}, {File: "g.py", Start: -3, End: 0}}, nil, false, ""},
		{"text-form gold_ctx string, content with a file: line", "A10", "A10",
			[]sp{{File: "h.py", Start: 2, End: 4}, {File: "i.py", Start: 5, End: 6}}, nil, true, ""},
		{"JSON string gold_ctx (upstream: empty)", "A11", "A11", []sp{{File: "j.py", Start: 1, End: 3}}, nil, true, ""},
		{"gold_ctx object gives empty gold", "A12", "A12", nil, nil, false, ""},
		{"non-string commit read as empty", "A13", "A13", []sp{{File: "l.py", Start: 1, End: 1}}, nil, false, ""},
		{"later row with the same inst_id wins", "A1", "A1", []sp{{File: "z.py", Start: 1, End: 1}}, nil, false, ""},
		{"add_ctx alone blocks gold_ctx", "A19", "A19", nil, []sp{{File: "m.py", Start: 2, End: 3}}, false, ""},
		{"unparseable gold_ctx string is empty gold", "A20", "A20", nil, nil, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, ok := s.Get(tt.id)
			if !ok {
				t.Fatalf("Get(%q) not found", tt.id)
			}
			if g.ID != tt.wantID || !reflect.DeepEqual(g.Init, tt.init) || !reflect.DeepEqual(g.Add, tt.add) ||
				g.TextForm != tt.textForm || g.Commit != tt.commit {
				t.Errorf("got ID %q Init %v Add %v TextForm %v Commit %q", g.ID, g.Init, g.Add, g.TextForm, g.Commit)
			}
		})
	}
	first, _ := s.Get("owner__repo-1")
	if first.InstID != "A1" || first.RepoURL != "https://github.com/owner/repo.git" || first.Patch != "diff --git a/a.py b/a.py" ||
		first.Repo != "owner/repo" || first.Language != "python" || first.Source != "Verified" {
		t.Errorf("row 1 fields: %+v", *first)
	}
	if s.Len() != 11 {
		t.Errorf("Len = %d, want 11", s.Len())
	}
	for _, id := range []string{"bad", "A8", "A9", "A16", "A17", "A18", "nobody.py", ""} {
		if _, ok := s.Get(id); ok {
			t.Errorf("Get(%q) found a row that should be skipped", id)
		}
	}
	want := []string{
		`testdata/rows.jsonl:6: invalid JSON at column 19: expected a string key in an object, found end of input (row skipped)`,
		`testdata/rows.jsonl:7: no "inst_id" or "original_inst_id" (row skipped)`,
		`testdata/rows.jsonl:8: gold_ctx[0].start_line: expected an integer, found a string (row skipped)`,
		`testdata/rows.jsonl:9: init_ctx[0].end_line: expected an integer, found 1.5 (row skipped)`,
		`testdata/rows.jsonl:12: gold_ctx: expected a list, found an object; read as empty gold (as upstream)`,
		`testdata/rows.jsonl:13: commit: expected a string, found a number; read as ""`,
		`testdata/rows.jsonl:14: id "A1" already named an earlier row; this row replaces it`,
		`testdata/rows.jsonl:15: expected an object, found a list (row skipped)`,
		`testdata/rows.jsonl:16: init_ctx: expected a list, found an object (row skipped)`,
		`testdata/rows.jsonl:17: gold_ctx[0]: expected an object, found a string (row skipped)`,
		`testdata/rows.jsonl:18: gold_ctx[0].file: expected a string, found a number (row skipped)`,
		`testdata/rows.jsonl:20: gold_ctx: neither JSON nor the text form ("context0：\nfile: …"); read as empty gold (as upstream)`,
	}
	if got := problemTexts(s); !reflect.DeepEqual(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestJSONFiles(t *testing.T) {
	tests := []struct {
		path     string
		ids      []string
		golds    map[string][2][]sp // id -> init, add
		problems []string
	}{
		{"testdata/rows.json", []string{"L1", "L2"},
			map[string][2][]sp{"L1": {{{File: "a.py", Start: 1, End: 2}}, nil}, "L2": {{{File: "b.py", Start: 3, End: 4}}, {{File: "c.py", Start: 5, End: 6}}}},
			[]string{
				`testdata/rows.json:5: [2]: expected an object, found a string (row skipped)`,
				`testdata/rows.json:6: [3].gold_ctx[0].end_line: expected an integer, found null (row skipped)`,
			}},
		{"testdata/row.json", []string{"owner__repo-9"},
			map[string][2][]sp{"O1": {{{File: "/testbed/pkg/mod.py", Start: 4, End: 5}}, nil}, "owner__repo-9": {{{File: "/testbed/pkg/mod.py", Start: 4, End: 5}}, nil}},
			nil},
		{"testdata/annot", []string{"owner__repo-11", "D2"},
			map[string][2][]sp{"D1": {{{File: "a.py", Start: 1, End: 9}}, {{File: "b.py", Start: 2, End: 2}}}, "owner__repo-11": {{{File: "a.py", Start: 1, End: 9}}, {{File: "b.py", Start: 2, End: 2}}},
				"D2": {{{File: "x.go", Start: 10, End: 20}}, nil}},
			[]string{
				`testdata/annot/bad/annot.json:2: invalid JSON at column 15: expected a value, found '}' (row skipped)`,
				`testdata/annot/noid/annot.json:1: no "inst_id" or "original_inst_id" (row skipped)`,
				`testdata/annot/notobj/annot.json:1: expected an object, found a list (row skipped)`,
			}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			s, err := Load(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if ids := setIDs(s); !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("ids %v, want %v", ids, tt.ids)
			}
			for id, want := range tt.golds {
				g, ok := s.Get(id)
				if !ok {
					t.Errorf("Get(%q) not found", id)
					continue
				}
				if !reflect.DeepEqual(g.Init, want[0]) || !reflect.DeepEqual(g.Add, want[1]) {
					t.Errorf("%s: Init %v Add %v", id, g.Init, g.Add)
				}
			}
			if got := problemTexts(s); !reflect.DeepEqual(got, tt.problems) {
				t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.problems, "\n"))
			}
		})
	}
}

// TestAnnotDirIgnoresOtherFiles: only files named annot.json are rows.
func TestAnnotDirIgnoresOtherFiles(t *testing.T) {
	s, err := Load("testdata/annot")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get("IGNORED"); ok {
		t.Error("other.json was loaded")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	empty := filepath.Join(dir, "empty")
	os.Mkdir(empty, 0o755)
	tests := []struct {
		name, path, want string
	}{
		{"missing file", filepath.Join(dir, "nope.json"), "no such file"},
		{"invalid JSON names line and offset", write("bad.json", "[\n {\"inst_id\": 1,,}\n]"), "bad.json:2:16: invalid JSON: expected a string key in an object"},
		{"a number is not gold", write("num.json", "42"), "expected a JSON list of rows or one row object, found a number"},
		{"no rows at all", write("blank.jsonl", "\n\n"), "no gold rows"},
		{"every row bad", write("allbad.jsonl", "{\"x\": 1}\n"), `no gold rows loaded; first problem: ` + dir + `/allbad.jsonl:1: no "inst_id"`},
		{"empty directory", empty, "no annot.json files found"},
		{"parquet that is not parquet", write("fake.parquet", "PAR1 not really"), "fake.parquet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

// TestContentDetection: a .json file holding JSONL and a renamed file still load.
func TestContentDetection(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "gold.json")
	body := "{\"inst_id\": \"X1\", \"gold_ctx\": [{\"file\": \"a\"}]}\n{\"inst_id\": \"X2\", \"gold_ctx\": []}\n"
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != 2 {
		t.Fatalf("Len %d, want 2", s.Len())
	}
	g, _ := s.Get("X1")
	if g == nil || !reflect.DeepEqual(g.Init, []sp{{File: "a", Start: 1, End: 1}}) {
		t.Errorf("X1 = %+v", g)
	}
}

// TestParse covers ui_support.go's Parse, which reuses the row loaders.
func TestParse(t *testing.T) {
	tests := []struct {
		name, data string
		ids        []string
		err        string
	}{
		{"one pretty-printed row", "{\n \"inst_id\": \"P1\",\n \"gold_ctx\": [{\"file\": \"a\", \"start_line\": 2, \"end_line\": 3}]\n}", []string{"P1"}, ""},
		{"JSONL", "{\"inst_id\": \"P1\"}\n{\"inst_id\": \"P2\"}\n", []string{"P1", "P2"}, ""},
		{"nothing usable", "{\"x\": 1}", nil, `demo: no gold rows loaded; first problem: demo:1: no "inst_id"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Parse("demo", []byte(tt.data))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ids := setIDs(s); !reflect.DeepEqual(ids, tt.ids) {
				t.Errorf("ids %v, want %v", ids, tt.ids)
			}
		})
	}
}

// TestLoadGroundTruth: CodeScaleBench ground truth loads as gold through
// the same Load, with its files as file-level gold.
func TestLoadGroundTruth(t *testing.T) {
	p := filepath.Join("..", "groundtruth", "testdata", "variants", "gt_files.json")
	set, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	g, ok := set.Get("big-code-x-001")
	if !ok {
		t.Fatalf("ids: %v", set.All())
	}
	if len(g.Files) != 3 || len(g.Init) != 1 || g.Init[0].File != "a.go" {
		t.Errorf("gold = %+v", g)
	}
}

// setIDs lists the set's instance ids in order.
func setIDs(s *Set) []string {
	var ids []string
	for _, g := range s.All() {
		ids = append(ids, g.ID)
	}
	return ids
}
