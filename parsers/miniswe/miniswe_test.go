package miniswe

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/loader"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// load reads a file as the format table does.
var load = predtest.Loader(loader.Named(Parse), nil)

const (
	vectors    = "../../testdata/testvectors"
	realV1     = "../../../shared/data/formats/mini-swe-agent-v1"
	realV2     = "../../../shared/data/formats/mini-swe-agent-v2"
	realPreds  = "../../../shared/data/contextbench/sample_trajectories_miniswe_qwen25_32b/preds_Verified.jsonl"
	fixtureDir = "testdata"
)

// TV8: the test vector's loaded prediction.
func TestTrajfileCase(t *testing.T) {
	runs := predtest.TrajfileCases(t, vectors, ".traj.json", load)
	for _, run := range runs {
		if run.Format != Name || run.InstanceID != "owner__repo-1" {
			t.Errorf("format %q id %q", run.Format, run.InstanceID)
		}
		// Step 1 echoes in the observation of action 0, step 2 in that of action 1.
		if len(run.Actions) != 3 || !reflect.DeepEqual(run.Actions[0].Steps, []int{0}) || !reflect.DeepEqual(run.Actions[1].Steps, []int{1}) {
			t.Errorf("actions/steps: %+v", run.Actions)
		}
		if run.Actions[2].Category != model.CategorySubmit {
			t.Errorf("last action %q, want submit", run.Actions[2].Category)
		}
	}
	if len(runs) == 0 {
		t.Fatal("no .traj.json case in trajfile_cases.json")
	}
}

// The extractor vectors: fallback views per command and path normalisation.
func TestExtractorVectors(t *testing.T) {
	all := predtest.ReadJSON(t, filepath.Join(vectors, "extractor_vectors.json"))
	fb, ok := all.Lookup("miniswe_fallback_bash")
	if !ok || len(fb.Obj) == 0 {
		t.Fatal("miniswe_fallback_bash missing")
	}
	for _, m := range fb.Obj {
		var want []view
		for _, v := range m.Val.Arr {
			f, _ := v.Lookup("file")
			w := view{file: f.Str}
			if s, ok := v.Lookup("start_line"); ok {
				e, _ := v.Lookup("end_line")
				a, _ := s.Int()
				b, _ := e.Int()
				w.start, w.end, w.hasRange = int(a), int(b), true
			}
			want = append(want, w)
		}
		got := extractViews(m.Key)
		if len(got) != len(want) || (len(got) > 0 && !reflect.DeepEqual(got, want)) {
			t.Errorf("extractViews(%q) = %+v, want %+v", m.Key, got, want)
		}
	}
	np, ok := all.Lookup("miniswe_normalize_path(repo_dir_name='fastjson2')")
	if !ok {
		t.Fatal("normalize vectors missing")
	}
	for _, m := range np.Obj {
		if got := normalizePath(m.Key, "fastjson2"); got != m.Val.Str {
			t.Errorf("normalizePath(%q) = %q, want %q", m.Key, got, m.Val.Str)
		}
	}
}

// The project's own fixtures: edge cases of the reference extractor (the
// bash fallback; a last PATCH_CONTEXT that is the prompt's template; content
// that is not a string) with reviewed expected records (*.want.json).
func TestFixtures(t *testing.T) {
	predtest.Fixtures(t, load, fixtureDir, ".traj.json", "org__proj-1", "fallback-1", "lasttemplate-1")
}

