package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/source"
)

type scoreOptions struct {
	gold, pred   string
	cache, repo  string
	out          string
	semantics    string
	format       string
	predFormat   string
	workers      int
	noClone      bool
	instanceList []string
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
corrects the upstream quirks that are bugs (see README) and adds per-instance F1.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runScore(&o, stdout, stderr)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.gold, "gold", "", "gold context: parquet, JSONL, JSON, or a directory of annot.json files")
	f.StringVar(&o.pred, "pred", "", "predictions: unified JSONL/JSON records or a trajectory file")
	f.StringVar(&o.cache, "cache", "./repos", "repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.StringVar(&o.repo, "repo", "", "read every instance's files from this repository (git: at the instance's commit) or directory")
	f.StringVar(&o.out, "out", "", "write per-instance results (upstream JSONL) to this file")
	f.StringVar(&o.semantics, "semantics", "contextbench", "contextbench (upstream parity) or fixed")
	f.StringVar(&o.format, "format", "", "stdout format: jsonl, json, text or csv (default jsonl, or none with --out)")
	f.StringVar(&o.predFormat, "pred-format", "", "force the predictions' format instead of detecting it")
	f.IntVar(&o.workers, "workers", 0, "instances scored in parallel (default: all cores)")
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	f.StringSliceVar(&o.instanceList, "instance", nil, "score only these instance ids")
	return cmd
}

