package compare

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

// demoRun analyses the demo task; keep > 0 keeps only its first keep
// actions (and the closing messages that give the final context), as a
// second, shorter run of the same task; keep < 0 keeps every action but
// drops those closing messages: a run that never declared a final.
func demoRun(t *testing.T, keep int) *scoring.Analysis {
	t.Helper()
	src := demo.FS()
	m := fstest.MapFS{}
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(src, p)
		if err == nil && keep != 0 && strings.HasSuffix(p, ".traj.json") {
			var doc map[string]any
			if err = json.Unmarshal(b, &doc); err == nil {
				msgs := doc["messages"].([]any)
				// system, task, then one assistant/user pair per action;
				// the last four messages declare the final context.
				if keep < 0 {
					doc["messages"] = msgs[:len(msgs)-4]
				} else {
					doc["messages"] = append(append([]any{}, msgs[:2+2*keep]...), msgs[len(msgs)-4:]...)
				}
				b, err = json.Marshal(doc)
			}
		}
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	a, err := demotask.Analyze(m, model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestNew(t *testing.T) {
	full, short := demoRun(t, 0), demoRun(t, 3)
	c, err := New(story.Tell(full), story.Tell(short), model.LensContextBench)
	if err != nil {
		t.Fatal(err)
	}
	if c.InstanceID != "pricebook__pricebook-42" || c.Runs[0].Actions != 20 || c.Runs[1].Actions >= 10 {
		t.Fatalf("runs: %q, %d and %d actions", c.InstanceID, c.Runs[0].Actions, c.Runs[1].Actions)
	}
	// What the full run did, as its explorer and summary say it; the short
	// run read discounts.py 1-40 (action 3) and nothing after.
	for _, tc := range []struct {
		file  string
		start int
		aAt   int
		aDiag diagnose.Category
		bAt   int
		bDiag diagnose.Category
	}{
		{"pricebook/discounts.py", 49, 4, diagnose.Found, 0, diagnose.Found},
		{"pricebook/cart.py", 45, 6, diagnose.ReadThenDropped, 0, diagnose.SearchedNotRead},
		{"pricebook/discounts.py", 78, 0, diagnose.NearMiss, 0, diagnose.NearMiss},
		{"pricebook/money.py", 45, 0, diagnose.SearchedNotRead, 0, diagnose.SearchedNotRead},
	} {
		var sp *Span
		for i := range c.Spans {
			if c.Spans[i].File == tc.file && c.Spans[i].Start == tc.start {
				sp = &c.Spans[i]
			}
		}
		if sp == nil {
			t.Errorf("%s:%d missing from %+v", tc.file, tc.start, c.Spans)
			continue
		}
		if a := sp.Find[0]; a.Action != tc.aAt || a.Diagnosis != tc.aDiag {
			t.Errorf("%s:%d A: %+v, want @%d %v", tc.file, tc.start, a, tc.aAt, tc.aDiag)
		}
		if b := sp.Find[1]; b.Action != tc.bAt || b.Diagnosis != tc.bDiag {
			t.Errorf("%s:%d B: %+v, want @%d %v", tc.file, tc.start, b, tc.bAt, tc.bDiag)
		}
	}
	if got := c.FirstReads(0); len(got) == 0 || got[0] != 3 {
		t.Errorf("A's first reads (0-based actions) %v, want 3 first", got)
	}
	if n := len(c.Curve(0, model.GranLine)); n != 20 {
		t.Errorf("A's line curve has %d points, want one per action", n)
	}
}

func TestNewDifferentTasks(t *testing.T) {
	a, b := demoRun(t, 0), demoRun(t, 3)
	b.Run.InstanceID, b.Gold.ID = "other__task-1", "other__task-1" // analysed against another task's gold
	if _, err := New(story.Tell(a), story.Tell(b), model.LensContextBench); !errors.Is(err, ErrDifferentTasks) {
		t.Fatalf("err = %v", err)
	}
}

func TestTextAndJSON(t *testing.T) {
	c, err := New(story.Tell(demoRun(t, 0)), story.Tell(demoRun(t, 3)), model.LensContextBench)
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	onlyA, onlyB, both, neither := c.Differences()
	for _, want := range []string{
		"trajscope compare · pricebook__pricebook-42 · lens contextbench",
		"final cov/p A ", "final cov/p B ", "AUC         A ",
		"pricebook/discounts.py:49-62  A @4 found 7/14 kept · B declared, never shown",
		"pricebook/cart.py:45-49       A @6 read then dropped · B never (searched, not read)",
	} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if both+onlyA+onlyB+neither != len(c.Spans) {
		t.Errorf("differences %d+%d+%d+%d do not add up to %d spans", both, onlyA, onlyB, neither, len(c.Spans))
	}
	var js bytes.Buffer
	if err := c.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		InstanceID string `json:"instance_id"`
		Runs       [2]struct {
			Actions int `json:"actions"`
			Final   struct {
				Line struct{ Coverage float64 } `json:"line"`
			} `json:"final"`
		} `json:"runs"`
		Spans []struct {
			File string `json:"file"`
			Runs [2]struct {
				FirstShown int    `json:"first_shown"`
				Diagnosis  string `json:"diagnosis"`
			} `json:"runs"`
		} `json:"spans"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.InstanceID != c.InstanceID || back.Runs[0].Actions != 20 || back.Runs[0].Final.Line.Coverage != c.Runs[0].Final.Line.Coverage ||
		len(back.Spans) != len(c.Spans) || back.Spans[0].Runs[0].Diagnosis == "" {
		t.Errorf("JSON read back: %+v", back)
	}
}

// A run that declared no final is scored, under the observed lens, on the
// union of its steps: the comparison says so beside every count of found
// spans, in text and JSON.
func TestCompareMarksUnionFinal(t *testing.T) {
	c, err := New(story.Tell(demoRun(t, 0)), story.Tell(demoRun(t, -1)), model.LensObserved)
	if err != nil {
		t.Fatal(err)
	}
	if c.Runs[0].FinalStandIn || !c.Runs[1].FinalStandIn {
		t.Fatalf("stand-in: A %v B %v, want false true", c.Runs[0].FinalStandIn, c.Runs[1].FinalStandIn)
	}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{story.FinalStandIn + `: its "found" counts every span it looked at`, "(B: union of steps, no final declared)"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := c.WriteJSON(&b); err != nil || !strings.Contains(b.String(), `"final_stand_in": true`) {
		t.Errorf("JSON lacks the stand-in (%v)", err)
	}
}

// "found" is any overlap with the final context, so every count of found
// spans carries the lines of theirs the final kept.
func TestFoundIsQualified(t *testing.T) {
	full := story.Tell(demoRun(t, 0))
	c, err := New(full, story.Tell(demoRun(t, 3)), model.LensContextBench)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := c.FoundText(0), "found 1/7 spans, 7/14 lines kept"; got != want {
		t.Errorf("FoundText = %q, want %q", got, want)
	}
	d := full.Gold.Diag[model.LensContextBench]
	if got := d.SpanSummary(); !strings.HasPrefix(got, "1 found (7 of 14 lines kept), ") {
		t.Errorf("SpanSummary = %q", got)
	}
	var b bytes.Buffer
	if err := c.WriteText(&b); err != nil || !strings.Contains(b.String(), "gold        A  found 1/7 spans, 7/14 lines kept") {
		t.Errorf("text lacks the qualified count (%v):\n%s", err, b.String())
	}
}
