package sweagent

import (
	"os"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, nil)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
