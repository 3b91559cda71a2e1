package report

import (
	"bytes"
	"encoding/csv"
	"testing"

	"github.com/trajscope/trajscope/model"
)

func TestInertCell(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"},
		{"+cmd", "'+cmd"},
		{"-2+3", "'-2+3"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"-0.25", "-0.25"},
		{"+1e5", "+1e5"},
		{"0.5", "0.5"},
		{"owner__repo-1", "owner__repo-1"},
		{"a=b", "a=b"},
		{"", ""},
	} {
		if got := inertCell(tc.in); got != tc.want {
			t.Errorf("inertCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// An instance id or error that a spreadsheet would run as a formula comes
// out of score's CSV as text, and the numbers of the row are untouched.
func TestResultsCSVNeutralisesFormulas(t *testing.T) {
	r := &Results{Rows: []model.Result{
		{InstanceID: "=HYPERLINK(\"http://evil\",\"click\")", NumSteps: 2},
		{InstanceID: "ok__id-1", Error: "@rm -rf"},
	}}
	var buf bytes.Buffer
	if err := r.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("%d records, %v", len(recs), err)
	}
	if got := recs[1][0]; got != "'=HYPERLINK(\"http://evil\",\"click\")" {
		t.Errorf("id cell %q", got)
	}
	if got := recs[2][1]; got != "'@rm -rf" {
		t.Errorf("error cell %q", got)
	}
	if recs[1][2] != "2" || recs[1][3] != "0.0" {
		t.Errorf("numbers changed: %q", recs[1][:4])
	}
}
