// Command trajscope scores and explores coding-agent trajectories against
// ContextBench gold context.
package main

import (
	"os"

	"github.com/trajscope/trajscope/cli"
	"github.com/trajscope/trajscope/demo"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Demo: demo.FS()}))
}
