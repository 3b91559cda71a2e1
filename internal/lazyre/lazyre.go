// Package lazyre compiles a package's regular expressions on first use.
//
// A package-level regexp.MustCompile runs in every process before main:
// the parsers' hundred-odd patterns cost ~5 ms of start-up (2026-11-26) for `score`,
// `--version` and the explorer alike, though a run of one format uses the
// few of its own. New defers the compilation to the first call.
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call (panicking,
// as regexp.MustCompile does, if it is invalid) and returns the same
// *regexp.Regexp on every call.
func New(expr string) func() *regexp.Regexp {
	return Of(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// Of is New for a pattern compiled by compile. (The root package's
// TestEveryPatternCompiles compiles every pattern of the source.)
func Of(compile func() *regexp.Regexp) func() *regexp.Regexp {
	return sync.OnceValue(compile)
}
