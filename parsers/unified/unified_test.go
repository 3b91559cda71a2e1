package unified

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

func TestReadJSONLRecords(t *testing.T) {
	recs, err := ReadFile("testdata/preds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	const f = "testdata/preds.jsonl:"
	tests := []struct {
		line int
		id   string
		skip bool
		err  string
	}{
		{1, "owner__repo-1", false, ""},
		{2, "owner__repo-2", false, ""},
		{3, "", true, f + `3: no "instance_id" or "original_inst_id" (upstream skips this record)`},
		{5, "owner__repo-5", false, f + `5: traj_data.pred_spans["a.py"][0]: missing "end"`},
		{6, "", false, f + `6:63: invalid JSON: expected a value, found end of input`},
		{7, "owner__repo-7", false, ""},
		{8, "owner__repo-8", false, f + `8: traj_data.pred_steps[0].spans: expected an object, found null`},
		{9, "owner__repo-9", false, f + `9: traj_data.pred_steps[0].spans["a.py"][0].start: expected an integer, found 1.0`},
		{10, "", false, f + `10: expected an object, found a list`},
		{11, "owner__repo-11", false, ""},
		{12, "owner__repo-12", false, ""},
		{13, "", false, f + `13: instance_id: expected a string, found a number`},
		{14, "owner__repo-14", false, f + `14: traj_data.pred_steps[0].files[1]: expected a string, found a number`},
		{15, "owner__repo-15", false, f + `15: traj_data.pred_steps: expected a list, found an object`},
		{16, "owner__repo-16", false, f + `16: traj_data.pred_spans["a.py"]: expected a list, found an object`},
	}
	if len(recs) != len(tests) {
		t.Fatalf("%d records, want %d", len(recs), len(tests))
	}
	for i, tt := range tests {
		r := recs[i]
		if r.Line != tt.line || r.Pred.InstanceID != tt.id || r.Skip != tt.skip {
			t.Errorf("record %d: line %d id %q skip %v, want %d %q %v", i, r.Line, r.Pred.InstanceID, r.Skip, tt.line, tt.id, tt.skip)
		}
		got := ""
		if r.Err != nil {
			got = r.Err.Error()
		}
		if got != tt.err {
			t.Errorf("line %d: err %q, want %q", tt.line, got, tt.err)
		}
		if tt.skip != errors.Is(r.Err, ErrNoInstanceID) {
			t.Errorf("line %d: errors.Is(ErrNoInstanceID) = %v", tt.line, !tt.skip)
		}
	}

	// Record 1: everything kept, in order.
	want := model.Prediction{
		InstanceID:     "owner__repo-1",
		OriginalInstID: "NEW__1",
		Steps: []model.Step{
			{Files: []string{"a.py"}, Spans: []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: 1, End: 5}}}}, Symbols: []model.FileSymbols{}},
			{Files: []string{"b.py", "a.py"},
				Spans:   []model.FileSpans{{File: "b.py", Spans: []model.Interval{{Start: 3, End: 4}}}, {File: "a.py", Spans: []model.Interval{{Start: 9, End: 7}}}},
				Symbols: []model.FileSymbols{{File: "b.py", Symbols: []string{"Foo", "Foo.bar"}}}},
		},
		Final: model.Step{Files: []string{"a.py"},
			Spans:   []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: 1, End: 5}, {Start: 20, End: 30}}}},
			Symbols: []model.FileSymbols{{File: "a.py", Symbols: []string{"alpha"}}}},
		ModelPatch: "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = \"é\"\t\x01\n+x = '…'\n",
		RepoURL:    "https://github.com/owner/repo.git",
		Commit:     "abc123",
		Extra: []model.RawField{{Key: "agent", Value: []byte(`"mini"`)},
			{Key: "meta", Value: []byte(`{"cost": 1.50, "big": 1e20, "small": 0.00001, "n": 12345678901234567890, "neg0": -0, "ok": true, "none": null, "list": [1, 2.0, "三"]}`)}},
	}
	if !reflect.DeepEqual(recs[0].Pred, want) {
		t.Errorf("record 1:\n got %+v\nwant %+v", recs[0].Pred, want)
	}
	// Record 2: instance_id falls back to original_inst_id.
	if p := recs[1].Pred; p.InstanceID != "owner__repo-2" || p.OriginalInstID != "owner__repo-2" {
		t.Errorf("record 2: %+v", p)
	}
	// Record 7: null files are [], null symbols are absent.
	p7 := recs[5].Pred
	if len(p7.Steps) != 1 || p7.Steps[0].Files == nil || len(p7.Steps[0].Files) != 0 || p7.Steps[0].Symbols != nil ||
		p7.Final.Files == nil || p7.Final.Symbols != nil {
		t.Errorf("record 7: %#v", p7)
	}
	// Record 11: a repeated key keeps its first place and its last value.
	wantSpans := []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: 3, End: 3}}}, {File: "b.py", Spans: []model.Interval{{Start: 2, End: 2}}}}
	if got := recs[9].Pred.Final.Spans; !reflect.DeepEqual(got, wantSpans) {
		t.Errorf("record 11 spans %v", got)
	}
	// Record 12: no traj_data is an empty one (steps fall back at scoring time).
	if p := recs[10].Pred; p.Steps != nil || !p.Final.Empty() || p.ModelPatch != "only a patch" {
		t.Errorf("record 12: %+v", p)
	}
}

