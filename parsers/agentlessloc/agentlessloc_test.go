package agentlessloc

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, nil)

func loadAll(t *testing.T, path string) []model.Run {
	t.Helper()
	runs, err := load(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		if err := predtest.CheckRun(&runs[i]); err != nil {
			t.Fatal(err)
		}
	}
	return runs
}

func tools(r model.Run) string {
	var s []string
	for _, a := range r.Actions {
		s = append(s, a.Tool)
	}
	return strings.Join(s, ",")
}

func span(a, b int) model.Interval { return model.Interval{Start: a, End: b} }

// TestShapes covers the stage shapes of testdata/loc_outputs.jsonl:
// line 1 the original lists parallel to found_files, line 2 maps by file
// with two edit samples (the first naming lines wins), line 3 the merged
// one-string-per-file form, line 4 a run that stopped after the file stage.
func TestShapes(t *testing.T) {
	runs := loadAll(t, "testdata/loc_outputs.jsonl")
	if len(runs) != 4 {
		t.Fatalf("%d runs", len(runs))
	}

	r := runs[0]
	if r.InstanceID != "o__r-1" || r.Format != Name || tools(r) != "localize_files,localize_related,localize_edit" {
		t.Fatalf("run 0 = %q %s", r.InstanceID, tools(r))
	}
	files, related, edit := r.Actions[0], r.Actions[1], r.Actions[2]
	if len(files.Searches) != 3 || files.Usage != (model.Usage{InputTokens: 3000, OutputTokens: 12}) || !strings.Contains(r.Observation(0), "c.py") {
		t.Errorf("files stage = %+v", files)
	}
	if !reflect.DeepEqual(related.Searches, []model.SearchHit{{File: "a.py"}, {File: "b.py"}}) || related.Usage.InputTokens != 5000 {
		t.Errorf("related stage = %+v", related)
	}
	wantReads := []model.ObservedRead{
		{File: "a.py", Kind: model.ReadRange, Start: 12, End: 12},
		{File: "a.py", Kind: model.ReadRange, Start: 13, End: 13},
		{File: "b.py", Kind: model.ReadRange, Start: 30, End: 40},
	}
	if edit.Category != model.CategoryRead || !reflect.DeepEqual(edit.Reads, wantReads) || !reflect.DeepEqual(edit.Steps, []int{0}) {
		t.Errorf("edit stage = %+v", edit)
	}
	wantStep := model.Step{
		Files:   []string{"a.py", "b.py", "c.py"},
		Spans:   []model.FileSpans{{File: "a.py", Spans: []model.Interval{span(12, 13)}}, {File: "b.py", Spans: []model.Interval{span(30, 40)}}},
		Symbols: []model.FileSymbols{{File: "a.py", Symbols: []string{"A", "A.f"}}, {File: "b.py", Symbols: []string{"X", "g"}}},
	}
	if len(r.Prediction.Steps) != 1 || !reflect.DeepEqual(r.Prediction.Steps[0], wantStep) || !reflect.DeepEqual(r.Prediction.Final, wantStep) {
		t.Errorf("prediction = %+v", r.Prediction)
	}

	r = runs[1]
	if tools(r) != "localize_files,localize_related,localize_edit" ||
		!reflect.DeepEqual(r.Prediction.Final.Spans, []model.FileSpans{{File: "a.py", Spans: []model.Interval{span(7, 7), span(9, 9)}}}) ||
		!reflect.DeepEqual(r.Prediction.Final.Symbols, []model.FileSymbols{{File: "a.py", Symbols: []string{"A"}}}) {
		t.Errorf("run 1 = %s %+v", tools(r), r.Prediction.Final)
	}

	r = runs[2]
	if tools(r) != "localize_files,localize_related,localize_edit" ||
		!reflect.DeepEqual(r.Prediction.Final.Spans, []model.FileSpans{{File: "x.py", Spans: []model.Interval{span(5, 6)}}}) ||
		!reflect.DeepEqual(r.Prediction.Final.Symbols, []model.FileSymbols{{File: "x.py", Symbols: []string{"h"}}}) {
		t.Errorf("run 2 = %s %+v", tools(r), r.Prediction.Final)
	}

	r = runs[3]
	if tools(r) != "localize_files" || !reflect.DeepEqual(r.Actions[0].Steps, []int{0}) ||
		!reflect.DeepEqual(r.Prediction.Final, model.Step{Files: []string{"z.py"}}) {
		t.Errorf("run 3 = %s %+v", tools(r), r.Prediction)
	}
}

func TestErrors(t *testing.T) {
	predtest.LoadErrors(t, load, "x.jsonl", [][2]string{
		{"{\"found_files\": []}\n", "x.jsonl:1: instance_id: expected a non-empty string"},
		{"{\"instance_id\": \"a\", \"found_files\": []}\n{\"instance_id\": \"b\", \"found_files\": \"a.py\"}\n", "x.jsonl:2: found_files: expected a list"},
		{"{\"instance_id\": \"a\", \"found_files\": [1]}\n", "found_files[0]: expected a path string"},
		{"{\"instance_id\": \"a\",\n", "x.jsonl:1: invalid JSON record"},
		{"[]\n", "x.jsonl:1: expected a JSON object"},
		{"\n", "no records"},
	})
}

func TestSniff(t *testing.T) {
	b, _ := os.ReadFile("testdata/loc_outputs.jsonl")
	if !Sniff("x", b) {
		t.Fatal("Sniff = false")
	}
	for _, s := range []string{`{"instance_id": "a", "traj_data": {}}`, `{"instance_id": "x", "3_final_combined_files": ["found_files"]}` + "\n", `{"found_files": []}`} {
		if Sniff("loc_outputs.jsonl", []byte(s)) {
			t.Errorf("Sniff(%s) = true", s)
		}
	}
}

// TestRealSample loads Agentless' loc_outputs-01.jsonl (REPAIR, SWE-bench
// Lite file-level run). Checked by hand: the file is one line, instance
// astropy__astropy-12907, found_files lists separable.py, core.py,
// models.py and utils.py under astropy/modeling/, and found_related_locs,
// found_edit_locs, related_loc_traj and edit_loc_traj are all empty, so
// only the file stage ran: one action, with no reads (Agentless shows no
// file lines at this stage), four search hits, and file_traj's usage
// (prompt 3179, completion 43).
func TestRealSample(t *testing.T) {
	path := "../../../shared/data/formats/agentless/loc_outputs-01.jsonl"
	predtest.NeedFile(t, path)
	runs := loadAll(t, path)
	if len(runs) != 1 || runs[0].InstanceID != "astropy__astropy-12907" || len(runs[0].Actions) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	a := runs[0].Actions[0]
	want := []model.SearchHit{{File: "astropy/modeling/separable.py"}, {File: "astropy/modeling/core.py"}, {File: "astropy/modeling/models.py"}, {File: "astropy/modeling/utils.py"}}
	if a.Reads != nil || !reflect.DeepEqual(a.Searches, want) || a.Usage != (model.Usage{InputTokens: 3179, OutputTokens: 43}) {
		t.Fatalf("action = %+v", a)
	}
	if f := runs[0].Prediction.Final.Files; len(f) != 4 || f[0] != "astropy/modeling/core.py" {
		t.Fatalf("final = %v", f)
	}
	head, _ := os.ReadFile(path)
	if !Sniff(path, head) {
		t.Fatal("Sniff = false on the real sample")
	}
}
