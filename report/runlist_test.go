package report

import (
	"strings"
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

// A run scored without its repository is marked in the list (~) and sorts
// after runs scored against theirs; the table says what the mark means.
func TestRunListMarksRunsWithoutRepository(t *testing.T) {
	with := story.Row{Pos: 1, ID: "a__b-1", Loaded: true, Analysed: true, Actions: 3}
	with.Lenses[model.LensContextBench] = story.Figures{Coverage: 0.5}
	without := with
	without.Pos, without.ID, without.NoRepo, without.Note = 2, "a__b-2", story.NoRepoGiven, "no repository: "+story.NoRepoGiven
	without.Lenses[model.LensContextBench] = story.Figures{Coverage: 1}
	var b strings.Builder
	if err := WriteRunList(&b, []story.Row{with, without}, model.LensContextBench); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, " ~1.00 ") || strings.Contains(out, "~0.50") || !strings.Contains(out, NoRepoLegend) {
		t.Errorf("marks:\n%s", out)
	}
	if less, ok := LessScored(&with, &without, model.LensContextBench); !ok || !less {
		t.Error("a run scored against its repository does not sort first")
	}
}
