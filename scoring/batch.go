package scoring

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
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
	// Unmatched, when set, says why the evaluator has no gold for the
	// instance under the id it would name it by (a model-prefixed file
	// name), though it is scored by another: the contextbench lens of its
	// analysis is then the evaluator's missing_gold row.
	Unmatched string
}

// RepoID is the instance id that names a run's repository (owner__repo-N):
// its gold's, when its gold was found by another id than the prediction's
// (a model-prefixed file name, the id the run records), else the
// prediction's.
func RepoID(p *model.Prediction, g *model.Gold) string {
	if g != nil && g.ID != "" {
		return g.ID
	}
	return p.InstanceID
}

// Checkouts give instances the trees they read. Instances whose keys are
// equal read one tree and share one *FileCache (blob reads and parses); Batch
// asks for every instance's key before scoring starts, opens a key when its
// first instance starts and releases it after each instance, so a tree and
// its cached files are dropped after their last instance and memory stays
// bounded across a benchmark of many commits. source.Checkouts is the
// implementation that reads repositories.
type Checkouts interface {
	// Key names the checkout of an instance from the repository URLs and
	// commits its prediction and gold give. Each call announces one Open
	// and Release to come.
	Key(predURL, goldURL, predCommit, goldCommit, instanceID string) (string, error)
	// Open returns the tree of key; it is called concurrently.
	Open(key string) (model.Tree, error)
	// Release ends one instance's use of key, after Open whatever it
	// returned.
	Release(key string)
}

// Batch scores instances on all cores. Results come back in input order, one
// per instance; a failure in one instance is that instance's error row.
type Batch struct {
	Checkouts Checkouts
	// Cache, when set, keeps line offsets and definitions of file contents
	// across processes; results are the same with or without it.
	Cache     model.FactStore
	Semantics model.Semantics
	// Workers defaults to GOMAXPROCS.
	Workers int
	// Done, when set, is called after each instance (from any goroutine).
	Done func(i int, r *model.Result)
	// Analyze makes Run keep each instance's full Analysis (both lenses and
	// per-action views) as well as its result.
	Analyze bool
	// Analysed, when set with Analyze, is called with each analysis (nil
	// for an error row) while its repository is still open: what reads
	// files after scoring (a diagnosis resolving search hits) must run
	// here, since a checkout is released after its last instance and its
	// files then read as absent.
	Analysed func(i int, a *Analysis)
	// Lens is the lens whose steps the result rows score: the reference
	// evaluator's (the zero value) or what each action displayed (see
	// observed.Prediction).
	Lens model.Lens
	// ParseTimeout bounds each file's tree-sitter parse (0: the default);
	// see Files.ParseTimeout and Result.ParseGaveUp.
	ParseTimeout time.Duration
	// AtK, when set, adds ranked retrieval's coverage at each k to every
	// row (score --at-k; Result.AtK).
	AtK []int
}

// shared is one key's files, alive while instances still need them.
type shared struct {
	want  int
	once  sync.Once
	files *FileCache
	err   error
}

// checkout is an instance's key, or the error that replaced it.
type checkout struct {
	key string
	err error
	ok  bool // a key was asked for: Release is due
}

