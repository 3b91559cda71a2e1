package parsers

import (
	"fmt"
	"path/filepath"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/unified"
)

// Prediction is one prediction record to score, or the error that replaced
// it, with its run's timeline when one was loaded.
type Prediction struct {
	Pred model.Prediction
	Err  error
	// Run is the run whose prediction this is, when timelines were asked
	// for and the file has them; its Prediction is Pred.
	Run *model.Run
	// Note tells the user, when not "", that the record was named by the id
	// its file records rather than by the evaluator's rule.
	Note string
	// Reading says what the reader of the record's run skipped or did not
	// understand (ReadingNotes), for stderr.
	Reading []string
	// FileID is the id the evaluator's file-name rule gave the record when
	// it is named by the id its run records instead (ByRecord); "" else.
	FileID string
}

// PredictionOptions say how ReadPredictions reads a file.
type PredictionOptions struct {
	// Format forces a format (a name or alias from Formats); "" detects it.
	Format string
	// Semantics: under model.ContextBench a file is read exactly as the
	// reference evaluator reads it; under model.Fixed a file whose format
	// refines its suffix owner's (a mini-swe-agent v2 .traj.json) is read
	// by its own parser, where upstream's extractor finds no context.
	Semantics model.Semantics
	// Timelines also loads the runs' timelines, so the observed lens and a
	// diagnosis can be computed; a file whose timeline cannot be read still
	// gives its predictions.
	Timelines bool
	// ByRecord names a run by the id its file records where the
	// evaluator's file-name rule names it otherwise, as under model.Fixed:
	// the observed lens is trajscope's, and view matches its gold so.
	ByRecord bool
}

// ReadPredictions reads the prediction records to score from path: those
// LoadPredictions gives (minus the records upstream skips silently), each
// paired, when o.Timelines is set, with the run of the same instance id.
func ReadPredictions(path string, o PredictionOptions) ([]Prediction, error) {
	format := o.Format
	var detected string
	var detectErr error
	detect := func() (string, error) { // at most once
		if detected == "" && detectErr == nil {
			detected, detectErr = Detect(path)
		}
		return detected, detectErr
	}
	if format == "" && o.Semantics == model.Fixed {
		if name, err := detect(); err == nil {
			if f, ok := lookup(name); ok && f.refines != "" {
				format = name
			}
		}
	}
	recs, err := LoadPredictions(path, format)
	if err != nil {
		return nil, err
	}
	var runs []*model.Run
	// Under fixed semantics a run is also read for the instance id its file
	// records, which outranks the evaluator's file-name rule.
	byRecord := o.Semantics == model.Fixed || o.ByRecord
	if (o.Timelines || byRecord) && format != Unified {
		if name, err := detect(); format != "" || err == nil && name != Unified {
			// A timeline is a bonus: a file that scores but whose timeline
			// cannot be read still scores.
			loaded, _ := Load(path, format)
			runs = pairRuns(recs, loaded)
		}
	}
	out := make([]Prediction, 0, len(recs))
	for i, r := range recs {
		if r.Skip {
			continue // upstream silently skips records without an id
		}
		p := Prediction{Pred: r.Pred, Err: r.Err, Reading: r.Notes}
		if runs != nil && runs[i] != nil {
			run := runs[i]
			if byRecord && run.RecordedID != "" && r.Err == nil {
				why := "--semantics fixed"
				if o.Semantics != model.Fixed {
					why = "the observed lens"
				}
				p.Note = fmt.Sprintf("%s: instance %q by its file name (the evaluator's rule), %q by its record: scored as %q (%s)",
					termsafe.Line(path), termsafe.Line(p.Pred.InstanceID), termsafe.Line(run.RecordedID), termsafe.Line(run.RecordedID), why)
				p.FileID, p.Pred.InstanceID = p.Pred.InstanceID, run.RecordedID
			}
			if o.Timelines {
				run.Prediction = p.Pred
				p.Run = run
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// pairRuns gives each record the run it came from, nil when none: the run
// at the same position when there is one per record with the same id (a run
// format gives one record per run, in order, so runs whose ids are empty or
// repeated still pair), else the first run of the record's id.
func pairRuns(recs []unified.Record, runs []model.Run) []*model.Run {
	out := make([]*model.Run, len(recs))
	byID := map[string]*model.Run{}
	for i := range runs {
		if _, seen := byID[runs[i].InstanceID]; !seen {
			byID[runs[i].InstanceID] = &runs[i]
		}
	}
	for i := range recs {
		id := recs[i].Pred.InstanceID
		if len(runs) == len(recs) && (runs[i].InstanceID == id || runs[i].RecordedID == id || len(runs) == 1) {
			// One file read twice, in one order: a run is its record's
			// even where the two readers name it differently (the
			// evaluator by file name, the run's parser by its record).
			out[i] = &runs[i]
		} else {
			out[i] = byID[id]
		}
	}
	return out
}

// EvaluatedPredictions is, for a file whose runs format reads but whose
// records the reference evaluator reads with another (a mini-swe-agent v2
// .traj.json goes through the v1 extractor, which finds no context), the
// predictions the evaluator scores, one per run in file order; ok is false
// when the evaluator reads the file as its format does (the runs'
// predictions are already the evaluator's) or sem is not the reference
// semantics. view takes its contextbench lens from them, as score does.
func EvaluatedPredictions(path, format string, sem model.Semantics) (preds []model.Prediction, ok bool) {
	f, found := lookup(format)
	if sem != model.ContextBench || !found || f.refines == "" {
		return nil, false
	}
	owner := suffixOwner(filepath.Base(path))
	if owner == nil || owner.name != f.refines {
		return nil, false
	}
	recs, err := owner.predictions(path)
	if err != nil {
		return nil, false
	}
	for i := range recs {
		if !recs[i].Skip && recs[i].Err == nil {
			preds = append(preds, recs[i].Pred)
		}
	}
	return preds, true
}
