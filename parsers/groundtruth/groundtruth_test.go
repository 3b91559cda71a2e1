package groundtruth

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

func load1(t *testing.T, path string) Truth {
	t.Helper()
	ts, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 {
		t.Fatalf("%d truths", len(ts))
	}
	return ts[0]
}

func paths(fs ...string) []File {
	var out []File
	for _, f := range fs {
		out = append(out, File{Path: f})
	}
	return out
}

// TestVariants covers every ground_truth.json schema CodeScaleBench reads
// and the other files' shapes, one fixture each.
func TestVariants(t *testing.T) {
	cases := []struct {
		file, variant, confidence, typ string
		files                          []File
		chunks                         []Chunk
		symbols                        []Symbol
	}{
		{"gt_list.json", "ground_truth.list", "medium", "edit", paths("pkg/a.go", "pkg/b.go"), nil, nil},
		{"gt_files.json", "ground_truth.files", "high", "edit",
			[]File{{"o/r", "a.go"}, {"o/r", "b.go"}, {"o/r", "c.go"}},
			[]Chunk{{Repo: "o/r", Path: "a.go", Start: 10, End: 20, Label: "root"}},
			[]Symbol{{Repo: "o/r", Path: "b.go", Name: "Run"}}},
		{"gt_refs.json", "ground_truth.file_references", "medium", "edit", paths("src/foo.py", "lib/x-y.go"), nil, nil},
		{"gt_buggy.json", "ground_truth.buggy_files", "high", "edit", paths("a.c"), nil, nil},
		{"gt_entries.json", "ground_truth.entries", "medium", "edit", paths("e1.rs", "e2.rs"), nil, nil},
		{"gt_perf.json", "ground_truth.file_path", "low", "edit", paths("perf/x.py"), nil,
			[]Symbol{{Path: "perf/x.py", Name: "hot", Kind: "function"}}},
		{"gt_repoqa.json", "ground_truth.canonical_path", "high", "edit", paths("q/r.py"), nil,
			[]Symbol{{Path: "q/r.py", Name: "needle", Kind: "function"}}},
		{"gt_steps.json", "ground_truth.steps", "high", "evidence", []File{{"o/a", "x.go"}, {"o/b", "y.go"}}, nil, nil},
		{"gt_scoring.json", "ground_truth.scoring_categories", "low", "generate", nil, nil, nil},
		{"gt_topics.json", "ground_truth.topics", "low", "generate", nil, nil, nil},
		// The doc's {"defects": [...]} form: the defect without a file
		// gives nothing.
		{"defects_obj.json", "expected_defects.defects", "high", "edit", paths("f.c"),
			[]Chunk{{Path: "f.c", Start: 1, End: 2, Label: "null-deref"}}, nil},
		{"expected_files.json", "expected_changes", "high", "edit", paths("x/a.go", "x/b.go"), nil, nil},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			tr := load1(t, "testdata/variants/"+c.file)
			if tr.Variant != c.variant || tr.Confidence != c.confidence || tr.Type != c.typ ||
				!reflect.DeepEqual(tr.Files, c.files) || !reflect.DeepEqual(tr.Chunks, c.chunks) || !reflect.DeepEqual(tr.Symbols, c.symbols) {
				t.Fatalf("got %+v", tr)
			}
		})
	}
	if tr := load1(t, "testdata/variants/gt_files.json"); tr.ID != "big-code-x-001" {
		t.Errorf("id = %q", tr.ID)
	}
}

