package cli

import (
	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/themes"
)

// completeFlags makes shell completion offer the values of every flag that
// takes one of a fixed set, on every command that has it.
func completeFlags(root *cobra.Command) {
	fixed := map[string][]string{
		"theme":        themes.Names,
		"lens":         model.LensNames,
		"semantics":    model.SemanticsNames,
		"input-format": parsers.Formats(),
	}
	outputs := map[string][]string{
		"score":  {"jsonl", "json", "text", "csv"},
		"report": {"md", "csv", "json"},
	}
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		values := map[string][]string{"format": outputs[c.Name()]}
		for k, v := range fixed {
			values[k] = v
		}
		for name, vs := range values {
			if c.Flags().Lookup(name) == nil || len(vs) == 0 {
				continue
			}
			c.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(vs, cobra.ShellCompDirectiveNoFileComp))
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}
