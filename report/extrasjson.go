package report

import (
	"encoding/json"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// extrasJSON is e as json.Marshal encodes it, made terminal-safe; ok is
// false when e does not encode (a NaN somewhere), and the row is then
// written as upstream writes it.
func extrasJSON(e *Extras) ([]byte, bool) {
	b, err := json.Marshal(e)
	if err != nil {
		return nil, false
	}
	return termsafe.JSON(b), true
}
