package openhands

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, LoadDir)

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
