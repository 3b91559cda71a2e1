package toolcall

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

func rng(f string, a, b int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadRange, Start: a, End: b}
}

func TestApplyReads(t *testing.T) {
	const f = "/repo/pkg/a.py"
	whole := model.ObservedRead{File: f, Kind: model.ReadWhole}
	cases := []struct {
		name string
		call Call
		want []model.ObservedRead
	}{
		{"offset/limit, no output: offset..offset+limit-1",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 780.0, "limit": 100.0})},
			[]model.ObservedRead{rng(f, 780, 879)}},
		{"no offset, no limit, no output: whole file",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f})},
			[]model.ObservedRead{whole}},
		{"offset without limit: to the end",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 50.0})},
			[]model.ObservedRead{{File: f, Kind: model.ReadFrom, Start: 50}}},
		{"arrow prefix confirms the range",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 10.0, "limit": 3.0}), HasOutput: true,
				Output: "    10→a\n    11→b\n    12→c\n"},
			[]model.ObservedRead{rng(f, 10, 12)}},
		{"tab prefix confirms the range",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 10.0, "limit": 3.0}), HasOutput: true,
				Output: "10\ta\n11\tb\n12\tc"},
			[]model.ObservedRead{rng(f, 10, 12)}},
		{"numbered output wins over the arguments (short file)",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 10.0, "limit": 100.0}), HasOutput: true,
				Output: "    10→a\n    11→b\n\n<system-reminder>\n1\tnot a file line\n</system-reminder>"},
			[]model.ObservedRead{rng(f, 10, 11)}},
		{"whole-file read shows its lines",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: "     1→x\n     2→y"},
			[]model.ObservedRead{rng(f, 1, 2)}},
		{"offset 0 numbered from 0 (Claude Code 2.1.178): shifted to 1-based",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 0.0, "limit": 2.0}), HasOutput: true, Output: "0\ta\n1\tb"},
			[]model.ObservedRead{rng(f, 1, 2)}},
		{"trimmed output keeps the requested end",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 0.0, "limit": 60.0}), HasOutput: true,
				Output: "0\ta\n1\tb\n2\tc...[trimmed]"},
			[]model.ObservedRead{rng(f, 1, 60)}},
		{"trimmed whole-file read stays whole, its numbered lines pinned",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: "1\t/*\n2\tCopy...[trimmed]"},
			[]model.ObservedRead{whole, rng(f, 1, 2)}},
		{"structured result when the text is trimmed",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: "1\tx...[trimmed]",
				Meta: js(map[string]any{"type": "text", "file": map[string]any{"filePath": f, "startLine": 1.0, "numLines": 40.0, "totalLines": 40.0}})},
			[]model.ObservedRead{rng(f, 1, 40)}},
		{"a transcript that kept fewer lines than the structured result says were shown",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: "     1→a\n     2→b\n     3→c",
				Meta: js(map[string]any{"type": "text", "file": map[string]any{"filePath": f, "startLine": 1.0, "numLines": 274.0, "totalLines": 274.0}})},
			[]model.ObservedRead{rng(f, 1, 274)}},
		{"a structured result that says less does not shorten the numbered lines",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: "     1→a\n     2→b\n     3→c",
				Meta: js(map[string]any{"type": "text", "file": map[string]any{"filePath": f, "startLine": 1.0, "numLines": 2.0}})},
			[]model.ObservedRead{rng(f, 1, 3)}},
		{"structured result without output text",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 5.0}),
				Meta: js(map[string]any{"type": "text", "file": map[string]any{"startLine": 5.0, "numLines": 3.0}})},
			[]model.ObservedRead{rng(f, 5, 7)}},
		{"warning, no numbered lines: nothing shown",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f}), HasOutput: true,
				Output: "<system-reminder>Warning: the file exists but is shorter than the provided offset (1). The file has 1 lines.</system-reminder>"},
			nil},
		{"error result: nothing shown",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 1.0, "limit": 5.0}), HasOutput: true, IsError: true,
				Output: "File does not exist."},
			nil},
		{"Harbor metadata suffix is not output",
			Call{Name: "Read", Input: js(map[string]any{"file_path": f, "offset": 3.0, "limit": 2.0}), HasOutput: true,
				Output: "3\tx\n4\ty\n\n[metadata] {\"type\": \"text\", \"file\": {\"filePath\": \"5\tz\"}}"},
			[]model.ObservedRead{rng(f, 3, 4)}},
		{"zero-based read_file (Gemini CLI)",
			Call{Name: "read_file", Input: js(map[string]any{"absolute_path": f, "offset": 9.0, "limit": 11.0})},
			[]model.ObservedRead{rng(f, 10, 20)}},
		// A whole file shown as plain text is as long as what was shown:
		// Gemini CLI's read_file before the run appended to the file
		// showed 18 lines, not the 35 it had later (issue 47 #2).
		{"plain read_file is what it showed",
			Call{Name: "read_file", Input: js(map[string]any{"file_path": f}), HasOutput: true,
				Output: "# Blue\n\nBlue is a primary color.\n- Sky blue\n- Teal\n- Azure\n"},
			[]model.ObservedRead{rng(f, 1, 6)}},
		{"plain read_file of an empty file shows nothing",
			Call{Name: "read_file", Input: js(map[string]any{"file_path": f}), HasOutput: true, Output: ""},
			nil},
		{"str_replace_editor view with range",
			Call{Name: "str_replace_editor", Input: js(map[string]any{"command": "view", "path": f, "view_range": []any{5.0, 9.0}})},
			[]model.ObservedRead{rng(f, 5, 9)}},
		{"str_replace_editor view numbered output",
			Call{Name: "str_replace_editor", Input: js(map[string]any{"command": "view", "path": f}), HasOutput: true,
				Output: "Here's the result of running `cat -n` on a.py:\n     1\tx\n     2\ty\n"},
			[]model.ObservedRead{rng(f, 1, 2)}},
		{"sourcegraph read_file with lines",
			Call{Name: "mcp__sourcegraph__sg_read_file", Input: js(map[string]any{"repo": "r", "path": "a.go", "startLine": 3.0, "endLine": 9.0})},
			[]model.ObservedRead{rng("a.go", 3, 9)}},
		// A command that printed nothing showed nothing: Claude Code
		// records every output, an empty one included.
		{"bash that printed nothing",
			Call{Name: "Bash", Input: js(map[string]any{"command": "cat missing.py 2>/dev/null | head"}), HasOutput: true, Output: ""},
			nil},
		{"bash cat as printed",
			Call{Name: "Bash", Input: js(map[string]any{"command": "cat f.py 2>&1"}), HasOutput: true, Output: "x = 1\n"},
			[]model.ObservedRead{rng("f.py", 1, 1)}},
		{"bash sed through parsers/internal/shell",
			Call{Name: "Bash", Input: js(map[string]any{"command": "sed -n '20,40p' src/lib.rs"})},
			[]model.ObservedRead{rng("src/lib.rs", 20, 40)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a model.Action
			Apply(&a, c.call)
			if !reflect.DeepEqual(a.Reads, c.want) {
				t.Fatalf("reads = %+v, want %+v", a.Reads, c.want)
			}
		})
	}
}

