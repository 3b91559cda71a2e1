// Command trajscope scores and explores coding-agent trajectories against
// ContextBench gold context.
package main

import (
	"os"

	"github.com/trajscope/trajscope/cli"
	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/internal/quietinit"
)

func main() {
	quietinit.Restore()
	os.Exit(cli.Execute(os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Demo: demo.FS()}))
}
