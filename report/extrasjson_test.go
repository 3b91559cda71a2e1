package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// countingWriter records each write.
type countingWriter struct {
	bytes.Buffer
	writes int
}

func (w *countingWriter) Write(p []byte) (int, error) { w.writes++; return w.Buffer.Write(p) }

// appendExtras writes exactly what encoding/json makes of the extras (made
// terminal-safe), while writing a large diagnosis as it goes.
func TestAppendExtrasEncodesAsJSON(t *testing.T) {
	big := &diagnose.Diagnosis{Lens: "observed"}
	for i := range 20000 {
		f := fmt.Sprintf("pkg/<d%d>/f\u202e%d.py", i%7, i)
		big.Files = append(big.Files, diagnose.File{File: f, Category: diagnose.Category(i % 5), Step: int32(i % 3), Action: int32(i%11 - 1), Missing: i%13 == 0})
		big.Spans = append(big.Spans, diagnose.Span{File: f, Start: i, End: i + 9, Category: diagnose.NearMiss, Action: -1, Distance: i % 4, Declared: i%17 == 0})
		big.SpanCounts[diagnose.NearMiss]++
	}
	a, err := demo.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	demo := NewExtras(a)
	withBig := *demo
	obs := *demo.Lenses.Observed
	obs.Diagnosis = big
	withBig.Lenses.Observed = &obs
	noLists := *demo
	cb := *demo.Lenses.ContextBench
	cb.Diagnosis = &diagnose.Diagnosis{Lens: "contextbench"}
	noLists.Lenses.ContextBench = &cb
	noLists.Lenses.Observed = nil
	for _, tc := range []struct {
		name    string
		e       *Extras
		streams bool
	}{
		{"demo", demo, false},
		{"a diagnosis of 20,000 spans", &withBig, true},
		{"nil lists, one lens", &noLists, false},
		{"no lens", &Extras{Semantics: "fixed", Agent: "a\x9bb"}, false},
	} {
		want, err := json.Marshal(tc.e)
		if err != nil {
			t.Fatal(err)
		}
		want = append([]byte("[row"), termsafe.JSON(want)...)
		var w countingWriter
		buf, ok, err := appendExtras(&w, []byte("[row"), tc.e)
		if err != nil || !ok {
			t.Fatalf("%s: ok %v, %v", tc.name, ok, err)
		}
		w.Write(buf)
		if got := w.Bytes(); !bytes.Equal(got, want) {
			i := 0
			for i < min(len(got), len(want)) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: differs at byte %d:\n got  %.120q\n want %.120q", tc.name, i, got[i:], want[i:])
		}
		if streamed := w.writes > 1; streamed != tc.streams {
			t.Errorf("%s: %d writes, want streaming %v", tc.name, w.writes, tc.streams)
		}
	}
	// Extras that do not encode (a NaN) leave the row as it was.
	bad := *demo
	bad.F1 = &model.ByGranularity[float64]{File: math.NaN()}
	var w countingWriter
	buf, ok, err := appendExtras(&w, []byte("[row"), &bad)
	if ok || err != nil || string(buf) != "[row" || w.Len() != 0 {
		t.Errorf("NaN extras: ok %v err %v buf %q wrote %d", ok, err, buf, w.Len())
	}
}