func TestApplySearchEditCategory(t *testing.T) {
	cases := []struct {
		name     string
		call     Call
		cat      model.Category
		searches []model.SearchHit
		edits    []string
	}{
		{"Grep files_with_matches: hits, no reads",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "F523"}), HasOutput: true, Output: "Found 2 files\n/w/a.py\n/w/b/c.py"},
			model.CategorySearch, []model.SearchHit{{File: "/w/a.py"}, {File: "/w/b/c.py"}}, nil},
		{"Grep content -n: hits with lines",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "output_mode": "content", "-n": true}), HasOutput: true,
				Output: "src/a.py:12:    x = 1\nsrc/b.py:3:x()"},
			model.CategorySearch, []model.SearchHit{{File: "src/a.py", Line: 12}, {File: "src/b.py", Line: 3}}, nil},
		{"Grep content in one file: bare line numbers",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "path": "src/a.py", "output_mode": "content", "-n": true}), HasOutput: true,
				Output: "12:    x = 1"},
			model.CategorySearch, []model.SearchHit{{File: "src/a.py", Line: 12}}, nil},
		{"Grep count mode",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "output_mode": "count"}), HasOutput: true, Output: "src/a.py:4\n\nFound 4 total occurrences across 1 file."},
			model.CategorySearch, []model.SearchHit{{File: "src/a.py"}}, nil},
		{"Grep structured filenames",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x"}), Meta: js(map[string]any{"mode": "files_with_matches", "filenames": []any{"a.go"}})},
			model.CategorySearch, []model.SearchHit{{File: "a.go"}}, nil},
		{"Grep no match",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x"}), HasOutput: true, Output: "No files found"},
			model.CategorySearch, nil, nil},
		{"Glob listing",
			Call{Name: "Glob", Input: js(map[string]any{"pattern": "**/*F523*"}), HasOutput: true, Output: "/w/x_F523.py\n/w/y/F523.rs\n(Results are truncated. Consider using a more specific path or pattern.)"},
			model.CategorySearch, []model.SearchHit{{File: "/w/x_F523.py"}, {File: "/w/y/F523.rs"}}, nil},
		{"sourcegraph list_files paths",
			Call{Name: "mcp__sourcegraph__sg_list_files", Input: js(map[string]any{"repo": "r"}), HasOutput: true,
				Output: `{"files":[{"isDirectory":true,"path":"a/events/"},{"isDirectory":false,"path":"a/X.java"}]}`},
			model.CategorySearch, []model.SearchHit{{File: "a/X.java"}}, nil},
		{"Edit", Call{Name: "Edit", Input: js(map[string]any{"file_path": "/w/a.py", "old_string": "a", "new_string": "b"})},
			model.CategoryEdit, nil, []string{"/w/a.py"}},
		{"MultiEdit", Call{Name: "MultiEdit", Input: js(map[string]any{"file_path": "/w/a.py", "edits": []any{}})},
			model.CategoryEdit, nil, []string{"/w/a.py"}},
		{"Write", Call{Name: "Write", Input: js(map[string]any{"file_path": "/app/hello.txt", "content": "x"})},
			model.CategoryEdit, nil, []string{"/app/hello.txt"}},
		{"NotebookEdit", Call{Name: "NotebookEdit", Input: js(map[string]any{"notebook_path": "n.ipynb"})},
			model.CategoryEdit, nil, []string{"n.ipynb"}},
		{"apply_patch", Call{Name: "apply_patch", Input: js(map[string]any{"input": "*** Begin Patch\n*** Update File: a/b.py\n@@\n-x\n+y\n*** Add File: c.py\n+z\n*** End Patch"})},
			model.CategoryEdit, nil, []string{"a/b.py", "c.py"}},
		{"Bash run", Call{Name: "Bash", Input: js(map[string]any{"command": "go test ./..."})},
			model.CategoryRun, nil, nil},
		{"Task is other", Call{Name: "Task", Input: js(map[string]any{"description": "explore", "prompt": "…"})},
			model.CategoryOther, nil, nil},
		{"TodoWrite is other", Call{Name: "TodoWrite", Input: js(map[string]any{"todos": []any{}})},
			model.CategoryOther, nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var a model.Action
			Apply(&a, c.call)
			if a.Category != c.cat || !reflect.DeepEqual(a.Searches, c.searches) || !reflect.DeepEqual(a.Edits, c.edits) {
				t.Fatalf("got cat=%s searches=%+v edits=%v", a.Category, a.Searches, a.Edits)
			}
			// Only Grep's content mode prints file lines (tested below).
			if len(a.Reads) != 0 && !grepContent(c.call) {
				t.Fatalf("reads = %v, want none", a.Reads)
			}
		})
	}
}

