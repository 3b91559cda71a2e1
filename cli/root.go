// Package cli defines trajscope's commands. main.go only calls Execute; each
// command wires parsers, sources, scoring and the explorer together.
package cli

import (
	"errors"
	"fmt"
	"github.com/trajscope/trajscope/inputfile"
	"io"
	"io/fs"
	"os"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// Exit codes, as documented in the README: scripts tell a bad call from a
// failed run.
const (
	exitOK      = 0
	exitRuntime = 1
	exitUsage   = 2
)

// usageError marks errors in how the command was called (exit 2).
type usageError struct{ error }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

// Env is what the commands get from the process: streams and the embedded
// demo task.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Demo holds the demo task (repo/, gold.json, the trajectory).
	Demo fs.FS
}

// Execute runs the command line and returns the process exit code.
func Execute(args []string, env Env) (code int) {
	stdin, stdout, stderr := env.Stdin, env.Stdout, env.Stderr
	defer func() {
		// The last line of defence (never a stack trace): a bug
		// reached by some input is one line and exit 1, not a crash.
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "trajscope: internal error: %s (a bug: please report it with the input)\n", termsafe.Line(fmt.Sprint(p)))
			code = exitRuntime
		}
	}()
	if stdin != nil {
		defer inputfile.UseStdin(stdin)() // --pred - reads the command's input
	}
	root := newRoot(&env)
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ec exitCode
	if errors.As(err, &ec) {
		return int(ec) // said already, or nothing to say (grep: no match)
	}
	printError(stderr, "", err)
	var ue usageError
	if errors.As(err, &ue) || isCobraUsage(err) {
		return exitUsage
	}
	return exitRuntime
}

// isCobraUsage recognises cobra's own flag and argument errors.
func isCobraUsage(err error) bool {
	var fe flagError
	return errors.As(err, &fe)
}

type flagError struct{ error }

func newRoot(env *Env) *cobra.Command {
	stdout, stderr := env.Stdout, env.Stderr
	root := &cobra.Command{
		Use:   "trajscope",
		Short: "See how a coding agent searched a repository",
		Long: `trajscope scores a coding agent's run against the gold context of its task,
reproducing the ContextBench evaluator exactly, and lets you step through the
run in the terminal. With no arguments it opens the embedded demo.`,
		Example: `  trajscope                                   # the embedded demo
  trajscope view run.traj.json --gold gold.parquet --cache ./repos
  trajscope score --gold gold.parquet --pred preds.jsonl --cache ./repos --out results.jsonl
  trajscope report results.jsonl --format md`,
		Version:       version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return fmt.Errorf("unknown command %q", args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDemo(cmd, env)
		},
	}
	root.SetVersionTemplate("trajscope {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return flagError{fmt.Errorf("%w (see '%s --help')", err, c.CommandPath())}
	})
	root.AddCommand(newScoreCmd(stdout, stderr))
	root.AddCommand(newViewCmd(env))
	root.AddCommand(newWatchCmd(env))
	root.AddCommand(newConvertCmd(env))
	root.AddCommand(newReportCmd(env))
	root.AddCommand(newCacheCmd(env))
	root.AddCommand(newExportCmd(env))
	root.AddCommand(newCompareCmd(env))
	root.AddCommand(newGrepCmd(env))
	for _, c := range append(root.Commands(), root) {
		usageArgs(c)
	}
	completeFlags(root)
	return root
}

// usageArgs makes a command's argument-count errors usage errors (exit 2),
// like its flag errors: a missing or extra argument is a bad call, not a
// failed run.
func usageArgs(c *cobra.Command) {
	if v := c.Args; v != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := v(cmd, args); err != nil {
				var ue usageError
				if errors.As(err, &ue) {
					return err
				}
				return usageError{fmt.Errorf("%w (see '%s --help')", err, cmd.CommandPath())}
			}
			return nil
		}
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}
