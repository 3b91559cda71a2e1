package predtest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/loader"
)

// Loader is how a format's tests read a file: the shared run-file reader
// with the format's parser (and directory loader), as the format table in
// package parsers uses them. The runs come back unpacked (see Unpack), their
// texts as the parser gave them, so that tests can compare them whole;
// package pack's tests check packing itself on every format.
func Loader(parse loader.Parser, dir loader.DirLoader) func(path string) ([]model.Run, error) {
	return func(path string) ([]model.Run, error) {
		runs, err := loader.Load(path, parse, dir)
		for i := range runs {
			Unpack(&runs[i])
		}
		return runs, err
	}
}

// Unpack gives a packed run's observations and thoughts back as TextLists.
func Unpack(r *model.Run) {
	r.Observations, r.Thoughts = unpack(r.Observations, len(r.Actions)), unpack(r.Thoughts, len(r.Actions))
}

func unpack(t model.Texts, n int) model.Texts {
	if t == nil {
		return nil
	}
	l := make(model.TextList, n)
	for i := range l {
		l[i] = t.Text(i)
	}
	return l
}

// LoadOne loads path with a format's loader and requires exactly one run,
// which must pass every check.
func LoadOne(t testing.TB, load func(string) ([]model.Run, error), path string, checks ...func(*model.Run) error) model.Run {
	t.Helper()
	runs, err := load(path)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	if len(runs) != 1 {
		t.Fatalf("Load(%s): %d runs, want 1", path, len(runs))
	}
	for _, check := range checks {
		if err := check(&runs[0]); err != nil {
			t.Fatal(err)
		}
	}
	return runs[0]
}

// ReadFile reads a test input.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// NeedFile skips the test when path (a real sample under ../shared/data,
// which not every checkout has) is absent.
func NeedFile(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared data not available")
	}
}

// Range is the observed read of lines a..b of f.
func Range(f string, a, b int) []model.ObservedRead {
	return []model.ObservedRead{{File: f, Kind: model.ReadRange, Start: a, End: b}}
}

// TrajfileCases loads, with load, every case of the reference's
// trajectory-file vectors (vectors/trajfile_cases.json) whose file name
// ends in suffix, and reports each difference from the case's loaded_pred.
// It returns the runs, for the format's own timeline checks.
func TrajfileCases(t *testing.T, vectors, suffix string, load func(string) ([]model.Run, error)) []model.Run {
	t.Helper()
	cases := ReadJSON(t, filepath.Join(vectors, "trajfile_cases.json"))
	list, _ := cases.Lookup("cases")
	var runs []model.Run
	for _, c := range list.Arr {
		file, _ := c.Lookup("trajectory_file")
		if !strings.HasSuffix(file.Str, suffix) {
			continue
		}
		run := LoadOne(t, load, filepath.Join(vectors, file.Str))
		want, _ := c.Lookup("loaded_pred")
		for _, d := range Diff(run.Prediction, want) {
			t.Errorf("%s: %s", file.Str, d)
		}
		runs = append(runs, run)
	}
	return runs
}

// Fixtures loads each fixture dir/name+ext with load and reports each
// difference from its reviewed expected record, dir/name.want.json.
func Fixtures(t *testing.T, load func(string) ([]model.Run, error), dir, ext string, names ...string) {
	t.Helper()
	for _, name := range names {
		run := LoadOne(t, load, filepath.Join(dir, name+ext))
		want := ReadJSON(t, filepath.Join(dir, name+".want.json"))
		for _, d := range Diff(run.Prediction, want) {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// LoadErrors writes each case's body (case[0]) to a file called name in a
// fresh directory, loads it and checks that the error holds case[1].
func LoadErrors(t *testing.T, load func(string) ([]model.Run, error), name string, cases [][2]string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	for _, c := range cases {
		body, want := c[0], c[1]
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := load(p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", body, err, want)
		}
	}
}

// CheckSniff checks that a format's sniffer accepts (want) or refuses a
// file name with content head, or with the content of dir/file when file
// is set.
func CheckSniff(t *testing.T, sniff func(name string, head []byte) bool, dir, name, file, head string, want bool) {
	t.Helper()
	b := []byte(head)
	if file != "" {
		b = ReadFile(t, filepath.Join(dir, file))
	}
	if got := sniff(name, b); got != want {
		t.Errorf("Sniff(%q, %q) = %v, want %v", name, file, got, want)
	}
}

// ReadJSON reads and parses a JSON file the way Python's json.load does.
func ReadJSON(t testing.TB, path string) *jsontree.Value {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsontree.Parse(b)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}

// CheckActions fails the test when a run's actions break what every loader
// keeps: indexes in order, a category each, step links inside the
// prediction.
func CheckActions(t testing.TB, run model.Run) {
	t.Helper()
	for i, a := range run.Actions {
		if int(a.Index) != i {
			t.Fatalf("action %d has Index %d", i, a.Index)
		}
		if a.Category == 0 {
			t.Fatalf("action %d has no category", i)
		}
		for _, s := range a.Steps {
			if s < 0 || s >= len(run.Prediction.Steps) {
				t.Fatalf("action %d links step %d of %d", i, s, len(run.Prediction.Steps))
			}
		}
	}
}

// CheckRun reports a run that breaks the invariants every loader here keeps:
// actions numbered in order, reads well formed, step links in range and
// the final context sorted. Tests and fuzz targets call it.
func CheckRun(run *model.Run) error {
	n := len(run.Prediction.Steps)
	for i, a := range run.Actions {
		if int(a.Index) != i {
			return fmt.Errorf("action %d has Index %d", i, a.Index)
		}
		for _, r := range a.Reads {
			ok := r.File != ""
			switch r.Kind {
			case model.ReadRange:
				ok = ok && r.Start >= 1 && r.End >= r.Start
			case model.ReadHead, model.ReadTail:
				ok = ok && r.End >= 1
			case model.ReadFrom:
				ok = ok && r.Start >= 1
			case model.ReadWindow:
				ok = ok && r.Start >= 1 && r.End >= 2
			case model.ReadWhole:
			default:
				ok = false
			}
			if !ok {
				return fmt.Errorf("action %d: bad read %+v", i, r)
			}
		}
		for _, s := range a.Steps {
			if s < 0 || s >= n {
				return fmt.Errorf("action %d: step %d out of %d", i, s, n)
			}
		}
	}
	if !sort.StringsAreSorted(run.Prediction.Final.Files) {
		return fmt.Errorf("final files not sorted: %v", run.Prediction.Final.Files)
	}
	return nil
}
