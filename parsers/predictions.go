package parsers

import "github.com/trajscope/trajscope/model"

// Prediction is one prediction record to score, or the error that replaced
// it, with its run's timeline when one was loaded.
type Prediction struct {
	Pred model.Prediction
	Err  error
	// Run is the run whose prediction this is, when timelines were asked
	// for and the file has them; its Prediction is Pred.
	Run *model.Run
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
	runs := map[string]*model.Run{}
	if o.Timelines && format != Unified {
		if name, err := detect(); format != "" || err == nil && name != Unified {
			// A timeline is a bonus: a file that scores but whose timeline
			// cannot be read still scores.
			loaded, _ := Load(path, format)
			for i := range loaded {
				runs[loaded[i].InstanceID] = &loaded[i]
			}
		}
	}
	out := make([]Prediction, 0, len(recs))
	for _, r := range recs {
		if r.Skip {
			continue // upstream silently skips records without an id
		}
		p := Prediction{Pred: r.Pred, Err: r.Err}
		if run := runs[r.Pred.InstanceID]; run != nil {
			run.Prediction = r.Pred
			p.Run = run
		}
		out = append(out, p)
	}
	return out, nil
}
