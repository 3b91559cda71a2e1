package openhands

import (
	"encoding/json"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

type vectors struct {
	Run   map[string]json.RawMessage `json:"openhands_output_jsonl_run_command"`
	Bash  map[string]json.RawMessage `json:"openhands_llm_completions_execute_bash"`
	Read  []readVector               `json:"openhands_read_action"`
	Edit  []readVector               `json:"openhands_llm_editor_view"`
	Other map[string]json.RawMessage `json:"-"`
}

type readVector struct {
	Args json.RawMessage `json:"args"`
	Out  json.RawMessage `json:"out"`
}

func loadVectors(t *testing.T) vectors {
	var v vectors
	if err := json.Unmarshal(predtest.ReadFile(t, "../../testdata/testvectors/extractor_vectors.json"), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// decodeArgs decodes like the loaders do.
func decodeArgs(t *testing.T, b json.RawMessage) *jsontree.Value {
	v, err := jsontree.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func checkStep(t *testing.T, name string, st model.Step, ok bool, err error, want json.RawMessage) {
	t.Helper()
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return
	}
	if string(want) == "null" {
		if ok {
			t.Errorf("%s: got %s, want no step", name, predtest.StepJSON(st))
		}
		return
	}
	if !ok {
		t.Errorf("%s: no step, want %s", name, want)
		return
	}
	if got, w := predtest.StepJSON(st), predtest.Canon(t, want); got != w {
		t.Errorf("%s:\n got %s\nwant %s", name, got, w)
	}
}

// The project's extractor vectors, produced by running upstream.
func TestRunCommandVectors(t *testing.T) {
	v := loadVectors(t)
	if len(v.Run) != 10 || len(v.Bash) != 10 {
		t.Fatalf("vectors: %d run, %d bash; want 10 each", len(v.Run), len(v.Bash))
	}
	for cmd, want := range v.Run {
		st, ok, err := RunCommandStep(cmd, History)
		checkStep(t, "History "+cmd, st, ok, err, want)
	}
	for cmd, want := range v.Bash {
		st, ok, err := RunCommandStep(cmd, Completions)
		checkStep(t, "Completions "+cmd, st, ok, err, want)
	}
}

func TestReadVectors(t *testing.T) {
	v := loadVectors(t)
	if len(v.Read) != 3 || len(v.Edit) != 1 {
		t.Fatalf("vectors: %d read, %d editor; want 3, 1", len(v.Read), len(v.Edit))
	}
	for i, c := range v.Read {
		st, ok, err := ReadStep(decodeArgs(t, c.Args), History)
		checkStep(t, "read "+itoa(i), st, ok, err, c.Out)
	}
	for i, c := range v.Edit {
		st, ok, err := ReadStep(decodeArgs(t, c.Args), Completions)
		checkStep(t, "editor view "+itoa(i), st, ok, err, c.Out)
	}
}

func TestRunCommandStep(t *testing.T) {
	tests := []struct {
		cmd  string
		v    Variant
		want string // stepJSON, "" for no step
	}{
		// finditer over the whole command: two cats, one step, files
		// sorted; cat's path class keeps the ";"
		{"cat b/x.py; cat a/y.py", History, `{"files":["a/y.py","b/x.py;"],"spans":{}}`},
		// duplicates dropped (History) or kept (Completions)
		{"sed -n '1,2p' a.py; sed -n '1,2p' a.py", History, `{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":1,"end":2}]}}`},
		{"sed -n '1,2p' /x/a.py; sed -n '1,2p' /x/a.py", Completions, `{"files":["x/a.py"],"spans":{"x/a.py":[{"type":"line","start":1,"end":2},{"type":"line","start":1,"end":2}]}}`},
		// pattern order: sed spans before head spans, whatever the text order
		{"head -n 3 a.py && sed -n '7,9p' a.py", History, `{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":7,"end":9},{"type":"line","start":1,"end":3}]}}`},
		// skip words anywhere in the command
		{"cat a.py && mkdir d", History, ""},
		{"cat a.py # rm stuff", History, ""},
		// quotes stripped, /testbed/ stripped, leading slashes, one ./
		{`cat "/testbed/a b.py"`, History, `{"files":["a"],"spans":{}}`},
		{"cat '//x.py'", History, `{"files":["x.py"],"spans":{}}`},
		{"cat ./././x.py", History, `{"files":["././x.py"],"spans":{}}`},
		// \b: no match inside a word
		{"concat a.py", History, ""},
		{"xhead -n 5 a.py", History, ""},
		// grep needs a source suffix before a separator or the end
		{"grep -rn foo src/a.py | head", History, `{"files":["src/a.py"],"spans":{}}`},
		{"grep foo a.py", History, `{"files":["a.py"],"spans":{}}`},
		{"grep foo *.py", History, ""},
		{"grep foo a.py.bak", History, ""},
		{"grep foo src/a.py\n", History, `{"files":["src/a.py"],"spans":{}}`},
		// cat -n: the flag is skipped; Completions wants a slash
		{"cat -n a.py", History, `{"files":["a.py"],"spans":{}}`},
		{"cat -n a.py", Completions, ""},
		{"cat -n /workspace/r/a.py", Completions, `{"files":["r/a.py"],"spans":{}}`},
		// Unicode digits are \d in Python
		{"sed -n '\uff11,\uff12p' a.py", History, `{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":1,"end":2}]}}`},
		{"", History, ""},
		{"ls -la", History, ""},
	}
	for _, tt := range tests {
		st, ok, err := RunCommandStep(tt.cmd, tt.v)
		if err != nil {
			t.Errorf("%q: %v", tt.cmd, err)
			continue
		}
		got := ""
		if ok {
			got = predtest.StepJSON(st)
		}
		if got != tt.want {
			t.Errorf("RunCommandStep(%q, %d):\n got %s\nwant %s", tt.cmd, tt.v, got, tt.want)
		}
	}
}

func TestReadStep(t *testing.T) {
	tests := []struct {
		args string
		v    Variant
		want string
	}{
		{`{"path": "/workspace/r/a.py", "view_range": [4, 5]}`, History, `{"files":["workspace/r/a.py"],"spans":{"workspace/r/a.py":[{"type":"line","start":4,"end":5}]}}`},
		{`{"path": "/workspace/r/a.py", "view_range": [4, 5]}`, Completions, `{"files":["r/a.py"],"spans":{"r/a.py":[{"type":"line","start":4,"end":5}]}}`},
		// start 0 counts as 1; end -1 gives no span
		{`{"path": "a.py", "start": 0, "end": 7}`, History, `{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":1,"end":7}]}}`},
		{`{"path": "a.py", "start": 5, "end": -1}`, History, `{"files":["a.py"],"spans":{}}`},
		{`{"path": "a.py", "start": -1, "end": 4}`, History, `{"files":["a.py"],"spans":{}}`},
		// view_range not usable: falls back to start/end
		{`{"path": "a.py", "view_range": [0, 5], "start": 2, "end": 3}`, History, `{"files":["a.py"],"spans":{"a.py":[{"type":"line","start":2,"end":3}]}}`},
		{`{"path": "a.py", "view_range": [4.0, 5]}`, History, `{"files":["a.py"],"spans":{}}`},
		// Completions: int() accepts numeric strings and floats
		{`{"path": "/x/a.py", "view_range": ["4", 5.9]}`, Completions, `{"files":["x/a.py"],"spans":{"x/a.py":[{"type":"line","start":4,"end":5}]}}`},
		{`{"path": "/x/a.py", "view_range": [9, -1]}`, Completions, `{"files":["x/a.py"],"spans":{}}`},
		{`{"path": ""}`, History, ""},
		{`{"path": "/"}`, History, ""},
		{`{}`, History, ""},
	}
	for _, tt := range tests {
		v, err := jsontree.Parse([]byte(tt.args))
		if err != nil {
			t.Fatal(err)
		}
		st, ok, err := ReadStep(v, tt.v)
		if err != nil {
			t.Errorf("%s: %v", tt.args, err)
			continue
		}
		got := ""
		if ok {
			got = predtest.StepJSON(st)
		}
		if got != tt.want {
			t.Errorf("ReadStep(%s, %d):\n got %s\nwant %s", tt.args, tt.v, got, tt.want)
		}
	}
	v, _ := jsontree.Parse([]byte(`{"path": "/x/a.py", "view_range": ["four", 5]}`))
	if _, _, err := ReadStep(v, Completions); err == nil {
		t.Error("int('four') should fail as in upstream")
	}
}

func TestUnionFinal(t *testing.T) {
	sp := func(f string, r ...int) model.FileSpans {
		fs := model.FileSpans{File: f}
		for i := 0; i+1 < len(r); i += 2 {
			fs.Spans = append(fs.Spans, model.Interval{Start: r[i], End: r[i+1]})
		}
		return fs
	}
	steps := []model.Step{
		{Files: []string{"b.py"}, Spans: []model.FileSpans{sp("b.py", 20, 30)}},
		{Files: []string{"a.py", "c.py"}},
		{Files: []string{"b.py"}, Spans: []model.FileSpans{sp("b.py", 1, 5, 31, 40)}},
		{Files: []string{"a.py"}, Spans: []model.FileSpans{sp("a.py", 9, 3, 6, 6, 7, 8)}},
	}
	want := `{"files":["a.py","b.py","c.py"],"spans":{"b.py":[{"type":"line","start":1,"end":5},{"type":"line","start":20,"end":40}],"a.py":[{"type":"line","start":6,"end":8}]}}`
	if got := predtest.StepJSON(UnionFinal(steps)); got != want {
		t.Errorf("UnionFinal:\n got %s\nwant %s", got, want)
	}
	if got := predtest.StepJSON(UnionFinal(nil)); got != `{"files":[],"spans":{}}` {
		t.Errorf("UnionFinal(nil) = %s", got)
	}
}
