// Package memtest holds the memory tests of the binary: score, view and
// view --json held to 3 × the input + 150 MB up to the input bounds
// (model/limits.go), and refusing past them. Each runs the built binary
// under a memory cap (testkit.RunCapped), measuring its peak as the kernel
// reports it; they are slow, so they live apart from the packages' tests.
package memtest
