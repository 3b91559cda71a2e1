package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/internal/atomicfile"
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

// progressTo is where clone and fetch progress goes: the terminal, if any.
func progressTo(stderr io.Writer) io.Writer {
	if isTerminal(stderr) {
		return stderr
	}
	return nil
}

// createOut opens the output file a flag names, refusing one of the inputs
// (it would be destroyed) and creating it now, so an unwritable path fails
// before any work; a regular file is renamed into place only on Commit
// (see atomicfile.Create). "-" is stdout. An empty path gives a nil file,
// whose Abort is a no-op.
func createOut(flag, path string, stdout io.Writer, inputs ...string) (*atomicfile.File, error) {
	switch path {
	case "":
		return nil, nil
	case "-":
		return atomicfile.Writer(stdout), nil
	}
	if input, same := atomicfile.SameFile(path, inputs...); same {
		return nil, usagef("%s %s names the input %s: it would be overwritten", flag, safe(path), safe(input))
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return f, nil
}
