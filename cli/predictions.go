package cli

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
)

// loadPredictions reads --pred with parsers.ReadPredictions; timelines asks
// for the runs' timelines too.
func loadPredictions(path, format string, timelines bool, sem model.Semantics) ([]predRecord, error) {
	preds, err := parsers.ReadPredictions(path, parsers.PredictionOptions{Format: format, Semantics: sem, Timelines: timelines})
	if err != nil {
		return nil, err
	}
	out := make([]predRecord, len(preds))
	for i, p := range preds {
		out[i] = predRecord(p) // the same fields: score.go can take parsers.Prediction as it is
	}
	return out, nil
}
