package cli

import (
	"github.com/spf13/cobra"
	"github.com/trajscope/trajscope/scoring"
)

// runDemo opens the embedded demo task: the explorer on a terminal, the
// plain summary otherwise. It is `trajscope view` without a RUN and with
// the default flags.
func runDemo(cmd *cobra.Command, env *Env) error {
	o := viewOptions{runFlags: runFlags{lens: "contextbench", theme: "auto", semantics: "contextbench", parseTimeout: scoring.DefaultParseTimeout}}
	return runViewDemo(env, &o)
}
