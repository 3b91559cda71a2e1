package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/runset"
)

type convertOptions struct {
	out, lens, to      string
	gold, repo, cache  string
	recursive, noClone bool
	redact             bool
	stdout, stderr     io.Writer
}

func newConvertCmd(env *Env) *cobra.Command {
	o := convertOptions{stdout: env.Stdout, stderr: env.Stderr}
	cmd := &cobra.Command{
		Use:   "convert RUN... -o preds.jsonl [--lens observed [--gold G] [--repo DIR | --cache DIR]]",
		Short: "Convert trajectories of any supported format to ContextBench unified predictions",
		Long: `convert reads trajectory files and directories (recursively with -r) and writes
one unified prediction record per run, in input order, exactly as the upstream
converter would (the records score the same as the trajectories themselves).
Files no format claims are skipped inside directories; a bad run is reported
on stderr and the others are still written.

--lens observed writes as steps what each action displayed instead, in every
format (upstream counts what agents declare, and reads no steps from
mini-swe-agent v2 runs or SWE-agent open/goto windows): one step per action
that showed lines of a file, exactly the steps view counts. With --repo or
--cache (and --gold, for each task's commit and id) views are read against
the repository: paths become repository files, whole-file, head and tail
views the file's lines, ranges are clipped to the file. Without a
repository (or when a run's cannot be opened, which is warned about) views
are read, as view reads them, against what the run displayed: a file's
lines are those its outputs showed, a view past them shows nothing. The
final context stays the run's own, or is the union of the steps when the
run has none. Unified records have no timeline: the line spans of their
declared steps stand in.

--to retrieval-events writes, for each run, DIR/TASK.retrieval_events.json
in CodeScaleBench's normalized schema (version 1.0): provenance, coverage,
ground truth (files, and line spans as chunks), one event per tool call
that read, searched or wrote files (its files, the lines it showed, local
or MCP, whether it hit the gold, when and after how many tokens) and the
summary. view and score read the documents back as runs.`,
		Example: `  trajscope convert runs/ -o preds.jsonl         # every run under runs/
  trajscope convert runs/ --to retrieval-events --gold gold.parquet --cache ./repos -o events/
  trajscope convert a.traj b.traj.json output.jsonl > preds.jsonl
  trajscope convert runs/ --lens observed --gold gold.parquet --cache ./repos -o observed.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.to == "retrieval-events" {
				return runRetrievalEvents(env, &o, args)
			}
			if o.to != "unified" {
				return usagef("unknown --to %q (want unified or retrieval-events)", safe(o.to))
			}
			return runConvert(&o, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.to, "to", "unified", "what to write: unified (ContextBench prediction records) or retrieval-events (one CodeScaleBench retrieval-events document per run, into -o DIR)")
	f.StringVarP(&o.out, "out", "o", "", "write records to this file (default stdout)")
	f.BoolVarP(&o.recursive, "recursive", "r", true, "descend into subdirectories")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in the records (they score the same)")
	f.StringVar(&o.lens, "lens", "contextbench", "steps to write: contextbench (the evaluator's) or observed (what each action displayed)")
	f.StringVar(&o.gold, "gold", "", "with --lens observed: gold context naming each task's repository and commit")
	f.StringVar(&o.repo, "repo", "", "with --lens observed: read views against this repository (git: at each task's commit) or directory")
	f.StringVar(&o.cache, "cache", "", "with --lens observed: repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	return cmd
}

func runConvert(o *convertOptions, paths []string) error {
	lens, err := model.ParseLens(o.lens)
	switch {
	case err != nil:
		return usageError{err}
	case o.repo != "" && o.cache != "":
		return usagef("--repo and --cache are alternatives; pass one")
	case lens != model.LensObserved && (o.gold != "" || o.repo != "" || o.cache != ""):
		return usagef("--gold, --repo and --cache serve --lens observed only")
	}
	limitMemory(append(paths, o.gold)...)
	var red *redact.Redactor
	if o.redact {
		// Records are redacted as text (markers hold no JSON syntax, and a
		// home path keeps its depth, so the records score as before), and
		// so is what is said of them.
		red = &redact.Redactor{}
		ew := red.Writer(o.stderr)
		defer ew.Close()
		defer func() { fmt.Fprintf(ew, "trajscope: %s\n", red.Summary()) }()
		o.stderr = ew
	}
	ob, done, err := o.observer()
	var re *runset.RepoError
	if errors.As(err, &re) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	defer done()
	opts := parsers.ConvertOptions{Recursive: o.recursive, Lens: lens, Timelines: ob}
	w := o.stdout
	f, err := createOut("-o", o.out, o.stdout, paths...)
	if err != nil {
		return err
	}
	defer f.Abort()
	if f != nil {
		w = f
	}
	if red != nil {
		rw := red.JSONWriter(w)
		defer rw.Close()
		w = rw
	}
	bw := bufio.NewWriter(w)
	n, errs := parsers.Convert(paths, opts, bw)
	if err := bw.Flush(); err != nil {
		return err
	}
	failed := 0
	for _, e := range errs {
		prefix := ""
		if _, warn := e.(parsers.Warning); warn {
			prefix = "warning: "
		} else {
			failed++
		}
		fmt.Fprintf(o.stderr, "trajscope: %s%s\n", prefix, safe(e.Error()))
	}
	fmt.Fprintf(o.stderr, "%d records written\n", n)
	if n == 0 && failed > 0 {
		return fmt.Errorf("nothing converted")
	}
	if f != nil {
		return f.Commit()
	}
	return nil
}

// observer reads each run as view does (runset.Observer): its observed
// lens, and the actions its steps came from; done releases the checkouts.
func (o *convertOptions) observer() (*runset.Observer, func(), error) {
	facts := openFacts(o.repo == "" && o.cache == "", o.stderr)
	src := runset.Sources{Gold: o.gold, Repo: o.repo, Cache: o.cache, NoClone: o.noClone, Progress: progressTo(o.stderr),
		Facts: facts.scoring(), Sem: model.ContextBench}
	opts, err := src.Options()
	if err != nil {
		facts.close()
		return nil, nil, err
	}
	ob := runset.NewObserver(opts)
	ob.Warn = func(run *model.Run, why string) {
		fmt.Fprintf(o.stderr, "trajscope: warning: %s: %s: no repository (%s): steps from the lines the run displayed\n",
			safe(run.Path), safe(run.InstanceID), safe(why))
	}
	return ob, func() {
		ob.Close()
		facts.close()
	}, nil
}
