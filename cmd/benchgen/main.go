// Command benchgen writes benchmark inputs to disk, for measuring the built
// binary (BENCHMARKS.md). Nothing it writes belongs in the repository.
//
//	benchgen task    -out DIR [-actions N -gold G -lines L -other O]
//	    a generated task: DIR/repo/, DIR/gold.json and DIR/<id>.traj.json
//	benchgen claude  -out DIR [-actions N -subagents K]
//	    a Claude Code session over a generated repository: DIR/repo/ (as
//	    it was before the session), DIR/bench.jsonl (the session's id is
//	    its name, as Claude Code names them) and
//	    DIR/bench/subagents/agent-*.jsonl, for following (view --follow)
//	benchgen bigrepo -out DIR [-commits N -files F -depth D]
//	    a git repository whose single pack holds hundreds of thousands of
//	    objects (deep trees, delta chains), so opening a large repository
//	    can be measured without the network
//	benchgen realset -gold PARQUET -pred PREDS -cache DIR -out DIR
//	    predictions over real repositories: the real runs of PREDS whose
//	    repository is in the cache, plus runs derived from the gold rows of
//	    the other cached repositories
//
// A first argument that is a flag means "task", as before subcommands.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trajscope/trajscope/testkit/benchgen"
)

func main() {
	args := os.Args[1:]
	cmd := "task"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	var err error
	switch cmd {
	case "task":
		err = task(args)
	case "claude":
		err = claude(args)
	case "bigrepo":
		err = bigRepo(args)
	case "realset":
		err = realSet(args)
	default:
		err = fmt.Errorf("unknown command %q (want task, claude, bigrepo or realset)", cmd)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchgen:", err)
		os.Exit(1)
	}
}

func task(args []string) error {
	fl := flag.NewFlagSet("task", flag.ExitOnError)
	var o benchgen.Options
	out := fl.String("out", "", "output directory (required)")
	fl.IntVar(&o.Actions, "actions", 10000, "agent actions")
	fl.IntVar(&o.GoldFiles, "gold", 5, "files with gold spans")
	fl.IntVar(&o.Lines, "lines", 2000, "lines per file")
	fl.IntVar(&o.OtherFiles, "other", 3, "repository files without gold")
	_ = fl.Parse(args)
	if *out == "" {
		return fmt.Errorf("-out is required")
	}
	t := benchgen.New(o)
	write := func(p string, b []byte) error {
		p = filepath.Join(*out, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	}
	for p, c := range t.Files {
		if err := write(filepath.Join("repo", filepath.FromSlash(p)), []byte(c)); err != nil {
			return err
		}
	}
	if err := write("gold.json", t.GoldJSON()); err != nil {
		return err
	}
	if err := write(t.ID+".traj.json", t.Traj); err != nil {
		return err
	}
	fmt.Println(filepath.Join(*out, t.ID+".traj.json"))
	return nil
}

func claude(args []string) error {
	fl := flag.NewFlagSet("claude", flag.ExitOnError)
	out := fl.String("out", "", "output directory (required)")
	actions := fl.Int("actions", 10000, "tool calls of every agent")
	subagents := fl.Int("subagents", 8, "sub-agents the lead starts")
	_ = fl.Parse(args)
	if *out == "" {
		return fmt.Errorf("-out is required")
	}
	t := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 4, OtherFiles: 20, Lines: 2000})
	write := func(p string, b []byte) error {
		p = filepath.Join(*out, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, b, 0o644)
	}
	for p, c := range t.Files { // before the session edits them
		if err := write(filepath.Join("repo", filepath.FromSlash(p)), []byte(c)); err != nil {
			return err
		}
	}
	lead, subs := t.ClaudeSession(*actions, *subagents)
	if err := benchgen.WriteSubagents(filepath.Join(*out, "bench.jsonl"), subs); err != nil {
		return err
	}
	return write("bench.jsonl", lead)
}
