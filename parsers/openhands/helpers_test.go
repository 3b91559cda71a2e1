package openhands

import (
	"encoding/json"

	"github.com/trajscope/trajscope/parsers/internal/predtest"
)

// load reads a file as the format table does.
var load = predtest.Loader(ParseRuns, LoadDir)

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
