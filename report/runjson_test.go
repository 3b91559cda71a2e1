package report

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/source"
)

// wholeRunJSON is view --json as one encoding/json document: every list
// filled in before marshalling, as WriteRunJSON wrote it before it streamed.
func wholeRunJSON(t *testing.T, a *scoring.Analysis) string {
	t.Helper()
	out, _ := runDoc(a)
	raw := func(v any) json.RawMessage {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	n := len(a.Run.Actions)
	actions := []runActionJSON{}
	for i := range n {
		actions = append(actions, actionJSON(a, i))
	}
	out.Actions = raw(actions)
	lenses := map[string]runLensJSON{}
	for _, l := range model.Lenses {
		jl := out.Lenses[l.String()]
		var cov []map[string]*float64
		for i := range n {
			cov = append(cov, coverageJSON(a, l, i))
		}
		jl.Coverage = raw(cov)
		lenses[l.String()] = jl
	}
	out.Lenses = lenses
	gold := []runGoldJSON{}
	for _, g := range diagnose.DiagnoseRun(a).Spans {
		gold = append(gold, goldJSON(&g))
	}
	out.Gold = raw(gold)
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(termsafe.JSON(b)) + "\n"
}

// TestRunJSONStreamedIsWhole: writing the long lists element by element
// gives exactly the document encoding/json makes of the whole, for the demo
// and for a run whose strings imitate the placeholders (a raw newline and
// indent inside a string is escaped, so it cannot), carry terminal controls,
// and whose gold is empty.
func TestRunJSONStreamedIsWhole(t *testing.T) {
	demoA, err := demo.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	repo := fstest.MapFS{"pkg/a.py": {Data: []byte("x = 1\ny = 2\n")}}
	fake := "\n  \"gold\": []\n      \"coverage\": []"
	run := &model.Run{InstanceID: "id" + fake, Format: "test", Agent: "\x1b[31m\u202e",
		Actions: []model.Action{
			{Command: "cat pkg/a.py" + fake, Category: model.CategoryRead, Reads: []model.ObservedRead{{File: "pkg/a.py", Kind: model.ReadWhole}}},
			{Command: "echo \"actions\": []", Category: model.CategoryOther, Failure: "boom\x07" + fake},
		}}
	cases := []struct {
		name string
		a    *scoring.Analysis
	}{
		{"demo", demoA},
		{"hostile strings", scoring.Analyze(run, &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "pkg/a.py", Start: 2, End: 2}, {File: "pkg/\x1b[2J\"gold\": [].py", Start: 1, End: 1}}},
			scoring.NewFiles(source.NewFS(repo)), model.ContextBench)},
		{"no gold", scoring.Analyze(run, &model.Gold{ID: "x"}, scoring.NewFiles(source.NewFS(repo)), model.Fixed)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteRunJSON(&b, c.a); err != nil {
				t.Fatal(err)
			}
			if want := wholeRunJSON(t, c.a); b.String() != want {
				t.Errorf("streamed:\n%s\nwhole:\n%s", b.String(), want)
			}
			if !json.Valid([]byte(b.String())) {
				t.Errorf("not valid JSON:\n%s", b.String())
			}
		})
	}
}
