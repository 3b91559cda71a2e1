package cli

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/scoring"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/report/charts"
)

type reportOptions struct {
	format, lens, group, by, gold, plot string
	resolved                            string
	perInstance, compare, missed        bool
	skipInfra                           bool
	seed                                uint64
	top                                 int
}

func newReportCmd(env *Env) *cobra.Command {
	var o reportOptions
	cmd := &cobra.Command{
		Use:   "report RESULTS... [--format md|csv|json] [--per-instance] [--compare] [--by language|source] [--missed] [--plot DIR]",
		Short: "Tables across scoring results: one row per run, every aggregate labelled",
		Long: `report reads result files and prints one table row per file (per run):
file/symbol/span/line recall, precision and F1 under the macro (leaderboard)
and micro (evaluator) definitions, AUC-coverage, redundancy, EditLoc, usage
drop, and, for results written by 'trajscope score --format json', the gold
diagnosis, CodeScaleBench's file-ranking metrics and, when the runs record
them, cost and tokens against coverage with the Pareto front marked.

RESULTS are upstream --out JSONL files or 'score --format json' documents.
Name a run with LABEL=PATH; otherwise the file name is its label.

--compare compares the last two RESULTS, A then B, on the instances both
scored: per metric the mean of B − A, its percentile bootstrap 95 % interval
(10,000 resamples of the pairs, seeded by --seed) and a paired sign-flip
permutation test's p-value. --by adds the summary per run × language or
benchmark split; --missed the gold most runs missed, with its diagnoses.

--format csv prints one table, the most specific asked for: --compare (per
instance with --per-instance), else --per-instance, else --missed, else --by,
else the per-run summary with its cost columns. md and json carry every table.`,
		Example: `  trajscope report claude=a.json gpt=b.json
  trajscope report a.json b.json --compare --seed 7
  trajscope report runs/*.jsonl --by language --gold contextbench_verified_test.parquet
  trajscope report a.json b.json c.json --missed --top 10 --plot charts/`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("report needs at least one results file")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(&o, args, env)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "md", "output: md (markdown), csv, json, or leaderboard (the ContextBench leaderboard's entry per run)")
	f.StringVar(&o.resolved, "resolved", "", "a SWE-bench harness report or Multi-SWE-bench final report (resolved_ids): pass@1 in the leaderboard entry; in md, csv and json, the downstream impact of retrieval on resolution")
	f.BoolVar(&o.perInstance, "per-instance", false, "add a per-instance table")
	f.BoolVar(&o.compare, "compare", false, "compare the last two RESULTS (A B): matched-instance deltas B − A with intervals and p-values")
	f.Uint64Var(&o.seed, "seed", report.DefaultSeed, "seed of --compare's bootstrap and permutation test (same seed, same figures)")
	f.StringVar(&o.group, "group", "file", "one row per results file, or per agent/model named in 'score --format json' results (model)")
	f.StringVar(&o.lens, "lens", "contextbench", "lens of the run-derived metrics (diagnosis, union drop, IR): contextbench or observed")
	f.StringVar(&o.by, "by", "", "add the summary per run × group: language, or source (the benchmark split: Verified, Pro, Poly, Multi)")
	f.StringVar(&o.gold, "gold", "", "with --by: gold file (JSONL, JSON or parquet) naming each task's language and split, joined by instance id, for results that lack them (upstream JSONL)")
	f.BoolVar(&o.missed, "missed", false, "add the gold spans and files most runs missed, with diagnosis counts (needs 'score --format json' results)")
	f.BoolVar(&o.skipInfra, "skip-infra", false, "leave out rows that failed for want of the repository (checkout_failed), an infrastructure failure; the output says how many")
	f.IntVar(&o.top, "top", report.DefaultTop, "how many gold spans and files --missed lists (0: all)")
	f.StringVar(&o.plot, "plot", "", "write SVG charts into DIR: "+charts.CoverageByStep+" and, when runs record cost or tokens, "+charts.CostVsCoverage)
	return cmd
}

