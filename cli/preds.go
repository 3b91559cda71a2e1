package cli

import (
	"fmt"
	"io"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/unified"
)

// eachPrediction hands the predictions of --pred to use one at a time, in
// order: the lines of a JSONL file of unified records, or the records of
// each run file of a folder or archive, one file at a time, so that memory
// holds a chunk of them, never all.
func eachPrediction(o *scoreOptions, c scoreChoice, sl slice, stderr io.Writer, use func(parsers.Prediction) error) error {
	if !parsers.IsCollection(o.pred) {
		if sl.to > 0 && sl.to <= sl.from {
			return nil // an empty shard
		}
		return unified.EachLineIn(o.pred, sl.from, sl.to, func(r unified.Record) error {
			if r.Skip {
				return nil // upstream silently skips records without an id
			}
			return use(parsers.Prediction{Pred: r.Pred, Err: r.Err})
		})
	}
	opts := parsers.PredictionOptions{Semantics: c.sem, Timelines: c.lens == model.LensObserved, ByRecord: c.lens == model.LensObserved}
	return eachInFolder(o.pred, opts, sl, stderr, func(r parsers.Prediction) error {
		if r.Note != "" {
			fmt.Fprintln(stderr, "trajscope: "+r.Note)
		}
		for _, n := range r.Reading {
			fmt.Fprintln(stderr, "trajscope: warning: "+safe(n))
		}
		return use(r)
	})
}

// readPredictions reads --pred: a file, or a folder or archive of run files
// (each read as convert reads it, in name order, so scoring one equals
// converting then scoring). A file of the folder that cannot be read is
// reported and the others still score.
func readPredictions(pred string, o parsers.PredictionOptions, stderr io.Writer) ([]parsers.Prediction, error) {
	if !parsers.IsCollection(pred) {
		return parsers.ReadPredictions(pred, o)
	}
	var all []parsers.Prediction
	err := eachInFolder(pred, o, slice{from: 1}, stderr, func(r parsers.Prediction) error {
		all = append(all, r)
		return nil
	})
	return all, err
}

// eachInFolder hands use the predictions of each run file of a folder or
// archive, a file at a time, in name order; a file that cannot be read is
// reported and the others still go.
func eachInFolder(pred string, o parsers.PredictionOptions, sl slice, stderr io.Writer, use func(parsers.Prediction) error) error {
	files, errs := parsers.Walk(pred, true)
	for _, e := range errs {
		printError(stderr, "warning: ", e)
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: no run files found (it holds no file a format recognises)", safe(pred))
	}
	// A shard's run files: [from, to) of the folder's, numbered from 1.
	if sl.to > 0 {
		files = files[min(sl.from-1, len(files)):min(sl.to-1, len(files))]
	}
	for _, f := range files {
		recs, err := parsers.ReadPredictions(f, o)
		if err != nil {
			printError(stderr, "", err)
			continue
		}
		for _, r := range recs {
			if err := use(r); err != nil {
				return err
			}
		}
	}
	return nil
}
