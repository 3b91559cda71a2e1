package loader

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a__b-1.x")
	if err := os.WriteFile(file, []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(path string, data []byte) ([]model.Run, error) {
		return []model.Run{{InstanceID: "file", Path: path, Agent: string(data)}}, nil
	}
	fromDir := func(path string) ([]model.Run, error) { return []model.Run{{InstanceID: "dir", Path: path}}, nil }
	tests := []struct {
		path   string
		dir    DirLoader
		want   string // the run's id, or a piece of the error
		failed bool
	}{
		{file, nil, "file", false},
		{file, fromDir, "file", false},
		{dir, fromDir, "dir", false},
		{dir, nil, "is a directory", true},
		{filepath.Join(dir, "missing"), nil, "missing: no such file", true},
		{filepath.Join(dir, "missing"), fromDir, "missing: no such file", true},
	}
	for _, tt := range tests {
		runs, err := Load(tt.path, parse, tt.dir)
		if tt.failed {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s (dir loader %v): err %v, want %q", tt.path, tt.dir != nil, err, tt.want)
			}
			continue
		}
		if err != nil || len(runs) != 1 || runs[0].InstanceID != tt.want || runs[0].Path != tt.path {
			t.Errorf("%s: %+v %v", tt.path, runs, err)
		}
		if tt.want == "file" && runs[0].Agent != "content" {
			t.Errorf("%s: parsed %q", tt.path, runs[0].Agent)
		}
	}
}

func TestNamed(t *testing.T) {
	errBad := errors.New("bad")
	parse := Named(func(name string, data []byte) (*model.Run, error) {
		if string(data) == "bad" {
			return nil, errBad
		}
		return &model.Run{InstanceID: name}, nil
	})
	runs, err := parse("dir/x__y-1.log", []byte("ok"))
	if err != nil || len(runs) != 1 || runs[0].InstanceID != "x__y-1.log" || runs[0].Path != "dir/x__y-1.log" {
		t.Errorf("good: %+v %v", runs, err)
	}
	_, err = parse("dir/x__y-1.log", []byte("bad"))
	if !errors.Is(err, errBad) || err.Error() != "dir/x__y-1.log: bad" {
		t.Errorf("bad: %v", err)
	}
}

// A run past model.MaxActions is refused with a line naming the file and
// the bound; one at the bound loads.
func TestLoadRefusesLongRun(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a__b-1.x")
	if err := os.WriteFile(file, []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	parseN := func(n int) Parser {
		return func(string, []byte) ([]model.Run, error) {
			return []model.Run{{Actions: make([]model.Action, n)}}, nil
		}
	}
	if runs, err := Load(file, parseN(model.MaxActions), nil); err != nil || len(runs[0].Actions) != model.MaxActions {
		t.Errorf("at the bound: %v", err)
	}
	_, err := Load(file, parseN(model.MaxActions+1), nil)
	if err == nil || !strings.Contains(err.Error(), file+": a run of 100001 actions; trajscope reads runs of at most 100000") {
		t.Errorf("past the bound: %v", err)
	}
}

// TestLoadPredictions: a scorer's load keeps the runs' predictions and
// actions as Load gives them and drops their outputs and thoughts; Load
// keeps them, packed.
func TestLoadPredictions(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a__b-1.x")
	if err := os.WriteFile(file, []byte("content"), 0o644); err != nil {
		t.Fatal(err)
	}
	parse := func(path string, data []byte) ([]model.Run, error) {
		step := model.Step{Files: []string{"a.py"}}
		return []model.Run{{InstanceID: "r", Actions: []model.Action{{Command: "cat a.py", Steps: []int{0}}},
			Observations: model.TextList{string(data)}, Thoughts: model.TextList{"why"},
			Prediction: model.Prediction{InstanceID: "r", Steps: []model.Step{step}, Final: step}}}, nil
	}
	full, err := Load(file, parse, nil)
	if err != nil || len(full) != 1 || full[0].Observation(0) != "content" || full[0].Thought(0) != "why" {
		t.Fatalf("Load: %v, %+v", err, full)
	}
	preds, err := LoadPredictions(file, parse, nil)
	if err != nil || len(preds) != 1 {
		t.Fatalf("LoadPredictions: %v, %d runs", err, len(preds))
	}
	if preds[0].Observations != nil || preds[0].Thoughts != nil {
		t.Errorf("LoadPredictions kept the texts: %v %v", preds[0].Observations, preds[0].Thoughts)
	}
	full[0].Observations, full[0].Thoughts = nil, nil
	if !reflect.DeepEqual(preds[0], full[0]) {
		t.Errorf("LoadPredictions run %+v, want %+v", preds[0], full[0])
	}
}
