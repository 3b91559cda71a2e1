package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/internal/filefacts"
	"github.com/trajscope/trajscope/model"
)

func newCacheCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "cache [clean]",
		Short: "Show or empty the cache of file facts kept between runs",
		Long: `score, view, compare and export keep facts about repository files between
runs: what each path names at a commit, and each file content's line offsets
and tree-sitter definitions. A second score or view of the same repositories
reads them instead of walking git trees and parsing. Results are the same
with or without it (--no-cache bypasses it).

The cache lives in trajscope under the user cache directory ($XDG_CACHE_HOME,
else ~/.cache, on Linux) and is kept under 1 GB by dropping the least
recently used entries. 'trajscope cache' prints where it is and its size;
'trajscope cache clean' empties it.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 || len(args) == 1 && args[0] != "clean" {
				return usagef("cache takes no argument or \"clean\"")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := filefacts.Dir()
			if err != nil {
				return err
			}
			if len(args) == 1 {
				size, _, _ := filefacts.Usage(dir)
				if err := filefacts.Clean(dir); err != nil {
					return fmt.Errorf("cache %s: %w", safe(dir), err)
				}
				fmt.Fprintf(env.Stdout, "removed %s from %s\n", humanBytes(size), safe(dir))
				return nil
			}
			size, n, err := filefacts.Usage(dir)
			if err != nil {
				return fmt.Errorf("cache %s: %w", safe(dir), err)
			}
			fmt.Fprintf(env.Stdout, "%s\n%s in %d entries (limit %s)\n", safe(dir), humanBytes(size), n, humanBytes(filefacts.DefaultLimit))
			return nil
		},
	}
	return cmd
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f kB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// facts is the persistent cache as score uses it; the zero value is none.
type facts struct{ s *filefacts.Store }

// openFacts opens the user's cache unless off. A cache that cannot be
// opened is reported and skipped: it only saves work.
func openFacts(off bool, stderr io.Writer) facts {
	if off {
		return facts{}
	}
	dir, err := filefacts.Dir()
	if err != nil {
		return facts{} // no home directory: nowhere to keep it
	}
	s, err := filefacts.Open(dir, 0)
	if err != nil {
		printError(stderr, "warning: ", fmt.Errorf("%w; scoring without it", err))
		return facts{}
	}
	return facts{s}
}

// source and scoring return the store as each package's interface, or a
// nil interface (not a typed nil) when there is none.
func (f facts) source() model.FactStore {
	if f.s == nil {
		return nil
	}
	return f.s
}

func (f facts) scoring() model.FactStore {
	if f.s == nil {
		return nil
	}
	return f.s
}

func (f facts) close() {
	if f.s != nil {
		f.s.Close()
	}
}
