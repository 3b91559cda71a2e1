package report

import (
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// Beside a row the run list says first why its figures are missing (the
// evaluator's error), then the row's note; a note that already says it is
// not repeated.
func TestRunListNote(t *testing.T) {
	cases := []struct {
		note, err string
		analysed  bool
		want      string
	}{
		{"no repository: not in the cache", "no_context_extracted", true, "no_context_extracted; no repository: not in the cache"},
		{"", "no_context_extracted", true, "no_context_extracted"},
		{"no repository: not in the cache", "", true, "no repository: not in the cache"},
		{`no gold for instance "x"`, "missing_gold", true, `no gold for instance "x"`},
		{"unreadable: bad JSON", "no_context_extracted", false, "unreadable: bad JSON"},
		{"checkout_failed: bad URL", "checkout_failed", true, "checkout_failed: bad URL"},
	}
	for _, c := range cases {
		r := &story.Row{Note: c.note, Analysed: c.analysed}
		r.Lenses[model.LensObserved].Error = c.err
		if got := noteOf(r, model.LensObserved); got != c.want {
			t.Errorf("note %q, error %q: %q, want %q", c.note, c.err, got, c.want)
		}
	}
}