func runScore(o *scoreOptions, stdout, stderr io.Writer) error {
	if o.gold == "" || o.pred == "" {
		return usagef("score needs --gold and --pred")
	}
	sem, err := model.ParseSemantics(o.semantics)
	if err != nil {
		return usageError{err}
	}
	format := o.format
	if format == "" && o.out == "" {
		format = "jsonl"
	}
	switch format {
	case "", "jsonl", "json", "text", "csv":
	default:
		return usagef("unknown --format %q (want jsonl, json, text or csv)", format)
	}

	goldSet, err := gold.Load(o.gold)
	if err != nil {
		return err
	}
	for _, p := range goldSet.Problems() {
		printError(stderr, "warning: ", p)
	}
	records, err := loadPredictions(o.pred, o.predFormat, format == "text" || format == "json", sem)
	if err != nil {
		return err
	}
	if len(records) == 0 {
		// Upstream scores an empty file as 0/0; say why nothing was scored.
		fmt.Fprintf(stderr, "trajscope: warning: %s: no prediction records (expected unified records with an instance_id, or a trajectory)\n", safe(o.pred))
	}
	instances := buildInstances(records, goldSet, sem, o.instanceList)

	op := newOpener(o, stderr)
	op.expect(instances)
	batch := scoring.Batch{
		Open:      op.open,
		Semantics: sem,
		Workers:   o.workers,
	}
	progress := isTerminal(stderr) && len(instances) > 1
	var done atomic.Int64
	var mu sync.Mutex
	batch.Done = func(i int, r *model.Result) {
		op.done(i)
		mu.Lock()
		defer mu.Unlock()
		if r.Error != "" && r.Reason != "" {
			if progress {
				fmt.Fprint(stderr, "\r\x1b[K")
			}
			// Unreadable records have no id; their reason names file and line.
			if r.InstanceID == "" {
				fmt.Fprintf(stderr, "trajscope: %s: %s\n", r.Error, safe(r.Reason))
			} else {
				fmt.Fprintf(stderr, "trajscope: %s: %s: %s\n", safe(r.InstanceID), r.Error, safe(r.Reason))
			}
		}
		if progress {
			fmt.Fprintf(stderr, "\r\x1b[Kscoring %d/%d", done.Add(1), len(instances))
		}
	}
	// Text and JSON explain each instance (diagnosis, usage drop, IR), which
	// needs the full analysis; the JSONL and --out paths stay upstream's.
	batch.Analyze = format == "text" || format == "json"
	results, analyses := batch.Run(instances)
	if progress {
		fmt.Fprint(stderr, "\r\x1b[K")
	}
	agg := scoring.Summarize(results)

	if o.out != "" {
		if err := writeJSONLFile(o.out, results, sem); err != nil {
			return err
		}
	}
	w := bufio.NewWriter(stdout)
	switch format {
	case "jsonl":
		writeJSONL(w, results, sem)
	case "json":
		writeJSONDoc(w, results, newExtras(analyses), &agg, sem)
	case "text":
		writeText(w, results, newExtras(analyses), &agg)
	case "csv":
		writeCSV(w, results)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	scoring.WriteSummary(stderr, agg)
	if o.out != "" {
		fmt.Fprintf(stderr, "\nResults written to %s\n", safe(o.out))
	}
	return nil
}

// predRecord is one prediction, or the error that replaced it.
type predRecord struct {
	Pred model.Prediction
	Err  error
	// Run is the run's timeline, when known.
	Run *model.Run
}

// buildInstances pairs predictions with gold, in prediction order, skipping
// records without an id as upstream does.
func buildInstances(records []predRecord, gs *gold.Set, sem model.Semantics, only []string) []scoring.Instance {
	want := map[string]bool{}
	for _, id := range only {
		want[id] = true
	}
	out := make([]scoring.Instance, 0, len(records))
	for i := range records {
		r := &records[i]
		id := r.Pred.InstanceID
		if id == "" && r.Err == nil {
			continue
		}
		if len(want) > 0 && !want[id] {
			continue
		}
		in := scoring.Instance{Pred: &r.Pred, Err: r.Err, Run: r.Run}
		if r.Err == nil {
			var g *model.Gold
			var ok bool
			if sem == model.Fixed {
				g, ok = gs.Match(id)
			} else {
				g, ok = gs.Get(id)
			}
			if ok {
				in.Gold = g
			}
		}
		out = append(out, in)
	}
	return out
}

// opener finds each instance's repository and shares one *scoring.Files per
// repository and commit, so instances of the same checkout share blob reads
// and parses.
type opener struct {
	o      *scoreOptions
	stderr io.Writer
	mu     sync.Mutex
	trees  map[string]*openResult
	// keys[i] is instance i's checkout; pending counts the instances still
	// to read each checkout (see expect).
	keys    []string
	pending map[string]int
}

type openResult struct {
	once  sync.Once
	files *scoring.Files
	err   error
}

func newOpener(o *scoreOptions, stderr io.Writer) *opener {
	return &opener{o: o, stderr: stderr, trees: map[string]*openResult{}}
}

// target is the checkout an instance reads: its cache key, and the
// repository and commit to open.
func (op *opener) target(pred *model.Prediction, g *model.Gold) (key, url, commit string, err error) {
	if op.o.repo != "" {
		commit = firstNonEmpty(pred.Commit, g.Commit)
		return op.o.repo + "\x00" + commit, op.o.repo, commit, nil
	}
	url, commit, err = source.ResolveRepo(pred.RepoURL, g.RepoURL, pred.Commit, g.Commit, pred.InstanceID, op.o.cache)
	return url + "\x00" + commit, url, commit, err
}

func (op *opener) open(pred *model.Prediction, g *model.Gold) (*scoring.Files, error) {
	key, url, commit, err := op.target(pred, g)
	if err != nil {
		return nil, err
	}
	if op.o.repo != "" {
		return op.cached(key, func() (source.Tree, error) { return source.Open(url, commit) })
	}
	return op.cached(key, func() (source.Tree, error) {
		if !op.o.noClone {
			var progress io.Writer
			if isTerminal(op.stderr) {
				progress = op.stderr
			}
			dir, err := source.EnsureCached(op.o.cache, url, progress)
			if err != nil {
				return nil, err
			}
			if err := source.FetchCommit(dir, commit, progress); err != nil {
				return nil, err
			}
		}
		return source.OpenCached(op.o.cache, url, commit)
	})
}

func (op *opener) cached(key string, open func() (source.Tree, error)) (*scoring.Files, error) {
	op.mu.Lock()
	r := op.trees[key]
	if r == nil {
		r = &openResult{}
		op.trees[key] = r
	}
	op.mu.Unlock()
	r.once.Do(func() {
		tree, err := open()
		if err != nil {
			r.err = err
			return
		}
		r.files = scoring.NewFiles(tree)
	})
	return r.files, r.err
}

// expect records which checkout each instance reads, so that done can drop
// a checkout's cached blobs and parses after its last instance: a whole
// benchmark spans hundreds of commits, and keeping them all would grow
// memory with the batch. Keys are taken now because resolution can change
// once a clone lands in the cache.
func (op *opener) expect(instances []scoring.Instance) {
	op.keys = make([]string, len(instances))
	op.pending = map[string]int{}
	for i, in := range instances {
		if in.Err != nil || in.Gold == nil {
			continue
		}
		if key, _, _, err := op.target(in.Pred, in.Gold); err == nil {
			op.keys[i] = key
			op.pending[key]++
		}
	}
}

// done releases instance i's checkout when no other instance still needs it.
func (op *opener) done(i int) {
	if i >= len(op.keys) || op.keys[i] == "" {
		return
	}
	key := op.keys[i]
	op.mu.Lock()
	defer op.mu.Unlock()
	if op.pending[key]--; op.pending[key] <= 0 {
		delete(op.pending, key)
		delete(op.trees, key)
	}
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func writeJSONLFile(path string, results []model.Result, sem model.Semantics) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	writeJSONL(w, results, sem)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func writeJSONL(w *bufio.Writer, results []model.Result, sem model.Semantics) {
	var buf []byte
	for i := range results {
		buf = scoring.AppendResultJSON(buf[:0], &results[i], sem)
		buf = append(buf, '\n')
		w.Write(buf)
	}
}

// newExtras computes trajscope's per-instance analysis (nil where the
// instance is an error row).
func newExtras(analyses []*scoring.Analysis) []*report.Extras {
	out := make([]*report.Extras, len(analyses))
	for i, a := range analyses {
		if a != nil {
			out[i] = report.NewExtras(a)
		}
	}
	return out
}

// scoredRun wraps this score run's results as a report run, so the text and
// JSON summaries use the same definitions as `trajscope report`.
func scoredRun(results []model.Result, extras []*report.Extras) *report.Run {
	run := &report.Run{Label: "score", Format: "json", Instances: make([]report.Instance, len(results))}
	for i := range results {
		run.Instances[i] = report.Instance{Result: results[i], Where: fmt.Sprintf("result %d", i+1)}
		if i < len(extras) {
			run.Instances[i].Extras = extras[i]
		}
	}
	return run
}

// writeJSONDoc writes {"results": [...], "aggregate": {...}, "summary": {...}}.
// Each result is the upstream row byte for byte, with trajscope's analysis
// added under a last "trajscope" key; "aggregate" is upstream's aggregate
// dict; "summary" holds the report rows (every aggregate definition) per lens.
func writeJSONDoc(w *bufio.Writer, results []model.Result, extras []*report.Extras, agg *scoring.Aggregate, sem model.Semantics) {
	var buf []byte
	buf = append(buf, `{"results": [`...)
	for i := range results {
		if i > 0 {
			buf = append(buf, ", "...)
		}
		buf = scoring.AppendResultJSON(buf, &results[i], sem)
		if i < len(extras) && extras[i] != nil {
			if b, err := json.Marshal(extras[i]); err == nil {
				buf = append(buf[:len(buf)-1], `, "trajscope": `...)
				buf = append(buf, report.EscapeJSONControls(b)...)
				buf = append(buf, '}')
			}
		}
	}
	buf = append(buf, `], "aggregate": `...)
	buf = scoring.AppendAggregateJSON(buf, agg)
	run := scoredRun(results, extras)
	summary := map[string]report.Row{}
	for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
		row := report.Summarize(run, l.String())
		row.Label, row.Path = "", ""
		summary[l.String()] = row
	}
	if b, err := json.Marshal(summary); err == nil {
		buf = append(buf, `, "summary": `...)
		buf = append(buf, report.EscapeJSONControls(b)...)
	}
	buf = append(buf, "}\n"...)
	w.Write(buf)
}

// maxListedSpans caps the gold spans listed per lens in text output; JSON
// lists them all.
const maxListedSpans = 100

func writeText(w *bufio.Writer, results []model.Result, extras []*report.Extras, agg *scoring.Aggregate) {
	for i := range results {
		r := &results[i]
		fmt.Fprintf(w, "%s\n", safe(r.InstanceID))
		if r.Error != "" {
			fmt.Fprintf(w, "  error: %s", r.Error)
			if r.Reason != "" {
				fmt.Fprintf(w, " (%s)", safe(r.Reason))
			}
			fmt.Fprintln(w)
			continue
		}
		fmt.Fprintf(w, "  %-7s %8s %9s %7s %8s %10s   %s\n", "", "coverage", "precision", "F1", "AUC", "redundancy", "inter/gold/pred")
		for _, g := range model.Granularities {
			m := r.Final.At(g)
			fmt.Fprintf(w, "  %-7s %8.3f %9.3f %7.3f %8.3f %10.3f   %d/%d/%d\n", g, m.Coverage, m.Precision,
				scoring.F1(m.Coverage, m.Precision), *r.Trajectory.AUCCoverage.At(g), *r.Trajectory.Redundancy.At(g),
				m.Intersection, m.GoldSize, m.PredSize)
		}
		fmt.Fprintf(w, "  steps %d", r.NumSteps)
		if e := r.EditLoc; e != nil {
			fmt.Fprintf(w, "   editloc recall %.3f precision %.3f (%d/%d/%d)", e.Recall, e.Precision, e.Intersection, e.GoldSize, e.PredSize)
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "  (F1 = 2·coverage·precision/(coverage+precision) of this instance)\n")
		d := diagnose.LastStepToFinal(r)
		fmt.Fprintf(w, "  usage drop, last step → final (from the result): file %.3f  symbol %.3f  span %.3f  line %.3f",
			d.File.Drop, d.Symbol.Drop, d.Span.Drop, d.Line.Drop)
		if d.Line.RecallDrop != nil {
			fmt.Fprintf(w, "   recall drop line %.3f", *d.Line.RecallDrop)
		}
		fmt.Fprintln(w)
		if i < len(extras) && extras[i] != nil {
			writeLensText(w, "contextbench", extras[i].Lenses.ContextBench)
			writeLensText(w, "observed", extras[i].Lenses.Observed)
		}
	}
	fmt.Fprintf(w, "\n%d/%d instances scored", agg.NumValid, agg.NumTotal)
	if len(agg.Errors) > 0 {
		keys := make([]string, 0, len(agg.Errors))
		for k := range agg.Errors {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			fmt.Fprintf(w, ", %s=%d", k, agg.Errors[k])
		}
	}
	fmt.Fprintln(w)
	if agg.NumTotal == 0 {
		return
	}
	row := report.Summarize(scoredRun(results, extras), model.LensContextBench.String())
	fmt.Fprintf(w, "\n  %-7s %8s %8s %8s %10s %8s %8s %10s %12s\n", "", "R macro", "P macro", "F1 mean", "F1(macro)", "R micro", "P micro", "F1(micro)", "drop (last)")
	for _, g := range model.Granularities {
		s := row.Final.At(g)
		fmt.Fprintf(w, "  %-7s %8.3f %8.3f %8.3f %10.3f %8.3f %8.3f %10.3f %12.3f\n", g, s.RecallMacro, s.PrecisionMacro, s.F1Mean, s.F1OfMacro,
			s.RecallMicro, s.PrecisionMicro, s.F1OfMicro, s.DropLastStep.Mean)
	}
	fmt.Fprintln(w, "  macro: mean over all instances, errors count 0; F1 mean: mean of per-instance F1 (the leaderboard's);")
	fmt.Fprintln(w, "  micro: Σ intersection / Σ size over valid instances (the evaluator's); F1(x): 2RP/(R+P) of those R and P;")
	fmt.Fprintln(w, "  drop (last): usage drop, last step → final, mean over all instances (errors count 1.0).")
	if row.UnionDrop != nil {
		fmt.Fprintf(w, "  usage drop, union of steps → final (lines, contextbench lens): mean %.3f over %d instances\n", row.UnionDrop.Mean, row.UnionDrop.N)
	}
}

// writeLensText prints one lens's diagnosis, union drop and file ranking.
func writeLensText(w *bufio.Writer, lens string, le *report.LensExtras) {
	if le == nil {
		return
	}
	u := le.UsageDropUnion
	fmt.Fprintf(w, "  lens %s: usage drop, union of steps → final (lines): %.3f (%d gold lines seen, %d in the final context)\n", lens, u.Drop, u.Seen, u.Kept)
	if d := le.Diagnosis; d != nil {
		fmt.Fprintf(w, "    gold files: %s\n", d.FileCounts.Summary())
		fmt.Fprintf(w, "    gold spans: %s\n", d.SpanCounts.Summary())
		width := 0
		for k := range d.Spans {
			if k == maxListedSpans {
				break
			}
			width = max(width, len(spanName(&d.Spans[k])))
		}
		for k := range d.Spans {
			if k == maxListedSpans {
				fmt.Fprintf(w, "      … %d more (--format json lists all)\n", len(d.Spans)-k)
				break
			}
			sp := &d.Spans[k]
			fmt.Fprintf(w, "      %-*s  %s\n", width, spanName(sp), sp.Describe())
		}
		for k := range d.Files {
			f := &d.Files[k]
			if len(d.ForFile(f.File)) == 0 {
				// A gold file with no gold lines is only diagnosed here.
				fmt.Fprintf(w, "      %-*s  %s\n", width, safe(f.File), f.Describe())
			}
		}
	}
	if m := le.IR; m != nil {
		if !m.Computable {
			fmt.Fprintf(w, "    file ranking: not computable (%s)\n", m.Reason)
			return
		}
		fmt.Fprintf(w, "    file ranking: MRR %.3f  MAP %.3f  nDCG@10 %.3f  P@1 %.3f  P@5 %.3f  R@5 %.3f  R@10 %.3f  file recall %.3f  efficiency %.3f",
			m.MRR, m.MAP, m.NDCG.At(10), m.Precision.At(1), m.Precision.At(5), m.Recall.At(5), m.Recall.At(10), m.FileRecall, m.ContextEfficiency)
		if m.TTFRStep != nil {
			fmt.Fprintf(w, "  first gold file at action %d", *m.TTFRStep+1)
		}
		fmt.Fprintln(w)
	}
}

// spanName is "file:start-end", safe for one terminal line.
func spanName(sp *diagnose.Span) string {
	return fmt.Sprintf("%s:%d-%d", safe(sp.File), sp.Start, sp.End)
}

func writeCSV(w *bufio.Writer, results []model.Result) {
	cols := []string{"instance_id", "error", "num_steps"}
	for _, g := range model.Granularities {
		cols = append(cols, g.String()+"_coverage", g.String()+"_precision", g.String()+"_f1", g.String()+"_intersection", g.String()+"_gold_size", g.String()+"_pred_size", g.String()+"_auc", g.String()+"_redundancy")
	}
	cols = append(cols, "editloc_recall", "editloc_precision", "editloc_intersection", "editloc_gold_size", "editloc_pred_size")
	fmt.Fprintln(w, strings.Join(cols, ","))
	for i := range results {
		r := &results[i]
		row := []string{csvField(r.InstanceID), r.Error, ""}
		if r.Error == "" {
			row[2] = fmt.Sprint(r.NumSteps)
			for _, g := range model.Granularities {
				m := r.Final.At(g)
				row = append(row, pyFloat(m.Coverage), pyFloat(m.Precision), pyFloat(scoring.F1(m.Coverage, m.Precision)),
					fmt.Sprint(m.Intersection), fmt.Sprint(m.GoldSize), fmt.Sprint(m.PredSize),
					pyFloat(*r.Trajectory.AUCCoverage.At(g)), pyFloat(*r.Trajectory.Redundancy.At(g)))
			}
			if e := r.EditLoc; e != nil {
				row = append(row, pyFloat(e.Recall), pyFloat(e.Precision), fmt.Sprint(e.Intersection), fmt.Sprint(e.GoldSize), fmt.Sprint(e.PredSize))
			} else {
				row = append(row, "", "", "", "", "")
			}
		}
		for len(row) < len(cols) {
			row = append(row, "")
		}
		fmt.Fprintln(w, strings.Join(row, ","))
	}
}