// TestGrepContentReads: Grep in content mode displays the matching lines,
// as grep -n does: each becomes a one-line read, consecutive lines joined;
// other modes list files or counts and display no line.
func TestGrepContentReads(t *testing.T) {
	cases := []struct {
		name string
		call Call
		want []model.ObservedRead
	}{
		{"paths and lines",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "output_mode": "content", "-n": true}), HasOutput: true,
				Output: "src/a.py:12:    x = 1\nsrc/a.py:13:    x()\nsrc/b.py:3:x()"},
			[]model.ObservedRead{{File: "src/a.py", Kind: model.ReadRange, Start: 12, End: 13}, {File: "src/b.py", Kind: model.ReadRange, Start: 3, End: 3}}},
		{"one file, bare line numbers",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "path": "src/a.py", "output_mode": "content", "-n": true}), HasOutput: true,
				Output: "12:    x = 1"},
			[]model.ObservedRead{{File: "src/a.py", Kind: model.ReadRange, Start: 12, End: 12}}},
		{"content without -n: no line known",
			Call{Name: "Grep", Input: js(map[string]any{"pattern": "x", "output_mode": "content"}), HasOutput: true,
				Output: "src/a.py:    x = 1"},
			nil},
		{"files mode", Call{Name: "Grep", Input: js(map[string]any{"pattern": "x"}), HasOutput: true, Output: "src/a.py\nsrc/b.py"}, nil},
	}
	for _, c := range cases {
		var a model.Action
		Apply(&a, c.call)
		if !reflect.DeepEqual(a.Reads, c.want) {
			t.Errorf("%s: reads %+v, want %+v", c.name, a.Reads, c.want)
		}
	}
}

