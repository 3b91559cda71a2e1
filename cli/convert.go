package cli

import (
	"bufio"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/parsers"
)

func newConvertCmd(env *Env) *cobra.Command {
	var out string
	var recursive bool
	cmd := &cobra.Command{
		Use:   "convert RUN... -o preds.jsonl",
		Short: "Convert trajectories of any supported format to ContextBench unified predictions",
		Long: `convert reads trajectory files and directories (recursively with -r) and writes
one unified prediction record per run, in input order, exactly as the upstream
converter would (the records score the same as the trajectories themselves).
Files no format claims are skipped inside directories; a bad run is reported
on stderr and the others are still written.`,
		Example: `  trajscope convert runs/ -o preds.jsonl         # every run under runs/
  trajscope convert a.traj b.traj.json output.jsonl > preds.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runConvert(args, out, recursive, env.Stdout, env.Stderr)
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "write records to this file (default stdout)")
	cmd.Flags().BoolVarP(&recursive, "recursive", "r", true, "descend into subdirectories")
	return cmd
}

func runConvert(paths []string, out string, recursive bool, stdout, stderr io.Writer) error {
	w := stdout
	f, err := createOut("-o", out, paths...)
	if err != nil {
		return err
	}
	defer f.Abort()
	if f != nil {
		w = f
	}
	bw := bufio.NewWriter(w)
	n, errs := parsers.Convert(paths, recursive, bw)
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
		fmt.Fprintf(stderr, "trajscope: %s%s\n", prefix, safe(e.Error()))
	}
	fmt.Fprintf(stderr, "%d records written\n", n)
	if n == 0 && failed > 0 {
		return fmt.Errorf("nothing converted")
	}
	if f != nil {
		return f.Commit()
	}
	return nil
}