// TestWriteMatchesPython: testdata/preds.golden.jsonl is Python's
// json.dumps(json.loads(line), ensure_ascii=False) of lines 1 and 11.
func TestWriteMatchesPython(t *testing.T) {
	recs, err := ReadFile("testdata/preds.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/preds.golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, i := range []int{0, 9} {
		b, err := Append(nil, &recs[i].Pred)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(append(b, '\n'))
	}
	if buf.String() != string(golden) {
		t.Errorf("got:\n%s\nwant:\n%s", buf.String(), golden)
	}
}

func TestWriteShapes(t *testing.T) {
	tests := []struct {
		name string
		p    model.Prediction
		want string
	}{
		{"empty record gets every required key", model.Prediction{InstanceID: "a"},
			`{"instance_id": "a", "traj_data": {"pred_steps": [], "pred_files": [], "pred_spans": {}}, "model_patch": ""}`},
		{"original id, symbols present but empty, optional keys",
			model.Prediction{InstanceID: "x", OriginalInstID: "x", Steps: []model.Step{{Symbols: []model.FileSymbols{}}},
				Final: model.Step{Symbols: []model.FileSymbols{}}, RepoURL: "u", Commit: "c"},
			`{"instance_id": "x", "original_inst_id": "x", "traj_data": {"pred_steps": [{"files": [], "spans": {}, "symbols": {}}], "pred_files": [], "pred_spans": {}, "pred_symbols": {}}, "model_patch": "", "repo_url": "u", "commit": "c"}`},
		{"escaping: controls, quotes, DEL, U+2028 and invalid UTF-8",
			model.Prediction{InstanceID: "q\"\\\x00\x1f\x7f\u2028é\xff", ModelPatch: "\b\f\r\n\t"},
			"{\"instance_id\": \"q\\\"\\\\\\u0000\\u001f\x7f\u2028é\ufffd\", \"traj_data\": {\"pred_steps\": [], \"pred_files\": [], \"pred_spans\": {}}, \"model_patch\": \"\\b\\f\\r\\n\\t\"}"},
		{"extra values re-encoded as Python would",
			model.Prediction{InstanceID: "e", Extra: []model.RawField{{Key: "v", Value: []byte(` { "b" :[ 1.0 ,2e-7, 3E+2, -0.0, "\u00e9"] , "b": 1 } `)}}},
			`{"instance_id": "e", "traj_data": {"pred_steps": [], "pred_files": [], "pred_spans": {}}, "model_patch": "", "v": {"b": 1}}`},
		{"extra list",
			model.Prediction{InstanceID: "e", Extra: []model.RawField{{Key: "v", Value: []byte(`[1.0,2e-7,3E+2,-0.0,"\u00e9",{}]`)}}},
			`{"instance_id": "e", "traj_data": {"pred_steps": [], "pred_files": [], "pred_spans": {}}, "model_patch": "", "v": [1.0, 2e-07, 300.0, -0.0, "é", {}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Append(nil, &tt.p)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
	bad := model.Prediction{InstanceID: "z", Extra: []model.RawField{{Key: "k", Value: []byte(`{"a": }`)}}}
	if _, err := Append(nil, &bad); err == nil || !strings.Contains(err.Error(), `extra key "k"`) {
		t.Errorf("invalid extra: err = %v", err)
	}
}

func TestReadLayouts(t *testing.T) {
	tests := []struct {
		name  string
		input string
		fname string
		ids   []string
		lines []int
		errs  []string
		err   string
	}{
		{"JSON list with line numbers", "", "testdata/preds.json", []string{"L1", "", "L3"}, []int{2, 3, 4},
			[]string{"", "testdata/preds.json:3: [1]: expected a record object, found a number", `testdata/preds.json:4: traj_data.pred_spans["a.py"][0]: missing "start"`}, ""},
		{"pretty-printed single object", "", "testdata/single.json", []string{"S1"}, []int{1}, []string{""}, ""},
		{"JSONL content in a .json file", "{\"instance_id\": \"a\"}\n\n{\"instance_id\": \"b\"}\n", "x.json", []string{"a", "b"}, []int{1, 3}, []string{"", ""}, ""},
		{"BOM and CRLF", "\ufeff{\"instance_id\": \"a\"}\r\n{\"instance_id\": \"b\"}\r\n", "x.jsonl", []string{"a", "b"}, []int{1, 2}, []string{"", ""}, ""},
		{"Unicode-space line is blank", "{\"instance_id\": \"a\"}\n\u00a0\u2028 \n", "x.jsonl", []string{"a"}, []int{1}, []string{""}, ""},
		{"str.isspace() line is blank", "{\"instance_id\": \"a\"}\n\u2000\u200a\x1c\x1f\u3000\n", "x.jsonl", []string{"a"}, []int{1}, []string{""}, ""},
		{"zero-width space is not blank", "{\"instance_id\": \"a\"}\n\u200b\n", "x.jsonl", []string{"a", ""}, []int{1, 2},
			[]string{"", "x.jsonl:2:1: invalid JSON: expected a value, found '\\u200b'"}, ""},
		{"empty input", "", "x.json", nil, nil, nil, ""},
		{"invalid JSON names the place", "[\n {\"instance_id\": \"a\"},\n {oops}\n]", "x.json", nil, nil, nil, "x.json:3:3: invalid JSON: expected a string key in an object"},
		{"a string is not records", `"hello"`, "x.json", nil, nil, nil, "x.json: line 1: expected a list of records or one record, found a string"},
		{".jsonl forces lines", "{\n\"instance_id\": \"a\"}\n", "x.jsonl", []string{"", ""}, []int{1, 2},
			[]string{"x.jsonl:1:2: invalid JSON: expected a string key in an object, found end of input", "x.jsonl:2:14: invalid JSON: extra data after the JSON value"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []Record
			var err error
			if tt.input == "" && strings.HasPrefix(tt.fname, "testdata/") {
				recs, err = ReadFile(tt.fname)
			} else {
				recs, err = Parse([]byte(tt.input), tt.fname)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids, errs []string
			var lines []int
			for _, r := range recs {
				ids = append(ids, r.Pred.InstanceID)
				lines = append(lines, r.Line)
				e := ""
				if r.Err != nil {
					e = r.Err.Error()
				}
				errs = append(errs, e)
			}
			if !reflect.DeepEqual(ids, tt.ids) || !reflect.DeepEqual(lines, tt.lines) || !reflect.DeepEqual(errs, tt.errs) {
				t.Errorf("ids %q lines %v errs %q", ids, lines, errs)
			}
		})
	}
}

// TestHugeLine: a 12 MB record (bufio.Scanner's default limit is 64 KB) reads
// and writes back unchanged.
func TestHugeLine(t *testing.T) {
	patch := strings.Repeat("+x = 1\n", 12<<20/7)
	p := model.Prediction{InstanceID: "big", ModelPatch: patch, Final: model.Step{Files: []string{"a.py"}}}
	line, err := Append(nil, &p)
	if err != nil {
		t.Fatal(err)
	}
	input := append(append([]byte("{\"instance_id\": \"small\"}\n"), line...), '\n')
	recs, err := Parse(input, "big.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 || recs[1].Err != nil || recs[1].Pred.ModelPatch != patch || recs[1].Line != 2 {
		t.Fatalf("got %d records, err %v", len(recs), recs[len(recs)-1].Err)
	}
	again, _ := Append(nil, &recs[1].Pred)
	if !bytes.Equal(again, line) {
		t.Error("huge record did not round-trip")
	}
}

func BenchmarkReadPreds(b *testing.B) {
	data, err := os.ReadFile(sharedPreds)
	if err != nil {
		b.Skip("shared data not present")
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		recs, err := Parse(data, "preds_Verified.jsonl")
		if err != nil || len(recs) != 174 {
			b.Fatal(err)
		}
	}
}

func BenchmarkWritePreds(b *testing.B) {
	data, err := os.ReadFile(sharedPreds)
	if err != nil {
		b.Skip("shared data not present")
	}
	recs, _ := Parse(data, "preds_Verified.jsonl")
	b.SetBytes(int64(len(data)))
	var buf []byte
	for b.Loop() {
		buf = buf[:0]
		for i := range recs {
			buf, _ = Append(buf, &recs[i].Pred)
			buf = append(buf, '\n')
		}
	}
}

// step_actions, trajscope's own key, is read into Prediction.StepActions
// and written back last, so a record convert wrote reads and writes back
// byte for byte; a list that is not of whole numbers is left out.
func TestStepActions(t *testing.T) {
	const rec = `{"instance_id": "a__b-1", "traj_data": {"pred_steps": [{"files": ["a.py"], "spans": {}}, {"files": ["b.py"], "spans": {}}], "pred_files": ["a.py"], "pred_spans": {}}, "model_patch": "", "note": 1, "step_actions": [3, 22]}`
	recs, err := Parse([]byte(rec+"\n"), "r.jsonl")
	if err != nil || len(recs) != 1 || recs[0].Err != nil {
		t.Fatalf("%v %+v", err, recs)
	}
	p := recs[0].Pred
	if !reflect.DeepEqual(p.StepActions, []int{3, 22}) || !p.ValidStepActions() || len(p.Extra) != 1 {
		t.Fatalf("step actions %v, extra %v", p.StepActions, p.Extra)
	}
	out, err := Append(nil, &p)
	if err != nil || string(out) != rec {
		t.Errorf("written back:\n%s\nwant\n%s", out, rec)
	}
	for _, bad := range []string{`["3", 22]`, `{"a": 1}`, `[1.5, 2]`} {
		recs, _ := Parse([]byte(strings.Replace(rec, `[3, 22]`, bad, 1)+"\n"), "r.jsonl")
		if got := recs[0].Pred.StepActions; got != nil {
			t.Errorf("%s: read as %v", bad, got)
		}
	}
	// Numbers that cannot place the steps (too few, going back, zero) are
	// read but not used.
	for _, sa := range [][]int{{3}, {22, 3}, {0, 1}} {
		q := p
		q.StepActions = sa
		if q.ValidStepActions() {
			t.Errorf("%v: valid", sa)
		}
	}
}
