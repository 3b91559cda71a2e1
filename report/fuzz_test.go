package report_test

import (
	"strings"
	"testing"

	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/testkit"
)

// FuzzParse: any bytes give rows or an error, never a panic, and whatever
// parses can be summarised and rendered.
func FuzzParse(f *testing.F) {
	f.Add([]byte(runA[0].row() + "\n" + runA[2].row() + "\n"))
	f.Add([]byte(`{"results": [` + runB[1].row() + `], "aggregate": {}}`))
	f.Add([]byte(`[{"instance_id": "x", "error": ""}]`))
	f.Add([]byte(`{"instance_id": "x", "final": {"file": null}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		ins, _, err := report.Parse(b, "f")
		if err != nil {
			return
		}
		run := &report.ResultFile{Label: "f", Path: "f", Instances: ins}
		rep, err := report.Build([]*report.ResultFile{run, run}, report.Options{PerInstance: true, Compare: true})
		if err != nil {
			return
		}
		var sink discard
		rep.WriteMarkdown(sink)
		rep.WriteCSV(sink)
		rep.WriteJSON(sink)
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// A harness report of any shape is read or refused in one error, never a
// panic.
func FuzzReadResolved(f *testing.F) {
	f.Add(`{"resolved_ids": ["a__b-1"], "x": {"y": [1, 2]}}`)
	f.Add(`{"resolved_ids": [1]}`)
	f.Add(`[]`)
	f.Fuzz(func(t *testing.T, in string) {
		got, err := report.ReadResolved("h.json", strings.NewReader(in), nil)
		if err == nil && got == nil {
			t.Fatal("no error and no ids")
		}
	})
}
