package report

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
)

// TestRunJSONSafe: view --json is valid JSON whose strings read back as the
// run gave them, with no terminal control written raw, for the demo, a run
// whose strings carry controls and JSON-looking text, and one whose gold is
// empty.
func TestRunJSONSafe(t *testing.T) {
	demoA, err := demotask.Analyze(demo.FS(), model.ContextBench)
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
			scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)},
		{"no gold", scoring.Analyze(run, &model.Gold{ID: "x"}, scoring.NewFileCache(source.NewFS(repo)), model.Fixed)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var b strings.Builder
			if err := WriteRunJSON(&b, story.Tell(c.a)); err != nil {
				t.Fatal(err)
			}
			var doc struct {
				InstanceID string `json:"instance_id"`
				Agent      string `json:"agent"`
				Actions    []struct {
					Command string `json:"command"`
				} `json:"actions"`
				Gold []struct {
					File string `json:"file"`
				} `json:"gold"`
			}
			if err := json.Unmarshal([]byte(b.String()), &doc); err != nil {
				t.Fatalf("not valid JSON: %v\n%s", err, b.String())
			}
			if doc.InstanceID != c.a.Run.InstanceID || doc.Agent != c.a.Run.Agent || len(doc.Actions) != len(c.a.Run.Actions) ||
				doc.Actions[0].Command != c.a.Run.Actions[0].Command {
				t.Errorf("strings do not read back: %+v", doc)
			}
			if strings.ContainsAny(b.String(), "\x1b\x07\u202e") {
				t.Errorf("a control character written raw:\n%s", b.String())
			}
		})
	}
}