// Each rule of the File/Lines parser and of path normalisation on its own.
func TestParseFileLines(t *testing.T) {
	fs := func(f string, spans ...int) model.FileSpans {
		out := model.FileSpans{File: f}
		for i := 0; i+1 < len(spans); i += 2 {
			out.Spans = append(out.Spans, model.Interval{Start: spans[i], End: spans[i+1]})
		}
		return out
	}
	cases := []struct {
		name, text, repo string
		want             []model.FileSpans
	}{
		{"basic", "File: /testbed/a.py\nLines: 4-5", "", []model.FileSpans{fs("a.py", 4, 5)}},
		{"vertical tab splits lines (splitlines)", "File: a.py\x0bLines: 1-2", "", []model.FileSpans{fs("a.py", 1, 2)}},
		{"\\x1c splits lines", "File: a.py\x1cLines: 1-2", "", []model.FileSpans{fs("a.py", 1, 2)}},
		{"\\u2028 splits lines", "File: a.py\u2028Lines: 1-2", "", []model.FileSpans{fs("a.py", 1, 2)}},
		{"bare \\r splits lines", "File: a.py\rLines: 1-2", "", []model.FileSpans{fs("a.py", 1, 2)}},
		{"\\x85 splits lines", "File: a.py\u0085Lines: 1-2", "", []model.FileSpans{fs("a.py", 1, 2)}},
		{"anchored match", "File: a.py\nLines: x 4-5", "", nil},
		{"prefix match keeps the rest", "File: a.py\nLines: 4 - 5 (approx)", "", []model.FileSpans{fs("a.py", 4, 5)}},
		{"swap", "File: a.py\nLines: 9-3", "", []model.FileSpans{fs("a.py", 3, 9)}},
		{"unicode digits", "File: a.py\nLines: \u0664-\u0665", "", []model.FileSpans{fs("a.py", 4, 5)}},
		{"unicode spaces are stripped", "File:\u3000a.py\u00a0\nLines:\u2003 4-5", "", []model.FileSpans{fs("a.py", 4, 5)}},
		{"several Lines under one File", "File: a.py\nLines: 1-2\nLines: 8-9", "", []model.FileSpans{fs("a.py", 1, 2, 8, 9)}},
		{"File without Lines dropped", "File: a.py\nFile: b.py\nLines: 1-1", "", []model.FileSpans{fs("b.py", 1, 1)}},
		{"Lines before any File ignored", "Lines: 1-1\nFile: b.py", "", nil},
		{"template ignored", "File: <absolute_file_path>\nLines: <start_line>-<end_line>", "", nil},
		{"lstrip is a character set", "File: ///x/y.py\nLines: 1-1", "", []model.FileSpans{fs("x/y.py", 1, 1)}},
		{"quotes stripped as a set", "File: \"'a.py'\"\nLines: 1-1", "", []model.FileSpans{fs("a.py", 1, 1)}},
		{"only one ./ removed", "File: ././a.py\nLines: 1-1", "", []model.FileSpans{fs("./a.py", 1, 1)}},
		{"/home/<repo> dropped when known", "File: /home/fastjson2/core/A.java\nLines: 1-1", "fastjson2", []model.FileSpans{fs("core/A.java", 1, 1)}},
		{"/home/<other> kept", "File: /home/other/x.java\nLines: 1-1", "fastjson2", []model.FileSpans{fs("other/x.java", 1, 1)}},
		{"bare /home/x resets the file", "File: a.py\nFile: /home/x\nLines: 1-1", "", nil},
		{"file order is first appearance", "File: z.py\nLines: 1-1\nFile: a.py\nLines: 2-2\nFile: z.py\nLines: 3-3", "",
			[]model.FileSpans{fs("z.py", 1, 1, 3, 3), fs("a.py", 2, 2)}},
	}
	for _, c := range cases {
		got := parseFileLines(c.text, c.repo).files
		if len(got) != len(c.want) || (len(got) > 0 && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestRepoDirName(t *testing.T) {
	cases := map[string]string{
		`{"info":{"config":{"environment":{"image":"mswebench/alibaba_m_fastjson2:pr-2559"}}}}`: "fastjson2",
		`{"info":{"config":{"environment":{"image":"x_m_repo"}}}}`:                              "repo",
		`{"info":{"config":{"environment":{"image":"x_m_repo\n"}}}}`:                            "repo", // Python $ before a final newline
		`{"info":{"config":{"environment":{"image":"x_m_re po"}}}}`:                             "",
		`{"info":{"config":{"environment":{"image":"swebench/sweb.eval.x86_64.django"}}}}`:      "",
		`{"info":{"config":{"environment":{"image":7}}}}`:                                       "",
		`{"info":null}`: "",
		`{}`:            "",
	}
	for src, want := range cases {
		v, err := jsontree.Parse([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if got := repoDirName(v); got != want {
			t.Errorf("repoDirName(%s) = %q, want %q", src, got, want)
		}
	}
}

// Inputs the reference code crashes on are clear errors that name the place.
func TestErrors(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"not an object", `[1]`, "top level"},
		{"messages not a list", `{"messages": 5}`, "messages: expected a list"},
		{"message not an object", `{"messages": [{"role":"user","content":""}, "x"]}`, "message 1"},
		{"content is a list", `{"messages": [{"role":"user","content":[{"type":"text"}]}]}`, "message 0: content is a list, expected a string"},
		{"info not an object", `{"messages": [], "info": null}`, "info"},
		{"bad JSON", "{\n\"messages\": [,]}", "line 2"},
		{"invalid UTF-8", "{\"messages\": [\"\xff\"]}", "byte 15"},
	}
	for _, c := range cases {
		_, err := Parse("x.traj.json", []byte(c.src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Falsy non-string content reads as "" (Python `or ""`).
	if _, err := Parse("x.traj.json", []byte(`{"messages": [{"content": null}, {"content": 0}, {"content": {}}], "info": {}}`)); err != nil {
		t.Errorf("falsy content: %v", err)
	}
	if _, err := load("testdata/does-not-exist.traj.json"); err == nil {
		t.Error("missing file: no error")
	}
}

func TestInstanceID(t *testing.T) {
	v, _ := jsontree.Parse([]byte(`{"instance_id": "recorded__id-1"}`))
	cases := map[string]string{
		"a__b-1.traj.json":          "a__b-1",
		"a.traj.json.traj.json":     "a", // str.replace removes every occurrence
		"renamed.json":              "recorded__id-1",
		"x.traj.json.bak.traj.json": "x.bak",
	}
	for name, want := range cases {
		if got := instanceID(name, v); got != want {
			t.Errorf("instanceID(%q) = %q, want %q", name, got, want)
		}
	}
}

// The timeline of the edge-case fixture: actions, observations, reads,
// usage, timestamps and step links.
func TestTimeline(t *testing.T) {
	run := predtest.LoadOne(t, load, filepath.Join(fixtureDir, "org__proj-1.traj.json"))
	if len(run.Actions) != 5 {
		t.Fatalf("%d actions, want 5", len(run.Actions))
	}
	a0 := run.Actions[0]
	if a0.Tool != "bash" || a0.Command != "nl -ba /testbed/a.py | sed -n '1,2p'" || !strings.HasPrefix(run.Thought(0), "THOUGHT: look") {
		t.Errorf("action 0: %+v", a0)
	}
	if a0.Timestamp != 1700000000.5 || a0.Usage != (model.Usage{InputTokens: 100, OutputTokens: 20, CacheRead: 60}) {
		t.Errorf("action 0 time/usage: %v %+v", a0.Timestamp, a0.Usage)
	}
	if want := []model.ObservedRead{{File: "/testbed/a.py", Kind: model.ReadRange, Start: 1, End: 2}}; !reflect.DeepEqual(a0.Reads, want) {
		t.Errorf("action 0 reads %+v", a0.Reads)
	}
	if a0.Category != model.CategoryRead || !reflect.DeepEqual(a0.Steps, []int{0}) {
		t.Errorf("action 0 category %q steps %v", a0.Category, a0.Steps)
	}
	// Action 1's observation echoes two blocks: steps 1 and 2.
	if !reflect.DeepEqual(run.Actions[1].Steps, []int{1, 2}) {
		t.Errorf("action 1 steps %v, want [1 2]", run.Actions[1].Steps)
	}
	last := run.Actions[4]
	if last.Category != model.CategorySubmit || !strings.Contains(run.Observation(4), "context_received") || !strings.Contains(run.Observation(4), "diff --git") {
		t.Errorf("last action: %+v", last)
	}
	if run.Agent != "mini-swe-agent 1.17.3" || run.Model != "test/model" {
		t.Errorf("agent %q model %q", run.Agent, run.Model)
	}
}

// The real runs give the upstream extraction in preds_Verified.jsonl, and
// one action per assistant bash command.
func TestRealSamples(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realV1, "*.traj.json"))
	if len(files) == 0 {
		t.Skip("shared data not present")
	}
	preds := map[string]*jsontree.Value{}
	if f, err := os.Open(realPreds); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if v, err := jsontree.Parse(sc.Bytes()); err == nil {
				id, _ := v.Lookup("instance_id")
				preds[id.Str] = v
			}
		}
		f.Close()
	}
	for _, path := range files {
		run := predtest.LoadOne(t, load, path)
		if want, ok := preds[run.InstanceID]; ok {
			for _, d := range predtest.Diff(run.Prediction, want) {
				t.Errorf("%s: %s", filepath.Base(path), d)
			}
		} else {
			t.Errorf("%s: no record in preds_Verified.jsonl", run.InstanceID)
		}
		// Count assistant bash commands independently of the parser.
		var doc struct {
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		b, _ := os.ReadFile(path)
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range doc.Messages {
			if m.Role == "assistant" && strings.Contains(m.Content, "```bash") {
				n++
			}
		}
		if len(run.Actions) != n || n == 0 {
			t.Errorf("%s: %d actions, want %d", filepath.Base(path), len(run.Actions), n)
		}
		// Every ContextBench step is linked to exactly one action.
		linked := 0
		for _, a := range run.Actions {
			linked += len(a.Steps)
		}
		if linked != len(run.Prediction.Steps) {
			t.Errorf("%s: %d steps linked, %d steps", filepath.Base(path), linked, len(run.Prediction.Steps))
		}
	}
}

func TestRealV2(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(realV2, "*.traj.json"))
	if len(files) == 0 {
		t.Skip("shared data not present")
	}
	for _, path := range files {
		run := predtest.LoadOne(t, load, path)
		var doc struct {
			Messages []struct {
				Role      string            `json:"role"`
				ToolCalls []json.RawMessage `json:"tool_calls"`
			} `json:"messages"`
		}
		b, _ := os.ReadFile(path)
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range doc.Messages {
			if m.Role == "assistant" {
				n += len(m.ToolCalls)
			}
		}
		if len(run.Actions) != n || n == 0 {
			t.Errorf("%s: %d actions, want %d tool calls", path, len(run.Actions), n)
		}
		for i, a := range run.Actions {
			if a.Command == "" || run.Observation(i) == "" {
				t.Errorf("action %d without command or observation: %+v", a.Index, a)
				break
			}
		}
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name, head string
		want       bool
	}{
		{"x.traj.json", "", true},
		{"renamed.json", `{"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}`, true},
		{"renamed.json", `{"messages": [{"role": "assistant", "content": "` + "```bash\\nls\\n```" + `"}]}`, true},
		{"renamed.json", `{"messages":[{"role":"assistant","content":"` + "```bash\\nls\\n```" + `"}]}`, true},
		{"renamed.json", `{"messages":[{"role":"user","content":"` + "```bash\\nls\\n```" + `"}]}`, false},
		{"x_traj.json", `{"1_model_selected_files": []}`, false},
		{"x.jsonl", `{"instance_id": "a", "traj_data": {}}`, false},
		{"x.log", "--- BEGIN CONTEXT ---", false},
	}
	for _, c := range cases {
		if got := Sniff(c.name, []byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q, %.30q) = %v", c.name, c.head, got)
		}
	}
}

func FuzzMiniSWE(f *testing.F) {
	for _, p := range []string{
		filepath.Join(vectors, "traj/owner__repo-1.traj.json"),
		filepath.Join(fixtureDir, "org__proj-1.traj.json"),
		filepath.Join(fixtureDir, "fallback-1.traj.json"),
		filepath.Join(fixtureDir, "lasttemplate-1.traj.json"),
	} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := Parse("f.traj.json", b)
		if err != nil {
			return
		}
		for _, a := range run.Actions {
			for _, k := range a.Steps {
				if k < 0 || k >= len(run.Prediction.Steps) {
					t.Fatalf("action links step %d of %d", k, len(run.Prediction.Steps))
				}
			}
		}
		for _, s := range run.Prediction.Steps {
			if s.Empty() {
				t.Fatal("empty step")
			}
		}
	})
}

