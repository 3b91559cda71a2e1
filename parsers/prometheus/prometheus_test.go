package prometheus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/loader"
	"github.com/trajscope/trajscope/parsers/internal/predtest"
	"github.com/trajscope/trajscope/testkit"
)

// load reads a file as the format table does.
var load = predtest.Loader(loader.Named(Parse), nil)

const vectors = "../../testdata/testvectors"

// TV11.
func TestTrajfileCase(t *testing.T) {
	runs := predtest.TrajfileCases(t, vectors, ".log", load)
	for _, run := range runs {
		if len(run.Actions) != 1 || run.Actions[0].Category != model.CategoryRead || !reflect.DeepEqual(run.Actions[0].Steps, []int{0}) {
			t.Errorf("timeline: %+v", run.Actions)
		}
	}
	if len(runs) != 1 {
		t.Fatalf("%d .log cases", len(runs))
	}
}

// The project's fixtures with reviewed expected records.
func TestFixtures(t *testing.T) {
	predtest.Fixtures(t, load, "testdata", ".log", "edge-1", "noagg-1", "aggonly-1", "unterminated-1")
}

func TestTimeline(t *testing.T) {
	run := predtest.LoadOne(t, load, filepath.Join("testdata", "edge-1.log"))
	// Three CONTEXT blocks, one action each; the second produced no step.
	if len(run.Actions) != 3 {
		t.Fatalf("%d actions, want 3", len(run.Actions))
	}
	if !reflect.DeepEqual(run.Actions[0].Steps, []int{0}) || len(run.Actions[1].Steps) != 0 || !reflect.DeepEqual(run.Actions[2].Steps, []int{1}) {
		t.Errorf("steps: %v %v %v", run.Actions[0].Steps, run.Actions[1].Steps, run.Actions[2].Steps)
	}
	wantReads := []model.ObservedRead{
		{File: "pkg/a.py", Kind: model.ReadRange, Start: 1, End: 5},
		{File: "pkg/b.py", Kind: model.ReadRange, Start: 5, End: 6},
		{File: "pkg/b.py", Kind: model.ReadRange, Start: 10, End: 12},
	}
	if !reflect.DeepEqual(run.Actions[0].Reads, wantReads) {
		t.Errorf("reads %+v", run.Actions[0].Reads)
	}
	if want := []model.SearchHit{{File: "nolines.py"}}; !reflect.DeepEqual(run.Actions[0].Searches, want) {
		t.Errorf("searches %+v", run.Actions[0].Searches)
	}
	// With only an aggregated block, its step gets an action too.
	agg := predtest.LoadOne(t, load, filepath.Join("testdata", "aggonly-1.log"))
	if len(agg.Actions) != 1 || !reflect.DeepEqual(agg.Actions[0].Steps, []int{0}) {
		t.Errorf("aggregated-only timeline: %+v", agg.Actions)
	}
}

func TestNothingFound(t *testing.T) {
	_, err := load(filepath.Join("testdata", "empty-1.log"))
	if !errors.Is(err, ErrNothingFound) || !strings.Contains(err.Error(), "empty-1.log") {
		t.Errorf("error %v", err)
	}
	if _, err := Parse("x.log", nil); !errors.Is(err, ErrNothingFound) {
		t.Errorf("empty input: %v", err)
	}
}

func TestDecode(t *testing.T) {
	// Expected strings come from Python's bytes.decode("utf-8", "replace")
	// plus universal newlines.
	cases := map[string]string{
		"a\xffb":           "a\ufffdb",
		"\xe2\x82 x":       "\ufffd x",
		"\xed\xa0\x80":     "\ufffd\ufffd\ufffd",
		"\xf0\x9f\x98":     "\ufffd",
		"\xf4\x90\x80\x80": "\ufffd\ufffd\ufffd\ufffd",
		"\xc0\xaf":         "\ufffd\ufffd",
		"\xe0\x80\x80":     "\ufffd\ufffd\ufffd",
		"ok\r\nx\ry\n":     "ok\nx\ny\n",
		"\xf0\x9f\x98\x80": "😀",
	}
	for in, want := range cases {
		if got := decode([]byte(in)); got != want {
			t.Errorf("decode(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNormalizeFile(t *testing.T) {
	cases := map[string]string{
		"/testbed/pkg/a.py":             "pkg/a.py",
		"/workspace/repo__0.1/pkg/b.py": "pkg/b.py",
		"/workspace/only":               "only",
		`pkg\\a.py`:                     "pkg/a.py",
		`pkg\a.py`:                      `pkg\a.py`,
		"  ///x.py ":                    "x.py",
		"/testbed//y.py":                "y.py",
		"/workspace/":                   "",
	}
	for in, want := range cases {
		if got := normalizeFile(in); got != want {
			t.Errorf("normalizeFile(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSniff(t *testing.T) {
	cases := []struct {
		name, head string
		want       bool
	}{
		{"x.log", "", true},
		{"renamed.txt", "noise\n--- BEGIN CONTEXT ---\n", true},
		{"renamed.txt", "--- BEGIN AGGREGATED CONTEXT ---", true},
		{"x.traj.json", `{"messages": []}`, false},
	}
	for _, c := range cases {
		if got := Sniff(c.name, []byte(c.head)); got != c.want {
			t.Errorf("Sniff(%q, %q) = %v", c.name, c.head, got)
		}
	}
	// A renamed log keeps its stem as the instance id.
	run, err := Parse("owner__repo-9.txt", []byte("--- BEGIN CONTEXT ---\nFile: a.py\nLine number range: 1-2\n--- END CONTEXT ---"))
	if err != nil || run.InstanceID != "owner__repo-9" {
		t.Errorf("renamed: %v %v", run, err)
	}
	// str.replace removes every ".log".
	run, _ = Parse("my.logger.log", []byte("--- BEGIN CONTEXT ---\nFile: a.py\nLine number range: 1-2\n--- END CONTEXT ---"))
	if run.InstanceID != "myger" {
		t.Errorf("instance id %q, want myger", run.InstanceID)
	}
}

func FuzzPrometheus(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.log")
	paths = append(paths, filepath.Join(vectors, "traj/owner__repo-1.log"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		run, err := Parse("f.log", b)
		if err != nil {
			if !errors.Is(err, ErrNothingFound) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if len(run.Prediction.Steps) == 0 {
			t.Fatal("a run without steps")
		}
		for _, st := range run.Prediction.Steps {
			for _, fs := range st.Spans {
				for i, sp := range fs.Spans {
					if sp.Start > sp.End || (i > 0 && fs.Spans[i-1].End+1 >= sp.Start) {
						t.Fatalf("unmerged or reversed spans %+v", fs.Spans)
					}
				}
			}
		}
	})
}