func TestShellCommandArgv(t *testing.T) {
	var a model.Action
	Apply(&a, Call{Name: "shell", Input: js(map[string]any{"command": []any{"bash", "-lc", "cat pkg/x.go"}})})
	if a.Command != "cat pkg/x.go" || len(a.Reads) != 1 || a.Reads[0].Kind != model.ReadWhole {
		t.Fatalf("got %q %+v", a.Command, a.Reads)
	}
}

func TestDescribe(t *testing.T) {
	got := Describe("Read", js(map[string]any{"file_path": "/a.py", "offset": 10.0, "limit": 5.0}))
	if got != `Read file_path="/a.py" limit=5 offset=10` {
		t.Fatalf("got %q", got)
	}
	got = Describe("Edit", js(map[string]any{"file_path": "/a.py", "old_string": "long", "new_string": "x"}))
	if got != `Edit file_path="/a.py"` {
		t.Fatalf("got %q", got)
	}
}

func TestLinesKeepsU2028(t *testing.T) {
	data := []byte("{\"a\": \"x\u2028y\"}\r\n\n{\"b\": \"\u2029\"}")
	ls := Lines(data)
	if len(ls) != 2 || ls[0].No != 1 || ls[1].No != 3 || string(ls[0].Text) != "{\"a\": \"x\u2028y\"}" {
		t.Fatalf("lines = %+v", ls)
	}
}

func TestUsage(t *testing.T) {
	u := OpenAIUsage(js(map[string]any{"prompt_tokens": 1689.0, "completion_tokens": 76.0, "prompt_tokens_details": map[string]any{"cached_tokens": 1664.0}}))
	if u != (model.Usage{InputTokens: 25, OutputTokens: 76, CacheRead: 1664}) {
		t.Fatalf("openai = %+v", u)
	}
	u = OpenAIUsage(js(map[string]any{"input_tokens": 100.0, "output_tokens": 40.0, "input_tokens_details": map[string]any{"cached_tokens": 25.0}}))
	if u != (model.Usage{InputTokens: 75, OutputTokens: 40, CacheRead: 25}) {
		t.Fatalf("responses = %+v", u)
	}
	u = AnthropicUsage(js(map[string]any{"input_tokens": 2.0, "cache_creation_input_tokens": 5117.0, "cache_read_input_tokens": 13788.0, "output_tokens": 82.0}))
	if u != (model.Usage{InputTokens: 2, OutputTokens: 82, CacheRead: 13788, CacheWrite: 5117}) {
		t.Fatalf("anthropic = %+v", u)
	}
}

func TestTrialName(t *testing.T) {
	read := func(p string) ([]byte, error) {
		if p == "runs/x/mcp_t_abcdef__6z2d9CA/result.json" {
			return []byte(`{"task_name": "mcp_t_abcdef"}`), nil
		}
		return nil, errNotFound
	}
	if got := TrialName("runs/x/mcp_t_abcdef__6z2d9CA/agent/claude-code.txt", read); got != "mcp_t_abcdef" {
		t.Fatalf("got %q", got)
	}
	if got := TrialName("runs/y/trial__AAAAAAA/agent/sessions/projects/-app/s.jsonl", read); got != "trial__AAAAAAA" {
		t.Fatalf("got %q", got)
	}
	if got := TrialName("some/dir/s.jsonl", read); got != "" {
		t.Fatalf("got %q", got)
	}
}

type notFound struct{}

func (notFound) Error() string { return "not found" }

var errNotFound error = notFound{}

// js is v as the JSON reader gives it: marshalled, then parsed.
func js(v any) *jsontree.Value {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	t, err := jsontree.Parse(b)
	if err != nil {
		panic(err)
	}
	return t
}

// A long argument is cut before the word the limit falls in: half a key
// left in a command matches no key pattern and would slip past --redact
// (the planted-secrets test found one in a Task description).
func TestDescribeCutsBeforeAWord(t *testing.T) {
	key := "glpat-Q0K5xK9mN2pQ7rS4abcd"
	desc := strings.Repeat("word ", 38) + key + " tail"
	got := Describe("Task", js(map[string]any{"description": desc}))
	if strings.Contains(got, key[:10]) || !strings.HasSuffix(got, `word…"`) {
		t.Errorf("Describe = %q", got)
	}
}

