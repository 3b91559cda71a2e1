// Package promises holds the memory promises of the binary, measured: score,
// view and view --json held to 3 × the input + 150 MB up to the input bounds
// (model/limits.go), and refusing past them. Each runs the built binary
// under a memory cap (testkit.RunCapped) and logs the peak the kernel
// reports. They are slow and measure the machine as much as the code, so
// they are not part of `go test ./...`: scripts/promises runs them (build
// tag promises), and CI runs that as its own step.
package promises
