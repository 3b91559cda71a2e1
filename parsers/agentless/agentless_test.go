package agentless

import (
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

const vectors = "../../testdata/testvectors"

// TV10.
func TestTrajfileCase(t *testing.T) {
	runs := predtest.TrajfileCases(t, vectors, "_traj.json", load)
	for _, run := range runs {
		if len(run.Actions) != 1 || !reflect.DeepEqual(run.Actions[0].Steps, []int{0}) {
			t.Errorf("timeline %+v", run.Actions)
		}
	}
	if len(runs) != 1 {
		t.Fatalf("%d agentless cases", len(runs))
	}
}

func TestFixtures(t *testing.T) {
	predtest.Fixtures(t, load, "testdata", "_traj.json", "edge-1", "strfiles-1", "dictfiles-1", "toplist-1")
}

func TestErrors(t *testing.T) {
	cases := map[string]string{
		"badfiles-1_traj.json": "3_final_combined_files: a number cannot be iterated",
		"baditem-1_traj.json":  `edit_locs["a.py"]: item 1 is a number`,
	}
	for name, want := range cases {
		_, err := load(filepath.Join("testdata", name))
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want %q", name, err, want)
		}
	}
	if _, err := Parse("x_traj.json", []byte(`{"a": }`)); err == nil || !strings.Contains(err.Error(), "column 7") {
		t.Errorf("bad JSON: %v", err)
	}
}

func TestEditLocLines(t *testing.T) {
	span := func(a, b int) model.Interval { return model.Interval{Start: a, End: b} }
	cases := []struct {
		item string
		want []model.Interval
	}{
		{"line: 5", []model.Interval{span(5, 5)}},
		{"lines: 9-3", []model.Interval{span(3, 9)}},
		{"lines : 1 - 2", []model.Interval{span(1, 2)}},
		{"function: f\nline: 4\nline: 6", []model.Interval{span(4, 4), span(6, 6)}},
		{"Line: 4", nil},
		{"line: 4 (approx)", nil},
		{"x line: 4", nil},
		{"line:\n7", []model.Interval{span(7, 7)}},
		{"line: \u0664", []model.Interval{span(4, 4)}},
	}
	for _, c := range cases {
		v, _ := jsontree.Parse([]byte(`[` + quote(c.item) + `]`))
		got, err := parseEditLocLines(v)
		if err != nil || len(got) != len(c.want) || (len(got) > 0 && !reflect.DeepEqual(got, c.want)) {
			t.Errorf("%q: got %v %v, want %v", c.item, got, err, c.want)
		}
	}
}

func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

func TestNormSymbol(t *testing.T) {
	cases := map[string]string{
		"function: foo":           "foo",
		"class:Bar":               "Bar",
		"variable :  X ":          "X",
		"function: class: nested": "nested",
		"class: function: kept":   "function: kept", // the prefixes go in a fixed order
		"function:":               "",
	}
	for in, want := range cases {
		if got := normSymbol(in); got != want {
			t.Errorf("normSymbol(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTimeline(t *testing.T) {
	run := predtest.LoadOne(t, load, filepath.Join("testdata", "edge-1_traj.json"))
	a := run.Actions[0]
	if a.Category != model.CategoryRead || len(a.Reads) != 5 || a.Reads[0] != (model.ObservedRead{File: "pkg/a.py", Kind: model.ReadRange, Start: 5, End: 9}) {
		t.Errorf("reads %+v", a.Reads)
	}
	if want := []model.SearchHit{{File: "pkg/b.py"}, {File: "pkg/é.py"}}; !reflect.DeepEqual(a.Searches, want) {
		t.Errorf("searches %+v", a.Searches)
	}
	if obs := run.Observation(0); !strings.Contains(obs, "3_final_combined_files") {
		t.Errorf("observation %q", obs)
	}
	if run.InstanceID != "owner__repo-7" {
		t.Errorf("instance id %q: data.instance_id wins", run.InstanceID)
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name, head string
		want       bool
	}{
		{"x_traj.json", "", true},
		{"renamed.json", `{"instance_id": "a", "3_final_combined_files": [], "4_related_elements": {}}`, true},
		{"renamed.json", `{"instance_id": "a", "traj_data": {}}`, false},
		{"x.traj.json", `{"messages": []}`, false},
	}
	for _, c := range cases {
		if got := Sniff(c.name, []byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q, %q) = %v", c.name, c.head, got)
		}
	}
}

func FuzzAgentless(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*_traj.json")
	paths = append(paths, filepath.Join(vectors, "traj/owner__repo-1_traj.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := Parse("f_traj.json", b)
		if err != nil {
			return
		}
		if len(run.Prediction.Steps) > 1 {
			t.Fatalf("%d steps, Agentless has one", len(run.Prediction.Steps))
		}
		for _, fs := range run.Prediction.Final.Symbols {
			for i := 1; i < len(fs.Symbols); i++ {
				if fs.Symbols[i-1] >= fs.Symbols[i] {
					t.Fatalf("symbols not a sorted set: %q", fs.Symbols)
				}
			}
		}
	})
}