// TestTaskTree loads a tree of task directories: one truth per task, in
// CodeScaleBench's priority order, skipping sources that give no files or
// do not parse, and keeping a files-less truth when nothing else exists.
func TestTaskTree(t *testing.T) {
	ts, err := Load("testdata/tasks")
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]Truth{}
	for _, tr := range ts {
		byID[tr.ID] = tr
	}
	if len(ts) != 6 || len(byID) != 6 {
		t.Fatalf("%d truths: %v", len(ts), byID)
	}
	// t-one: ground_truth.json is schema F (no files), expected_defects wins.
	one := byID["t-one"]
	if one.Variant != "expected_defects" || !reflect.DeepEqual(one.Files, paths("src/q.cc", "src/r.cc")) ||
		!reflect.DeepEqual(one.Chunks, []Chunk{{Path: "src/q.cc", Start: 5, End: 9, Label: "race-condition"}}) {
		t.Errorf("t-one = %+v", one)
	}
	two := byID["t-two"]
	if two.Variant != "patch" || !reflect.DeepEqual(two.Files, paths("lib/m.py", "lib/gone.py")) || !strings.HasPrefix(two.Patch, "diff --git") {
		t.Errorf("t-two = %+v", two)
	}
	three := byID["t-three"]
	if !reflect.DeepEqual(three.Files, paths("x/y.go")) || three.Patch != "" {
		t.Errorf("t-three = %+v", three)
	}
	if four := byID["t-four"]; four.Variant != "instance.build_files" || !reflect.DeepEqual(four.Files, paths("pom.xml", "sub/build.gradle")) {
		t.Errorf("t-four = %+v", four)
	}
	if five := byID["t-five"]; five.Variant != "expected_changes" || !reflect.DeepEqual(five.Files, paths("k.go")) {
		t.Errorf("t-five = %+v", five)
	}
	if six := byID["t-six"]; six.Variant != "ground_truth.topics" || six.Files != nil || six.Type != "generate" {
		t.Errorf("t-six = %+v", six)
	}
}

func TestGold(t *testing.T) {
	tr := load1(t, "testdata/variants/gt_files.json")
	g := tr.Gold()
	want := model.Gold{ID: "big-code-x-001", InstID: "big-code-x-001", Repo: "o/r", Source: "codescalebench:ground_truth.files",
		Init:  []model.GoldSpan{{File: "a.go", Start: 10, End: 20}},
		Files: []string{"a.go", "b.go", "c.go"}}
	if !reflect.DeepEqual(g, want) {
		t.Fatalf("gold = %+v", g)
	}
	if got := tr.FilePaths(); !reflect.DeepEqual(got, []string{"a.go", "b.go", "c.go"}) {
		t.Fatalf("files = %v", got)
	}
	gs, err := LoadGold("testdata/tasks/t-two/tests/reference_fix.patch")
	if err != nil || len(gs) != 1 || gs[0].ID != "t-two" || !strings.Contains(gs[0].Patch, "+b") {
		t.Fatalf("LoadGold = %+v, %v", gs, err)
	}
}

func TestErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct{ name, body, want string }{
		{"ground_truth.json", `{"hello": 1}`, "ground_truth.json: expected a ground-truth object"},
		{"ground_truth.json", "[\"a\",\n 3]", "[1]: expected a path string"},
		{"ground_truth.json", "{\n\"files\": [}", "ground_truth.json:2:11: invalid JSON: expected a value"},
		{"expected_defects.json", `{"x": []}`, "expected a list of defects"},
		{"expected_defects.json", `[1]`, "[0]: expected a defect object"},
		{"expected_changes.json", `{"task_id": "x"}`, "expected an object with expected_files or expected_file"},
		{"task_spec.json", `{"id": "x", "artifacts": {}}`, "artifacts.oracle: expected an object"},
		{"oracle_answer.json", `[]`, "expected an object with files, chain or symbols"},
		{"reference_fix.patch", "no headers here\n", "no file headers"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(p)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: err = %v, want %q", c.name, c.body, err, c.want)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing path loaded")
	}
	empty := t.TempDir()
	if _, err := Load(empty); err == nil || !strings.Contains(err.Error(), "no ground-truth files") {
		t.Errorf("empty dir: %v", err)
	}
}

