package cli

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/trajscope/trajscope/inputfile"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/internal/atomicfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/unified"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
)

type scoreOptions struct {
	gold, pred   string
	cache, repo  string
	commit       string
	out          string
	semantics    string
	lens         string
	format       string
	predFormat   string
	workers      int
	noClone      bool
	noCache      bool
	shard        string
	atK          string
	instanceList []string
	parseTimeout time.Duration
	resume       bool
}

func newScoreCmd(stdout, stderr io.Writer) *cobra.Command {
	var o scoreOptions
	cmd := &cobra.Command{
		Use:   "score --gold G --pred P [--cache DIR | --repo DIR] [--out results.jsonl]",
		Short: "Score predictions against gold context, as the ContextBench evaluator does",
		Long: `score evaluates every prediction in --pred against its gold context and prints
per-instance results and the upstream summary block (on stderr).

With --semantics contextbench (the default) the per-instance JSONL is
byte-identical to the reference evaluator's --out file. --semantics fixed
corrects the upstream quirks that are bugs (see README) and adds per-instance F1.
--lens observed scores as steps what each action displayed, in every format,
instead of the steps the evaluator extracts (see README: the two lenses); the
final context stays the run's own, or is the union of those steps when the
run has none.`,
		Example: `  # as the reference evaluator: one JSON line per instance in results.jsonl
  trajscope score --gold gold.parquet --pred preds.jsonl --cache ./repos --out results.jsonl
  # one run, read at its commit from a local clone, as a readable report
  trajscope score --gold gold.jsonl --pred run.traj.json --repo ~/src/django --format text
  # with the upstream bugs fixed, as CSV
  trajscope score --gold gold.parquet --pred preds.jsonl --semantics fixed --format csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScore(&o, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.gold, "gold", "", "gold context (parquet, JSONL, JSON, a directory of annot.json files) or a reference patch (PATCH.diff): each run's target is the lines it changes")
	f.StringVar(&o.pred, "pred", "", "predictions: unified JSONL/JSON records or a trajectory file")
	f.StringVar(&o.cache, "cache", "./repos", "repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.StringVar(&o.repo, "repo", "", "read every instance's files from this repository (git: at the instance's commit) or directory")
	f.StringVar(&o.commit, "commit", "", commitHelp)
	f.StringVar(&o.out, "out", "", "write per-instance results (upstream JSONL) to this file")
	f.StringVar(&o.semantics, "semantics", "contextbench", "contextbench (upstream parity) or fixed")
	f.StringVar(&o.lens, "lens", "contextbench", "steps to score: contextbench (the evaluator's) or observed (what each action displayed; see README)")
	f.StringVar(&o.format, "format", "", "stdout format: jsonl, json, text or csv (default jsonl, or none with --out)")
	f.StringVar(&o.predFormat, "input-format", "", inputFormatHelp("predictions'"))
	f.StringVar(&o.predFormat, "pred-format", "", "")
	f.MarkDeprecated("pred-format", "use --input-format")
	f.IntVar(&o.workers, "workers", 0, "instances scored in parallel (default: all cores)")
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	f.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache of file facts kept between runs (see 'trajscope cache')")
	f.StringVar(&o.atK, "at-k", "", "add to each row the coverage of the first k predicted files and spans, for each k (e.g. 1,5,10: ranked retrieval), and the coverage after the first step (initial_recall)")
	f.StringVar(&o.shard, "shard", "", "score only the K-th of N contiguous slices of the instances (K/N, or auto: from a Slurm array's or, with auto/N, a Kubernetes Indexed Job's environment); the shards' --out files concatenated in order are the unsharded one, each with FILE.shard.json saying which slice it is")
	f.StringSliceVar(&o.instanceList, "instance", nil, "score only these instance ids")
	f.BoolVar(&o.resume, "resume", false, "continue an interrupted --out: predictions whose rows it holds are skipped, the rest appended (a half-written last line is redone); the finished file is the uninterrupted run's")
	f.DurationVar(&o.parseTimeout, "parse-timeout", scoring.DefaultParseTimeout, "give up parsing one file for symbols after this long (its symbols are then missing, null under --semantics fixed)")
	return cmd
}

func runScore(o *scoreOptions, stdout, stderr io.Writer) error {
	c, err := o.check()
	if err != nil {
		return err
	}
	sem, format := c.sem, c.format
	limitMemory(o.gold, o.pred)
	var done *resumed
	var out *atomicfile.File
	if o.resume {
		if done, err = readResumed(o.out, stderr); err != nil {
			return err
		}
	}
	goldSet, err := gold.Load(o.gold)
	if err != nil {
		return err
	}
	if o.resume {
		// Rows of another gold's instances are another run's results:
		// nothing of the file is touched.
		if err := done.ofGold(goldSet, sem, o.out); err != nil {
			return err
		}
		out, err = openResumed(o.out, done, o.gold, o.pred)
	} else {
		out, err = createOut("--out", o.out, stdout, o.gold, o.pred)
	}
	if err != nil {
		return err
	}
	defer out.Abort()

	for _, p := range goldSet.Problems() {
		printError(stderr, "warning: ", p)
	}
	if goldSet.IsPatch() {
		fmt.Fprintf(stderr, "trajscope: %s is a patch: each run's target is the lines it changes (gold from patch)\n", o.gold)
	}
	// Text and JSON explain each instance (diagnosis, usage drop, IR), which
	// needs the full analysis; the JSONL and --out paths stay upstream's.
	analyze := format == "text" || format == "json"
	if !analyze && format != "csv" && o.predFormat == "" && (streamable(o.pred) || parsers.IsCollection(o.pred)) {
		return scoreStream(o, c, goldSet, out, done, stdout, stderr)
	}
	if streamOnly(o.pred) {
		// Held whole, a decompressed or piped input would be bounded as a
		// file is; it is read a record at a time instead.
		return usagef("--pred %s is read a record at a time: --format %s explains every instance and needs the predictions whole; use --format jsonl (or --out), or decompress it to a file", safe(o.pred), format)
	}
	records, err := readPredictions(o.pred, parsers.PredictionOptions{Format: o.predFormat, Semantics: sem, Timelines: analyze || c.lens == model.LensObserved, ByRecord: c.lens == model.LensObserved}, stderr)
	if err != nil {
		return err
	}
	for i := range records {
		if records[i].Note != "" {
			fmt.Fprintln(stderr, "trajscope: "+records[i].Note)
		}
		for _, n := range records[i].Reading {
			fmt.Fprintln(stderr, "trajscope: warning: "+safe(n))
		}
	}
	if len(records) == 0 {
		// Upstream scores an empty file as 0/0; say why nothing was scored.
		warnNoRecords(stderr, o.pred)
	}
	all := buildInstances(records, goldSet, sem, o.instanceList)
	instances := scoring.Shard(all, c.shardK, c.shardN)
	if done != nil {
		kept := instances[:0]
		for _, in := range instances {
			if !done.skip(in.Pred.InstanceID) {
				kept = append(kept, in)
			}
		}
		instances = kept
	}

	batch, closeBatch := o.batch(c, stderr)
	defer closeBatch()
	log := newBatchLog(stderr, len(instances), o.parseTimeout)
	batch.Analyze, batch.Done = analyze, func(i int, r *model.Result) { log.row(i, r) }
	var stories []*story.Story
	if analyze {
		// Told while each checkout is open: the diagnosis resolves the
		// runs' search hits against the repository.
		stories = make([]*story.Story, len(instances))
		batch.Analysed = func(i int, a *scoring.Analysis) {
			if a != nil {
				stories[i] = runset.Tell(a)
			}
		}
	}
	results, _ := batch.Run(instances)
	log.finish()
	res := report.NewResults(results, stories, sem)
	res.SetTasks(instances)
	if out != nil {
		w := bufio.NewWriter(out)
		if err := errors.Join(res.WriteJSONL(w), w.Flush(), out.Commit()); err != nil {
			return fmt.Errorf("--out %s: %w", safe(o.out), err)
		}
		if c.shardN > 1 && o.out != "-" {
			// Which slice of which input: report says when one is missing.
			rec := report.ShardRecord{K: c.shardK, N: c.shardN, Pred: o.pred, Gold: o.gold, Instances: len(all)}
			if err := report.WriteShardRecord(o.out, rec); err != nil {
				return fmt.Errorf("--out %s: %w", safe(o.out), err)
			}
		}
	}
	w := bufio.NewWriter(stdout)
	if err := errors.Join(res.Write(w, format), w.Flush()); err != nil {
		return err
	}
	agg := res.Aggregate
	if done != nil {
		// The whole file's: the rows it held, then these.
		for i := range results {
			done.sum.Add(&results[i])
		}
		agg = done.sum.Aggregate()
	}
	summarize(stderr, agg, o.out)
	return nil
}

// batch is the scoring batch o asks for, over the repositories and the
// persistent cache it names; close releases the cache when scoring is done.
func (o *scoreOptions) batch(c scoreChoice, stderr io.Writer) (b scoring.Batch, close func()) {
	facts := openFacts(o.noCache, stderr)
	co := source.NewCheckouts(source.CheckoutOptions{
		Cache: o.cache, Repo: o.repo, NoClone: o.noClone, Progress: progressTo(stderr), Facts: facts.source(),
		Commit: o.commit,
	})
	return scoring.Batch{Checkouts: co, Cache: facts.scoring(), Semantics: c.sem, Workers: o.workers,
		Lens: c.lens, ParseTimeout: o.parseTimeout, AtK: c.atK}, facts.close
}

// streamChunk is how many predictions score holds at a time when it
// streams: enough to keep every core busy, few enough that memory does not
// grow with the number of predictions.
const streamChunk = 256

// streamOnly reports --pred that can only be read as a stream: standard
// input, a compressed file.
func streamOnly(path string) bool {
	return path == inputfile.Stdin || inputfile.Compressed(path)
}

// streamable reports a predictions file score can read a line at a time:
// unified records as JSON lines (what a benchmark of thousands of runs is),
// plain, compressed (.jsonl.gz, .jsonl.zst) or on standard input.
func streamable(path string) bool {
	if streamOnly(path) {
		return true
	}
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	name, err := parsers.Detect(path)
	return err == nil && name == parsers.Unified && unified.IsJSONL(path)
}

// scoreStream scores a JSONL file of unified records chunk by chunk: each
// chunk's rows are written as soon as it is scored, and only what the
// summary needs of each row is kept, so memory stays flat however many
// predictions there are. The rows are the ones the whole-file path writes,
// in the same order, byte for byte.
func scoreStream(o *scoreOptions, c scoreChoice, goldSet *gold.Set, out *atomicfile.File, done *resumed, stdout, stderr io.Writer) error {
	sem := c.sem
	// A shard reads only its slice: the lines (or the run files of a
	// folder) numbered [from, to) of the whole, found by a pass that
	// counts line ends and decodes nothing.
	sl, err := sliceOf(o.pred, c.shardK, c.shardN, isTerminal(stderr))
	if err != nil {
		return err
	}
	batch, closeBatch := o.batch(c, stderr)
	defer closeBatch()
	log := newBatchLog(stderr, sl.count, o.parseTimeout)
	base := 0
	batch.Done = func(i int, r *model.Result) { log.row(base+i, r) }
	var sinks []*bufio.Writer
	if out != nil {
		sinks = append(sinks, bufio.NewWriter(out))
	}
	if c.format == "jsonl" {
		sinks = append(sinks, bufio.NewWriter(stdout))
	}
	var sum scoring.Summarizer // the summary's running sums, no rows
	if done != nil {
		sum = done.sum // the rows the file already holds count in its summary
	}
	var recs []parsers.Prediction
	var buf []byte
	seen := 0
	flush := func() error {
		instances := buildInstances(recs, goldSet, sem, o.instanceList)
		results, _ := batch.Run(instances)
		base += len(instances)
		for i := range results {
			buf = scoring.AppendResultJSON(buf[:0], &results[i], sem)
			buf = append(buf, '\n')
			for _, w := range sinks {
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
			sum.Add(&results[i])
		}
		recs = recs[:0]
		if done != nil {
			// Each chunk reaches the file as it is scored: a run killed
			// now leaves rows the next --resume keeps.
			return sinks[0].Flush()
		}
		return nil
	}
	err = eachPrediction(o, c, sl, stderr, func(r parsers.Prediction) error {
		seen++
		if done.skip(r.Pred.InstanceID) {
			return nil
		}
		recs = append(recs, r)
		if len(recs) == streamChunk {
			return flush()
		}
		return nil
	})
	if err == nil {
		err = flush()
	}
	log.finish()
	for _, w := range sinks {
		err = errors.Join(err, w.Flush())
	}
	if err != nil {
		return err
	}
	if out != nil {
		if err := out.Commit(); err != nil {
			return fmt.Errorf("--out %s: %w", safe(o.out), err)
		}
		if c.shardN > 1 && o.out != "-" {
			rec := report.ShardRecord{K: c.shardK, N: c.shardN, Pred: o.pred, Gold: o.gold, Instances: sl.total,
				Unit: sl.unit, From: sl.from, To: sl.to, Records: base}
			if err := report.WriteShardRecord(o.out, rec); err != nil {
				return fmt.Errorf("--out %s: %w", safe(o.out), err)
			}
		}
	}
	if seen == 0 {
		warnNoRecords(stderr, o.pred)
	}
	summarize(stderr, sum.Aggregate(), o.out)
	return nil
}

// warnNoRecords says why nothing was scored: upstream scores an empty file
// as 0/0.
func warnNoRecords(stderr io.Writer, pred string) {
	fmt.Fprintf(stderr, "trajscope: warning: %s: no prediction records (expected unified records with an instance_id, or a trajectory)\n", safe(pred))
}

// summarize ends a score as the reference evaluator does: the aggregate on
// stderr, and where the results went.
func summarize(stderr io.Writer, agg scoring.Aggregate, out string) {
	scoring.WriteSummary(stderr, agg)
	if out != "" {
		fmt.Fprintf(stderr, "\nResults written to %s\n", safe(out))
	}
}
