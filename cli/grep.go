package cli

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/grep"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/runset"
)

// exitCode ends a command with a code and nothing printed: grep's "no
// match" is 1, as grep's and ripgrep's is.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func newGrepCmd(env *Env) *cobra.Command {
	var o grep.Options
	color := "auto"
	redact := false
	cmd := &cobra.Command{
		Use:   "grep PATTERN RUN...",
		Short: "Find text in the commands, outputs, thoughts and tasks of many runs",
		Long: `grep prints every line of an action's command, thought or output, and of a
run's task, that PATTERN (a Go regular expression, RE2) matches, as
"file:instance:action: line" ("file:instance:task: line"), ripgrep-like;
-l prints "file:instance" once per matching run. The file is where the run
was read ("page.json#2" for the second run of a file of several), so two
runs of one task by two models stay apart. RUN is a run file, a folder or
an archive (.tar.gz, .tgz, .tar, .zip) of them. Control characters in what
is printed are made visible, never passed to the terminal.

Exit status: 0 when something matched, 1 when nothing did, 2 on an error (a
file that could not be read is reported and the others still searched).`,
		Example: `  trajscope grep -i 'permission denied' runs/
  trajscope grep -l 'git stash' results.tar.gz
  trajscope grep 'def _weighted_mean' run.traj.json`,
		Args: cobra.MinimumNArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch color {
			case "always":
				o.Color = true
			case "never":
			case "auto":
				o.Color = isTerminal(env.Stdout)
			default:
				return usagef("--color %q: expected auto, always or never", color)
			}
			limitMemory(args[1:]...)
			m, err := grep.New(args[0], o)
			if err != nil {
				return usageError{err}
			}
			set, err := runset.New(args[1:], runset.Reading{Redact: redact})
			if err != nil {
				return err
			}
			defer sayRedaction(env, set)
			for _, w := range set.Warnings() {
				fmt.Fprintln(env.Stderr, "trajscope: "+safe(w))
			}
			w := bufio.NewWriter(env.Stdout)
			matched, failed := 0, false
			err = set.Each(func(label string, run *model.Run, err error) error {
				if err != nil {
					printError(env.Stderr, "", err)
					failed = true
					return nil
				}
				n, werr := m.Run(w, run, label)
				matched += n
				return werr
			})
			if err != nil {
				return err
			}
			if err := w.Flush(); err != nil {
				return err
			}
			if m.Cut > 0 {
				fmt.Fprintf(env.Stderr, "trajscope: warning: %d long lines searched only in their first part (the pattern's work on one line is bounded; a simpler pattern searches more of it)\n", m.Cut)
			}
			switch {
			case failed:
				return exitCode(2)
			case matched == 0:
				return exitCode(1)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVarP(&o.IgnoreCase, "ignore-case", "i", false, "match letters of either case")
	f.BoolVarP(&o.FilesOnly, "files-with-matches", "l", false, "print each matching run once, as file:instance")
	f.StringVar(&color, "color", "auto", "colour the output: auto (on a terminal), always or never")
	f.BoolVar(&redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in what is printed (searched as printed)")
	return cmd
}