func runReport(o *reportOptions, args []string, env *Env) error {
	if o.group != "file" && o.group != "model" {
		return usagef("unknown --group %q (want file or model)", o.group)
	}
	switch o.format {
	case "md", "markdown", "csv", "json":
	case "leaderboard":
		return runLeaderboard(o, args, env)
	default:
		return usagef("unknown --format %q (want md, csv, json or leaderboard)", o.format)
	}
	if _, err := model.ParseLens(o.lens); err != nil {
		return usageError{err}
	}

	if o.compare && len(args) < 2 {
		return usagef("--compare needs two result files, A and B (got %d)", len(args))
	}
	if o.by != "" {
		if _, err := report.ParseBy(o.by); err != nil {
			return usageError{err}
		}
	} else if o.gold != "" {
		return usagef("--gold names the groups of --by; give --by language or --by source")
	}
	if o.top < 0 {
		return usagef("--top must be 0 (all) or more, got %d", o.top)
	}
	opts := report.Options{Lens: o.lens, PerInstance: o.perInstance, Seed: o.seed, By: o.by, Missed: o.missed, Top: o.top,
		Compare: o.compare, ByModel: o.group == "model", SkipInfra: o.skipInfra}
	if o.resolved != "" {
		f, err := inputfile.Open(o.resolved)
		if err != nil {
			return err
		}
		resolved, err := report.ReadResolved(safe(o.resolved), f, nil)
		f.Close()
		if err != nil {
			return err
		}
		opts.Resolved, opts.Harness = resolved, o.resolved
		if resolved == nil {
			opts.Resolved = map[string]bool{} // a report that resolved nothing
		}
	}
	if o.gold != "" {
		gs, err := gold.Load(o.gold)
		if err != nil {
			return err
		}
		opts.Tasks = func(id string) (report.TaskInfo, bool) {
			g, ok := gs.Lookup(id, model.ContextBench)
			if !ok {
				return report.TaskInfo{}, false
			}
			return report.TaskInfo{Language: g.Language, Source: g.Source}, true
		}
	}
	shards, err := report.ReadShardRecords(args)
	if err != nil {
		return err
	}
	for _, w := range report.CheckShards(shards) {
		fmt.Fprintln(env.Stderr, "trajscope: warning: "+w)
	}
	var joined map[string]string
	if len(shards) > 0 {
		// Each input's shards are one run of the report.
		dir, err := os.MkdirTemp("", "trajscope-shards-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		if args, joined, err = report.JoinShards(args, shards, dir); err != nil {
			return err
		}
	}
	rep, err := report.BuildFiles(args, opts)
	if err != nil {
		return err
	}
	rep.Rename(joined) // a joined input is named by its shards' files
	return writeReport(env, o, rep)
}

// writeReport writes a built report in o's format, and its plots.
func writeReport(env *Env, o *reportOptions, rep *report.Report) error {
	w := bufio.NewWriter(env.Stdout)
	var err error
	switch o.format {
	case "csv":
		err = rep.WriteCSV(w)
	case "json":
		err = rep.WriteJSON(w)
	default:
		err = rep.WriteMarkdown(w)
	}
	if err = errors.Join(err, w.Flush()); err != nil || o.plot == "" {
		return err
	}
	_, err = charts.Write(rep, o.plot, func(msg string) { fmt.Fprintf(env.Stderr, "trajscope: %s\n", msg) })
	return err
}

// runLeaderboard writes each results file's leaderboard entry.
func runLeaderboard(o *reportOptions, args []string, env *Env) error {
	// The results first, then the harness report, of which only the ids
	// the results name are kept.
	var entries []report.LeaderboardEntry
	var ids [][]string
	wanted := map[string]bool{}
	add := func(r *report.ResultFile) {
		// Said for every entry: a leaderboard line has no room for it.
		if o.skipInfra {
			r.LeaveOutInfra()
			if r.LeftOut > 0 {
				fmt.Fprintf(env.Stderr, "trajscope: %s: left out %s that failed for want of the repository (--skip-infra)\n", safe(r.Label), display.Count(r.LeftOut, "row"))
			}
		} else if n := report.CountError(r, scoring.ErrCheckoutFailed); n > 0 {
			fmt.Fprintf(env.Stderr, "trajscope: warning: %s: %d of %d rows failed for want of the repository (checkout_failed) and count as 0; --skip-infra leaves them out\n", safe(r.Label), n, len(r.Instances))
		}
		entries = append(entries, report.Leaderboard(r, nil))
		run := make([]string, len(r.Instances))
		for i := range r.Instances {
			run[i] = r.Instances[i].Result.InstanceID
			wanted[run[i]] = true
		}
		ids = append(ids, run)
	}
	var byModel report.ByModel
	_, err := report.EachFile(args, func(r *report.ResultFile) error {
		if o.group == "model" {
			byModel.Add(r)
			return nil
		}
		if names, _ := report.ModelsOf(r); len(names) > 1 {
			fmt.Fprintf(env.Stderr, "trajscope: %s holds runs of %d models (%s): its entry is theirs together; --group model gives each its own\n",
				safe(r.Path), len(names), safe(strings.Join(names, ", ")))
		}
		add(r)
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range byModel.Files() {
		add(r)
	}
	if o.resolved != "" {
		f, err := inputfile.Open(o.resolved)
		if err != nil {
			return err
		}
		resolved, err := report.ReadResolved(safe(o.resolved), f, func(id string) bool { return wanted[id] })
		f.Close()
		if err != nil {
			return err
		}
		for i := range entries {
			entries[i].PassAt1(ids[i], resolved)
		}
	}
	w := bufio.NewWriter(env.Stdout)
	return errors.Join(report.WriteLeaderboard(w, entries), w.Flush())
}
