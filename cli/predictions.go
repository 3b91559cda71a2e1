package cli

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/miniswev2"
)

// loadPredictions reads --pred the way upstream load_pred does (unified
// records or one trajectory file). With timelines set it also loads the
// runs' timelines, so the observed lens and the diagnosis can be computed;
// each run's ContextBench prediction is the parity one.
func loadPredictions(path, format string, timelines bool, sem model.Semantics) ([]predRecord, error) {
	if format == "" && sem == model.Fixed {
		// Upstream runs its v1 extractor on every .traj.json, which finds no
		// context in a mini-swe-agent v2 run; parity keeps that, fixed reads
		// the run with its own format.
		if f, err := parsers.Detect(path); err == nil && f == miniswev2.Name {
			format = f
		}
	}
	recs, err := parsers.LoadPredictions(path, format)
	if err != nil {
		return nil, err
	}
	runs := map[string]*model.Run{}
	if timelines {
		if f, derr := parsers.Detect(path); format != parsers.Unified && (format != "" || derr == nil && f != parsers.Unified) {
			// A timeline is a bonus: a file that scores but whose timeline
			// cannot be read still scores.
			loaded, _ := parsers.Load(path, format)
			for i := range loaded {
				runs[loaded[i].InstanceID] = &loaded[i]
			}
		}
	}
	out := make([]predRecord, 0, len(recs))
	for _, r := range recs {
		if r.Skip {
			continue // upstream silently skips records without an id
		}
		pr := predRecord{Pred: r.Pred, Err: r.Err}
		if run := runs[r.Pred.InstanceID]; run != nil {
			run.Prediction = r.Pred
			pr.Run = run
		}
		out = append(out, pr)
	}
	return out, nil
}
