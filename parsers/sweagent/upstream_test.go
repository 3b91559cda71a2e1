package sweagent

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// The project's extractor vectors (testvectors/extractor_vectors.json),
// produced by running upstream's extract_view_command.
func TestExtractViewVectors(t *testing.T) {
	var vec struct {
		View map[string]*[3]any `json:"sweagent_view_action"`
	}
	if err := json.Unmarshal(predtest.ReadFile(t, "../../testdata/testvectors/extractor_vectors.json"), &vec); err != nil {
		t.Fatal(err)
	}
	if len(vec.View) != 5 {
		t.Fatalf("%d view vectors, want 5", len(vec.View))
	}
	for action, want := range vec.View {
		got, ok := ExtractView(action)
		if want == nil {
			if ok {
				t.Errorf("ExtractView(%q) = %+v, want no view", action, got)
			}
			continue
		}
		w := View{Path: want[0].(string), Start: int(want[1].(float64)), End: int(want[2].(float64))}
		if !ok || got != w {
			t.Errorf("ExtractView(%q) = %+v, %v; want %+v", action, got, ok, w)
		}
	}
}

func TestExtractView(t *testing.T) {
	tests := []struct {
		action string
		want   View
		ok     bool
	}{
		{"str_replace_editor view /testbed/a.py --view_range 1 200", View{"/testbed/a.py", 1, 200}, true},
		{"str_replace_editor view /testbed/a.py  --view_range 160 210", View{"/testbed/a.py", 160, 210}, true},
		{"str_replace_editor view /testbed/a.py --view_range 1049 -1\n", View{"/testbed/a.py", 1, -1}, true},
		{"str_replace_editor view /testbed/a.py [169, 206]\n", View{"/testbed/a.py", 1, -1}, true},
		{"str_replace_editor view /testbed/a.py \"\" [169, 206]", View{"/testbed/a.py", 1, -1}, true},
		{"str_replace_editor view /testbed/a.py --view_range 9 3", View{"/testbed/a.py", 9, 3}, true},
		{"str_replace_editor view /testbed/a.py --view_range 0 5", View{"/testbed/a.py", 0, 5}, true},
		// re.search: the literal may sit anywhere in the action.
		{"cd /x && str_replace_editor view a.py --view_range 2 3", View{"a.py", 2, 3}, true},
		// Python's \s and \d are Unicode: NBSP separates, fullwidth digits count.
		{"str_replace_editor view\u00a0a.py --view_range \uff11 \uff12", View{"a.py", 1, 2}, true},
		{"str_replace_editor  view a.py --view_range 2 3", View{}, false},
		{"str_replace_editor view", View{}, false},
		{"str_replace_editor view   ", View{}, false},
		{"", View{}, false},
		{"open a.py", View{}, false},
	}
	for _, tt := range tests {
		got, ok := ExtractView(tt.action)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ExtractView(%q) = %+v, %v; want %+v, %v", tt.action, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPatchContextVector(t *testing.T) {
	var vec struct {
		PC struct {
			Input string          `json:"input"`
			Out   json.RawMessage `json:"out"`
			Error struct {
				Input string `json:"input"`
			} `json:"error_case"`
		} `json:"sweagent_patch_context"`
	}
	if err := json.Unmarshal(predtest.ReadFile(t, "../../testdata/testvectors/extractor_vectors.json"), &vec); err != nil {
		t.Fatal(err)
	}
	spans, err := ParsePatchContext(vec.PC.Input)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	predtest.WriteSpans(&b, spans)
	if got, want := b.String(), predtest.Canon(t, vec.PC.Out); got != want {
		t.Errorf("ParsePatchContext:\n got %s\nwant %s", got, want)
	}
	if _, err := ParsePatchContext(vec.PC.Error.Input); err == nil {
		t.Errorf("ParsePatchContext(%q): no error, want ValueError", vec.PC.Error.Input)
	}
}

func TestParsePatchContext(t *testing.T) {
	sp := func(f string, r ...int) model.FileSpans {
		fs := model.FileSpans{File: f, Spans: []model.Interval{}}
		for i := 0; i+1 < len(r); i += 2 {
			fs.Spans = append(fs.Spans, model.Interval{Start: r[i], End: r[i+1]})
		}
		return fs
	}
	tests := []struct {
		name string
		in   string
		want []model.FileSpans
		err  string // substring of the error, "" for none
	}{
		{"basic", "File: /testbed/a.py\nLines: 1-2", []model.FileSpans{sp("a.py", 1, 2)}, ""},
		{"file without lines registered", "File: /testbed/a.py\nFile: b.py", []model.FileSpans{sp("a.py"), sp("b.py")}, ""},
		{"reversed kept", "File: a.py\nLines: 30-25", []model.FileSpans{sp("a.py", 30, 25)}, ""},
		{"spaces around numbers", "File: a.py\nLines:  10 -  20 ", []model.FileSpans{sp("a.py", 10, 20)}, ""},
		{"underscore digits", "File: a.py\nLines: 1_0-2_0", []model.FileSpans{sp("a.py", 10, 20)}, ""},
		{"fullwidth digits", "File: a.py\nLines: \uff15-\uff17", []model.FileSpans{sp("a.py", 5, 7)}, ""},
		{"plus sign", "File: a.py\nLines: +3-4", []model.FileSpans{sp("a.py", 3, 4)}, ""},
		{"lines before file ignored", "Lines: 1-2\nFile: a.py", []model.FileSpans{sp("a.py")}, ""},
		{"no dash ignored", "File: a.py\nLines: 12", []model.FileSpans{sp("a.py")}, ""},
		{"insertion order, duplicates merged", "File: z.py\nLines: 1-1\nFile: a.py\nFile: z.py\nLines: 2-2",
			[]model.FileSpans{sp("z.py", 1, 1, 2, 2), sp("a.py")}, ""},
		{"other absolute path loses one slash", "File: /repo/c.py\nFile: //d.py", []model.FileSpans{sp("repo/c.py"), sp("/d.py")}, ""},
		{"empty file name registered, its lines ignored", "File: \nLines: 5-6", []model.FileSpans{sp("")}, ""},
		{"every File: removed", "File: a/File:b.py", []model.FileSpans{sp("a/b.py")}, ""},
		{"split on \\n only", "File: a.py\rLines: 1-2", []model.FileSpans{sp("a.py\rLines: 1-2")}, ""},
		{"indented directives", "  File: a.py  \n\t Lines: 3-4\t", []model.FileSpans{sp("a.py", 3, 4)}, ""},
		{"empty", "", nil, ""},
		{"two dashes", "File: a.py\nLines: 1-2-3", nil, "1-2-3"},
		{"negative start", "File: a.py\nLines: -1-5", nil, "-1-5"},
		{"not a number", "File: a.py\nLines: a-b", nil, "a-b"},
		{"empty bound", "File: a.py\nLines: 4-", nil, "4-"},
		{"double underscore", "File: a.py\nLines: 1__0-2", nil, "1__0-2"},
	}
	for _, tt := range tests {
		got, err := ParsePatchContext(tt.in)
		if tt.err != "" {
			var pe *PatchContextError
			if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err = %v, want a PatchContextError naming %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: got %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestPyInt(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"0", 0, true}, {" 42 ", 42, true}, {"-7", -7, true}, {"+7", 7, true}, {"007", 7, true},
		{"1_000", 1000, true}, {"\u0663", 3, true}, {"\U0001D7D9", 1, true}, {"\u00a05\u2003", 5, true},
		{"", 0, false}, {" ", 0, false}, {"-", 0, false}, {"_1", 0, false}, {"1_", 0, false},
		{"1__0", 0, false}, {"1.0", 0, false}, {"- 1", 0, false}, {"0x10", 0, false},
		{"99999999999999999999", 0, false},
	}
	for _, tt := range tests {
		got, err := python.Int(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("python.Int(%q) = %d, %v; want %d, ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{
		"/testbed/a/b.py": "a/b.py",
		"/testbed":        "testbed",
		"/repo/x.py":      "repo/x.py",
		"x.py":            "x.py",
		"./x.py":          "./x.py",
		"//x.py":          "/x.py",
	} {
		if got := NormalizePath(in); got != want {
			t.Errorf("NormalizePath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPyPath(t *testing.T) {
	tests := []struct{ in, dir, base string }{
		{"a/b/c.traj", "a/b", "c.traj"},
		{"c.traj", "", "c.traj"},
		{"/c.traj", "/", "c.traj"},
		{"a//b/", "a//b", ""},
		{"//x", "//", "x"},
	}
	for _, tt := range tests {
		if d, b := python.Dirname(tt.in), python.Basename(tt.in); d != tt.dir || b != tt.base {
			t.Errorf("pyDir/python.Basename(%q) = %q, %q; want %q, %q", tt.in, d, b, tt.dir, tt.base)
		}
	}
}
