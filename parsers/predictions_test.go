package parsers

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/miniswev2"
)

// A mini-swe-agent v2 .traj.json: upstream's v1 extractor finds no context
// in it, and parity keeps that; fixed semantics reads it with its own
// parser. Timelines come from the v2 parser either way, carrying the
// prediction that is scored.
func TestReadPredictionsRefinedFormat(t *testing.T) {
	const path = "miniswev2/testdata/responses.traj.json"
	tests := []struct {
		sem       model.Semantics
		timelines bool
		steps     int
		final     string
	}{
		{model.ContextBench, false, 0, ""},
		{model.ContextBench, true, 0, ""},
		{model.Fixed, false, 1, "pkg/q.py"},
		{model.Fixed, true, 1, "pkg/q.py"},
	}
	for _, tt := range tests {
		preds, err := ReadPredictions(path, PredictionOptions{Semantics: tt.sem, Timelines: tt.timelines})
		if err != nil || len(preds) != 1 {
			t.Fatalf("%v: %d predictions, %v", tt.sem, len(preds), err)
		}
		p := preds[0]
		final := ""
		if len(p.Pred.Final.Files) == 1 {
			final = p.Pred.Final.Files[0]
		}
		if p.Pred.InstanceID != "responses" || len(p.Pred.Steps) != tt.steps || final != tt.final || len(p.Pred.Final.Files) > 1 {
			t.Errorf("%v timelines=%v: prediction %+v", tt.sem, tt.timelines, p.Pred)
		}
		switch {
		case !tt.timelines && p.Run != nil:
			t.Errorf("%v: a run without timelines asked for", tt.sem)
		case tt.timelines && (p.Run == nil || p.Run.Format != miniswev2.Name || len(p.Run.Actions) == 0):
			t.Errorf("%v: run %+v", tt.sem, p.Run)
		case tt.timelines && len(p.Run.Prediction.Steps) != tt.steps:
			t.Errorf("%v: the run carries %d steps, not the scored prediction's %d", tt.sem, len(p.Run.Prediction.Steps), tt.steps)
		}
	}
	// A forced format is never re-detected.
	preds, err := ReadPredictions(path, PredictionOptions{Format: "mini-swe-agent-v1", Semantics: model.Fixed})
	if err != nil || len(preds) != 1 || len(preds[0].Pred.Steps) != 0 {
		t.Errorf("forced v1 under fixed: %+v %v", preds, err)
	}
}

// Unified records have no timeline; the record upstream skips is dropped,
// the broken one kept with its error.
func TestReadPredictionsUnified(t *testing.T) {
	preds, err := ReadPredictions("testdata/preds.jsonl", PredictionOptions{Timelines: true})
	if err != nil || len(preds) != 3 {
		t.Fatalf("%d predictions, %v", len(preds), err)
	}
	ids := []string{"owner__repo-1", "owner__repo-2", "owner__repo-3"}
	for i, p := range preds {
		if p.Pred.InstanceID != ids[i] || p.Run != nil || (p.Err != nil) != (i == 2) {
			t.Errorf("prediction %d: %+v", i, p)
		}
	}
}

func TestUnknownFormatIsSentinel(t *testing.T) {
	const path = "testdata/preds.jsonl"
	_, errLoad := Load(path, "no-such-format")
	_, errPreds := LoadPredictions(path, "no-such-format")
	_, errRead := ReadPredictions(path, PredictionOptions{Format: "no-such-format"})
	for i, err := range []error{errLoad, errPreds, errRead} {
		if !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("%d: %v does not wrap ErrUnknownFormat", i, err)
		}
	}
	// A file no format claims is not a format-name error.
	junk := filepath.Join(t.TempDir(), "junk.txt")
	if err := os.WriteFile(junk, []byte("not a run"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(junk, ""); err == nil || errors.Is(err, ErrUnknownFormat) {
		t.Errorf("undetected file: %v", err)
	}
}