// Run scores every instance. analyses is nil unless b.Analyze is set; then
// analyses[i] is nil for error rows.
func (b Batch) Run(instances []Instance) (results []model.Result, analyses []*Analysis) {
	results = make([]model.Result, len(instances))
	if b.Analyze {
		analyses = make([]*Analysis, len(instances))
	}
	// Keys first: they fix each tree's last instance before any is opened.
	keys := make([]checkout, len(instances))
	var mu sync.Mutex
	files := map[string]*shared{}
	for i, in := range instances {
		if in.Err != nil || in.Gold == nil || in.Pred == nil {
			continue
		}
		p, g := in.Pred, in.Gold
		goldURL := g.RepoURL // the reference reads repo_url alone
		if b.Semantics == model.Fixed {
			goldURL = g.URL()
		}
		k, err := b.Checkouts.Key(p.RepoURL, goldURL, p.Commit, g.Commit, p.InstanceID)
		keys[i] = checkout{key: k, err: err, ok: err == nil}
		if err == nil {
			if files[k] == nil {
				files[k] = &shared{}
			}
			files[k].want++
		}
	}
	open := func(k string) (*FileCache, error) {
		mu.Lock()
		s := files[k]
		mu.Unlock()
		s.once.Do(func() {
			tree, err := b.Checkouts.Open(k)
			if err != nil {
				s.err = err
				return
			}
			s.files = NewFileCacheWithStore(tree, b.Cache)
			s.files.ParseTimeout = b.ParseTimeout
		})
		return s.files, s.err
	}
	release := func(k string) {
		mu.Lock()
		s := files[k]
		last := false
		if s.want--; s.want <= 0 {
			delete(files, k)
			last = true
		}
		mu.Unlock()
		if last && s.files != nil {
			s.files.Flush()
		}
		b.Checkouts.Release(k)
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
				results[i], a = b.one(instances[i], keys[i], open)
				results[i].Lens = b.Lens // error rows too: the row says what it was scored under
				if b.Analysed != nil && b.Analyze {
					b.Analysed(i, a)
				}
				if keys[i].ok {
					release(keys[i].key)
				}
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

func (b Batch) one(in Instance, co checkout, open func(string) (*FileCache, error)) (res model.Result, a *Analysis) {
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
	case co.err != nil:
		return model.Result{InstanceID: id, Error: ErrCheckoutFailed, Reason: co.err.Error()}, nil
	}
	files, err := open(co.key)
	if err != nil {
		return model.Result{InstanceID: id, Error: ErrCheckoutFailed, Reason: err.Error()}, nil
	}
	run := in.Run
	if run == nil && (b.Analyze || b.Lens == model.LensObserved) {
		run = &model.Run{InstanceID: id, Prediction: *in.Pred}
	}
	pred := in.Pred
	standIn := false
	if b.Lens == model.LensObserved && (!b.Analyze || len(b.AtK) > 0) {
		obs := observed.Prediction(run, files)
		pred, standIn = &obs, run.Prediction.Final.Empty()
	}
	if !b.Analyze {
		res = Score(in.Gold, pred, files, b.Semantics)
		res.Lens, res.FinalStandIn = b.Lens, standIn
		return b.withAtK(res, in.Gold, pred, files), nil
	}
	a = Analyze(run, in.Gold, files, b.Semantics)
	if in.Unmatched != "" {
		a.Refuse(model.LensContextBench, ErrMissingGold, in.Unmatched)
	}
	res = a.Lenses[b.Lens].Result
	res.Lens, res.FinalStandIn = b.Lens, a.Lenses[b.Lens].FinalStandIn
	if res.Error != "" {
		a = nil
	}
	return b.withAtK(res, in.Gold, pred, files), a
}

// withAtK adds ranked retrieval's coverage to a row that is not an error,
// when asked (Batch.AtK).
func (b *Batch) withAtK(res model.Result, g *model.Gold, pred *model.Prediction, files *FileCache) model.Result {
	if len(b.AtK) > 0 && res.Error == "" {
		res.AtK = ScoreAtK(g, pred, files, b.Semantics, b.AtK)
	}
	return res
}

// Shard returns the k-th (1-based) of n contiguous slices of instances, of
// sizes differing by at most one: slice k is instances[(k-1)·len/n :
// k·len/n]. The slices in order are the whole batch, so the results of n
// shards, concatenated in order, are the results of one run; contiguous
// slices also keep one repository's instances (adjacent in a sorted file)
// on one machine. k and n outside 1 <= k <= n give the whole batch.
func Shard(instances []Instance, k, n int) []Instance {
	if n <= 1 || k < 1 || k > n {
		return instances
	}
	l := len(instances)
	return instances[(k-1)*l/n : k*l/n]
}

// MaxShards bounds N in --shard K/N: more machines than that nobody has,
// and the slice bounds are computed as (K-1)·len/N within int.
const MaxShards = 1_000_000

// ParseShard reads a --shard value "K/N"; "" is the whole batch (1/1).
func ParseShard(s string) (k, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	ks, ns, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(ks)
	n, err2 := strconv.Atoi(ns)
	if !ok || err1 != nil || err2 != nil || n < 1 || k < 1 || k > n || n > MaxShards {
		return 0, 0, fmt.Errorf("--shard %q: want K/N with 1 <= K <= N <= %d, e.g. 2/8", termsafe.Line(s), MaxShards)
	}
	return k, n, nil
}
