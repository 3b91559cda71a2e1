package ui

import (
	"strings"
	"testing"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
)

// Status messages are said again of each new reading (issue 46 #3): a
// search's count grows with the actions that match, and the last
// reading's failure note goes once a reading succeeds.
func TestLiveStatusIsRecomputed(t *testing.T) {
	full := story.Tell(demoAnalysis(t))
	// The explorer opens on the first half of the run.
	task, err := demo.Load(demo.FS())
	if err != nil {
		t.Fatal(err)
	}
	run := *task.Run
	run.Actions = run.Actions[:10]
	g, _ := task.Gold.Get(run.InstanceID)
	early := scoring.Analyze(&run, g, scoring.NewFileCache(source.NewFS(task.Repo)), model.ContextBench)
	m := newModel(t, early, Options{Live: true}, 160, 40)
	m.ctx.Query = "pricebook"
	m.status = m.matchStatus()
	before := m.status
	m.Update(LiveMsg{St: full})
	if m.status == before || !strings.HasPrefix(m.status, "match ") {
		t.Errorf("search status %q after the reading (before: %q)", m.status, before)
	}
	m.Update(LiveMsg{Note: "cannot read the file now: busy"})
	if m.status != "cannot read the file now: busy" {
		t.Fatalf("note %q", m.status)
	}
	m.Update(LiveMsg{St: full})
	if m.status != "" {
		t.Errorf("the failure note stays after a reading: %q", m.status)
	}
}
