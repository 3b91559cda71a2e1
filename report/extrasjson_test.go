package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// The extras are what encoding/json makes of them with no terminal control
// written raw, and extras that do not encode (a NaN) are left out.
func TestExtrasJSON(t *testing.T) {
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	e := NewExtras(story.Tell(a))
	e.Agent = "a\u009bb\u202e"
	b, ok := extrasJSON(e)
	if !ok || strings.ContainsAny(string(b), "\u009b\u202e") {
		t.Fatalf("ok %v, %s", ok, b)
	}
	var back Extras
	if err := json.Unmarshal(b, &back); err != nil || back.Agent != e.Agent || back.Lenses.ContextBench == nil {
		t.Errorf("read back: %v %+v", err, back)
	}
	bad := *e
	bad.F1 = &model.ByGranularity[float64]{File: math.NaN()}
	if b, ok := extrasJSON(&bad); ok {
		t.Errorf("NaN extras encoded: %s", b)
	}
}
