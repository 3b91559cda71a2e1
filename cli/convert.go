package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

type convertOptions struct {
	out, lens          string
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
that showed lines of a file. With --repo or --cache (and --gold, for each task's commit) views
are read against the repository: paths become repository files, whole-file,
head and tail views the file's lines, ranges are clipped to the file. Without
a repository a step keeps only lines the command or its numbered output pins
down (sed -n 'a,bp', a view range, nl -ba, cat -n, editor views, SWE-agent
windows, grep -n), unclipped; a whole-file, tail or to-the-end view without
line numbers names its file only. The final context stays the run's own, or
is the union of the steps when the run has none. Unified records have no
timeline: the line spans of their declared steps stand in.`,
		Example: `  trajscope convert runs/ -o preds.jsonl         # every run under runs/
  trajscope convert a.traj b.traj.json output.jsonl > preds.jsonl
  trajscope convert runs/ --lens observed --gold gold.parquet --cache ./repos -o observed.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(&o, args)
		},
	}
	f := cmd.Flags()
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
	opts := parsers.ConvertOptions{Recursive: o.recursive, Lens: lens}
	if o.repo != "" || o.cache != "" {
		obs, done, err := o.observer()
		if err != nil {
			return err
		}
		defer done()
		opts.Observe = obs
	}
	w := o.stdout
	f, err := createOut("-o", o.out, o.stdout, paths...)
	if err != nil {
		return err
	}
	defer f.Abort()
	if f != nil {
		w = f
	}
	var red *redact.Redactor
	if o.redact {
		// Records are redacted as text: markers hold no JSON syntax, and a
		// home path keeps its depth, so the records score as before.
		red = &redact.Redactor{}
		rw := red.Writer(w)
		defer rw.Close()
		w = rw
	}
	bw := bufio.NewWriter(w)
	n, errs := parsers.Convert(paths, opts, bw)
	if err := bw.Flush(); err != nil {
		return err
	}
	if red != nil {
		fmt.Fprintf(o.stderr, "trajscope: %s\n", red.Summary())
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

// observer reads each run's observed lens against its checkout; done
// releases the checkouts.
func (o *convertOptions) observer() (func(*model.Run) (model.Prediction, error), func(), error) {
	var set *gold.Set
	if o.gold != "" {
		var err error
		if set, err = gold.Load(o.gold); err != nil {
			return nil, nil, err
		}
	}
	facts := openFacts(false, o.stderr)
	co := source.NewCheckouts(source.CheckoutOptions{
		Cache: o.cache, Repo: o.repo, NoClone: o.noClone, Progress: progressTo(o.stderr), Facts: facts.source(),
	})
	rf := &scoring.RunFiles{Checkouts: co, Cache: facts.scoring()}
	if set != nil {
		rf.Gold = func(id string) *model.Gold {
			g, _ := set.Lookup(id, model.ContextBench)
			return g
		}
	}
	observe := func(run *model.Run) (model.Prediction, error) {
		files, err := rf.Files(run)
		if err != nil {
			return model.Prediction{}, err
		}
		return observed.Prediction(run, files), nil
	}
	return observe, func() { rf.Close(); facts.close() }, nil
}