// A repeated messages key: the last array is the messages, as a dict keeps
// the last value.
func TestRepeatedMessages(t *testing.T) {
	bash := func(cmd string) string { return "```bash\\n" + cmd + "\\n```" }
	// and what is read is right: the last array counts
	run, err := Parse("f.traj.json", []byte(`{"messages": [{"role": "assistant", "content": "`+bash("cat a.py")+`"}], "messages": [{"role": "assistant", "content": "`+bash("cat b.py")+`"}]}`))
	if err != nil || len(run.Actions) != 1 || run.Actions[0].Command != "cat b.py" {
		t.Errorf("repeated messages key: %+v %v", run, err)
	}
}

// An action's observations are the messages that follow it, joined by
// "\n" in order: none, one, an empty one then another, three; a v2 tool
// reply goes to its call by id even when another action came between.
func TestObservationsJoined(t *testing.T) {
	bash := func(cmd string) string {
		return `{"role": "assistant", "content": "` + "```bash\\n" + cmd + "\\n```" + `"}`
	}
	user := func(s string) string { return `{"role": "user", "content": "` + s + `"}` }
	call := func(id, cmd string) string {
		return `{"role": "assistant", "content": "t", "tool_calls": [{"id": "` + id + `", "function": {"name": "bash", "arguments": "{\"command\": \"` + cmd + `\"}"}}]}`
	}
	tool := func(id, s string) string {
		return `{"role": "tool", "tool_call_id": "` + id + `", "content": "` + s + `"}`
	}
	for _, c := range []struct {
		name string
		msgs []string
		want []string
	}{
		{"none and one", []string{bash("ls"), bash("cat a"), user("o1")}, []string{"", "o1"}},
		{"empty then one", []string{bash("ls"), user(""), user("x")}, []string{"\nx"}},
		{"three", []string{bash("ls"), user("a"), user("b"), user("c"), bash("pwd"), user("d")}, []string{"a\nb\nc", "d"}},
		{"by call id", []string{call("c1", "ls"), call("c2", "pwd"), tool("c1", "r1"), tool("c2", "r2"), tool("c1", "r1b")}, []string{"r1\nr1b", "r2"}},
	} {
		doc := `{"messages": [` + strings.Join(c.msgs, ", ") + `]}`
		for name, parse := range map[string]func(string, []byte) (*model.Run, error){"Parse": Parse} {
			run, err := parse("f.traj.json", []byte(doc))
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, name, err)
			}
			var got []string
			for i := range run.Actions {
				got = append(got, run.Observation(i))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s %s: observations %q, want %q", c.name, name, got, c.want)
			}
		}
	}
}
