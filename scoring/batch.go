package scoring

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// Instance is one prediction to score in a batch.
type Instance struct {
	Pred *model.Prediction
	// Gold is nil when no gold matches the prediction (a missing_gold row).
	Gold *model.Gold
	// Err is set when the prediction record itself was unreadable; the
	// instance becomes an error row and the batch goes on.
	Err error
	// Run is the run the prediction came from, when its timeline is known;
	// Batch.Analyze uses it for the observed lens.
	Run *model.Run
}

// Opener gives the files of an instance's repository at its commit. It is
// called concurrently; returning the same *Files for instances that share a
// repository and commit lets them share cached blobs and parses.
type Opener func(pred *model.Prediction, gold *model.Gold) (*Files, error)

// Batch scores instances on all cores. Results come back in input order, one
// per instance; a failure in one instance is that instance's error row.
type Batch struct {
	Open      Opener
	Semantics model.Semantics
	// Workers defaults to GOMAXPROCS.
	Workers int
	// Done, when set, is called after each instance (from any goroutine).
	Done func(i int, r *model.Result)
	// Analyze makes Run keep each instance's full Analysis (both lenses and
	// per-action views) as well as its result.
	Analyze bool
}

// Run scores every instance. analyses is nil unless b.Analyze is set; then
// analyses[i] is nil for error rows.
func (b Batch) Run(instances []Instance) (results []model.Result, analyses []*Analysis) {
	results = make([]model.Result, len(instances))
	if b.Analyze {
		analyses = make([]*Analysis, len(instances))
	}
	workers := b.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(workers, max(len(instances), 1)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				var a *Analysis
				results[i], a = b.one(instances[i])
				if analyses != nil {
					analyses[i] = a
				}
				if b.Done != nil {
					b.Done(i, &results[i])
				}
			}
		}()
	}
	for i := range instances {
		next <- i
	}
	close(next)
	wg.Wait()
	return results, analyses
}

func (b Batch) one(in Instance) (res model.Result, a *Analysis) {
	id := ""
	if in.Pred != nil {
		id = in.Pred.InstanceID
	}
	defer func() {
		// A bug must cost one instance, not the batch.
		if p := recover(); p != nil {
			res, a = model.Result{InstanceID: id, Error: "internal_error", Reason: fmt.Sprintf("internal error: %v", p)}, nil
		}
	}()
	switch {
	case in.Err != nil:
		return model.Result{InstanceID: id, Error: ErrBadPrediction, Reason: in.Err.Error()}, nil
	case in.Gold == nil:
		return model.Result{InstanceID: id, Error: ErrMissingGold, Reason: "no gold context for " + id}, nil
	}
	files, err := b.Open(in.Pred, in.Gold)
	if err != nil {
		return model.Result{InstanceID: id, Error: ErrCheckoutFailed, Reason: err.Error()}, nil
	}
	if !b.Analyze {
		return Score(in.Gold, in.Pred, files, b.Semantics), nil
	}
	run := in.Run
	if run == nil {
		run = &model.Run{InstanceID: id, Prediction: *in.Pred}
	}
	a = Analyze(run, in.Gold, files, b.Semantics)
	res = a.Lenses[model.LensContextBench].Result
	if res.Error != "" {
		a = nil
	}
	return res, a
}
