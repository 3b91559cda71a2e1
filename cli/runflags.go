package cli

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/scoring/symbols"
)

// addRunFlags registers the flags that say how one run is loaded and scored,
// the same for view, export and compare: gold, repository, lens, semantics,
// format. instance says what --instance picks in this command.
func (o *viewOptions) addRunFlags(f *pflag.FlagSet, instance string) {
	f.StringVar(&o.gold, "gold", "", "gold context: parquet, JSONL, JSON, or a directory of annot.json files")
	f.StringVar(&o.repo, "repo", "", "the task's repository (git: read at the run's commit) or a checked-out directory")
	f.StringVar(&o.cache, "cache", "", "repository cache, upstream layout <cache>/github.com__<owner>__<repo>")
	f.BoolVar(&o.noClone, "no-clone", false, "never clone a repository missing from the cache")
	f.BoolVar(&o.noCache, "no-cache", false, "neither read nor write the cache of file facts kept between runs (see 'trajscope cache')")
	f.StringVar(&o.instance, "instance", "", instance)
	f.StringVar(&o.lens, "lens", "contextbench", "contextbench (the evaluator's steps) or observed (what each action displayed)")
	f.StringVar(&o.semantics, "semantics", "contextbench", "contextbench (upstream parity) or fixed")
	f.StringVar(&o.inputFormat, "input-format", "", inputFormatHelp("runs'"))
	f.DurationVar(&o.parseTimeout, "parse-timeout", symbols.DefaultTimeout, "give up parsing one file for symbols after this long (its symbols are then missing)")
}

// inputFormatHelp is --input-format's usage, naming every format it takes.
func inputFormatHelp(whose string) string {
	return "force the " + whose + " format instead of detecting it: " + strings.Join(parsers.Formats(), ", ")
}
