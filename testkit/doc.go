// Package testkit holds what only tests use: small real git repositories
// (GitRepo), a time budget for every fuzz input (FuzzBudget), and the built
// binary run under a memory cap with its own peak measured (Binary,
// RunCapped). Generators of large inputs for benchmarks are in benchgen.
package testkit