func TestSniff(t *testing.T) {
	yes := map[string]string{
		"tests/ground_truth.json": `["a"]`,
		"renamed.json":            `{"buggy_files": ["a.c"]}`,
		"x.json":                  `[{"id": "d", "file": "a.c", "line_start": 1, "line_end": 2, "defect_type": "other"}]`,
		"y.json":                  `{"artifacts": {"oracle": {"required_files": []}}}`,
	}
	for name, body := range yes {
		if !Sniff(name, []byte(body)) {
			t.Errorf("Sniff(%s) = false", name)
		}
	}
	no := map[string]string{
		"gold.jsonl": `{"instance_id": "a", "original_inst_id": "b", "gold_ctx": [{"file": "a.py", "line_start": 1}], "expected_files": []}`,
		"preds.json": `{"instance_id": "a", "traj_data": {}}`,
		"x.txt":      "diff --git a/x b/x",
	}
	for name, body := range no {
		if Sniff(name, []byte(body)) {
			t.Errorf("Sniff(%s) = true", name)
		}
	}
}

const peers = "../../../shared/data/peers/codecontextbench/"

// TestRealSamples loads the copied CodeContextBench files. Counted by hand:
//   - expected_changes.json: expected_file pkg/kubelet/pleg/evented.go with
//     expected_line_range [200, 250], task_id bug_localization_01 (and no
//     expected_files, so CodeScaleBench's reader would get nothing);
//   - expected_defects.json: 6 defects over 4 files (fault_filter.cc twice,
//     ext_authz.cc twice), every one with lines: 155-157, 42-45, 505-511,
//     1293-1301, 462-465, 600-607;
//   - oracle_answer.json: 10 "files" entries, all in grafana/grafana;
//   - task_spec.json: 11 required_files and 11 required_symbols (one per
//     file) in sg-evals/kafka--0753c489, id CCX-dep-trace-002.
func TestRealSamples(t *testing.T) {
	predtest.NeedFile(t, peers)
	ec := load1(t, peers+"expected_changes.json")
	if ec.ID != "bug_localization_01" || !reflect.DeepEqual(ec.Files, paths("pkg/kubelet/pleg/evented.go")) ||
		!reflect.DeepEqual(ec.Chunks, []Chunk{{Path: "pkg/kubelet/pleg/evented.go", Start: 200, End: 250}}) {
		t.Errorf("expected_changes = %+v", ec)
	}

	ed := load1(t, peers+"expected_defects.json")
	var spans []string
	for _, c := range ed.Chunks {
		spans = append(spans, filepath.Base(c.Path)+":"+strconv.Itoa(c.Start)+"-"+strconv.Itoa(c.End)+":"+c.Label)
	}
	want := "fault_filter.cc:155-157:race-condition header_utility.cc:42-45:logic-error ext_authz.cc:505-511:logic-error " +
		"filter_manager.cc:1293-1301:logic-error fault_filter.cc:462-465:resource-leak ext_authz.cc:600-607:injection"
	if len(ed.Files) != 4 || strings.Join(spans, " ") != want {
		t.Errorf("expected_defects = %d files, %s", len(ed.Files), strings.Join(spans, " "))
	}
	if g := ed.Gold(); len(g.Init) != 6 || g.Init[3] != (model.GoldSpan{File: "source/common/http/filter_manager.cc", Start: 1293, End: 1301}) {
		t.Errorf("gold = %+v", g.Init)
	}

	oa := load1(t, peers+"oracle_answer.json")
	if len(oa.Files) != 10 || oa.Files[0] != (File{"grafana/grafana", "pkg/services/featuremgmt/registry.go"}) || oa.Type != "evidence" || oa.Gold().Repo != "grafana/grafana" {
		t.Errorf("oracle_answer = %+v", oa)
	}

	ts := load1(t, peers+"task_spec.json")
	if ts.ID != "CCX-dep-trace-002" || len(ts.Files) != 11 || len(ts.Symbols) != 11 ||
		ts.Symbols[1] != (Symbol{"sg-evals/kafka--0753c489", "clients/src/main/java/org/apache/kafka/clients/consumer/internals/ConsumerRebalanceListenerMethodName.java", "ConsumerRebalanceListenerMethodName", "enum"}) {
		t.Errorf("task_spec = %+v", ts)
	}
	// The other copied files are not ground truth and say so.
	for _, f := range []string{"ground_truth_schema.json", "result.json", "task_metrics.json"} {
		if _, err := Load(peers + f); err == nil || !strings.Contains(err.Error(), f) {
			t.Errorf("%s: err = %v", f, err)
		}
	}
}
