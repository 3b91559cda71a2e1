package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// safe neutralises untrusted text for one line of terminal output.
func safe(s string) string { return termsafe.Line(s) }

// printError writes err to w as "trajscope: PREFIXline" lines, one per line
// of the message (errors.Join gives several), each made inert: messages quote
// input such as ids, paths and JSON snippets.
func printError(w io.Writer, prefix string, err error) {
	for _, line := range strings.Split(err.Error(), "\n") {
		fmt.Fprintf(w, "trajscope: %s%s\n", prefix, safe(line))
	}
}