// Any MCP server's tool is retrieval when its result shows it: numbered
// lines of the file it names are a read; paths with line numbers, a path
// list or JSON "path" members are search hits; a tool that retrieves
// nothing stays other, and so does a failed call.
func TestMCPToolsAreRetrieval(t *testing.T) {
	cases := []struct {
		name     string
		call     Call
		cat      model.Category
		reads    []model.ObservedRead
		searches []model.SearchHit
	}{
		{"numbered lines of a file: a read",
			Call{Name: "mcp__codegraph__read_file", Input: js(map[string]any{"path": "src/a.py"}), HasOutput: true,
				Output: "    40\tdef f():\n    41\t    return 1\n    42\t"},
			model.CategoryRead, []model.ObservedRead{{File: "src/a.py", Kind: model.ReadRange, Start: 40, End: 42}}, nil},
		{"grep-style hits",
			Call{Name: "mcp__augment__codebase_search", Input: js(map[string]any{"query": "tier"}), HasOutput: true,
				Output: "pkg/cart.py:46: tiers first\npkg/discounts.py:3:Bulk tiers"},
			model.CategorySearch, nil, []model.SearchHit{{File: "pkg/cart.py", Line: 46}, {File: "pkg/discounts.py", Line: 3}}},
		{"JSON results naming paths",
			Call{Name: "mcp__greptile__search", Input: js(map[string]any{"q": "x"}), HasOutput: true,
				Output: `{"results": [{"path": "a/b.go", "score": 0.9}, {"path": "c.go"}]}`},
			model.CategorySearch, nil, []model.SearchHit{{File: "a/b.go"}, {File: "c.go"}}},
		{"a path list",
			Call{Name: "mcp_files_find", Input: js(map[string]any{"glob": "*.py"}), HasOutput: true, Output: "src/a.py\nsrc/b.py\n"},
			model.CategorySearch, nil, []model.SearchHit{{File: "src/a.py"}, {File: "src/b.py"}}},
		{"not retrieval",
			Call{Name: "mcp__github__create_issue", Input: js(map[string]any{"title": "x"}), HasOutput: true, Output: "Created issue #12"},
			model.CategoryOther, nil, nil},
		{"failed",
			Call{Name: "mcp__codegraph__read_file", Input: js(map[string]any{"path": "src/a.py"}), HasOutput: true, IsError: true, Output: "    1\tx"},
			model.CategoryOther, nil, nil},
	}
	for _, c := range cases {
		var a model.Action
		Apply(&a, c.call)
		if a.Category != c.cat || !reflect.DeepEqual(a.Reads, c.reads) || !reflect.DeepEqual(a.Searches, c.searches) {
			t.Errorf("%s: %v reads %+v searches %+v", c.name, a.Category, a.Reads, a.Searches)
		}
		if !Known(c.call.Name) || !IsMCP(c.call.Name) {
			t.Errorf("%s: %s not known as an MCP tool", c.name, c.call.Name)
		}
	}
}

// ReorderInPlace leaves the slices given as Reorder's copies are, for
// random orders (and none).
func TestReorderInPlaceIsReorder(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 8))
	for round := range 200 {
		n := r.IntN(40)
		acts := make([]model.Action, n)
		obs, th := make(model.TextList, n), make(model.TextList, n)
		for i := range acts {
			acts[i] = model.Action{Command: fmt.Sprint("c", i), Index: int32(i), Reads: []model.ObservedRead{{File: fmt.Sprint(i)}}}
			obs[i], th[i] = fmt.Sprint("o", i), fmt.Sprint("t", i)
		}
		order := r.Perm(n)
		if round%10 == 0 {
			order = nil
		}
		wantActs, wantTexts := Reorder(order, slices.Clone(acts), slices.Clone(obs), slices.Clone(th))
		ReorderInPlace(order, acts, obs, th)
		if !reflect.DeepEqual(acts, wantActs) || !reflect.DeepEqual([]model.TextList{obs, th}, wantTexts) {
			t.Fatalf("round %d, order %v:\n got %v %v %v\nwant %v %v", round, order, acts, obs, th, wantActs, wantTexts)
		}
	}
}
