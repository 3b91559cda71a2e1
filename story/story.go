package story

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// Story is everything trajscope says about one analysed run, computed once
// by Tell from the run's analysis (one run, gold, repository, semantics) and
// read by every surface: score's extras, view (explorer, summary, --json),
// the run list, compare, the exports. A surface renders these values; it
// does not count them again.
type Story struct {
	A *scoring.Analysis
	// Gold is every gold span with what became of it under each lens.
	Gold *diagnose.RunGold
	// Lenses are the run's figures under each lens.
	Lenses [2]Lens
	// Outcome is how the run ended and what it spent.
	Outcome Outcome
	// Agents are each agent's figures per lens, the lead first; nil for a
	// run of one agent.
	Agents [2][]AgentFigures
	// RepoMissing says why the run was analysed without its repository
	// (from what it displayed), "" when it had it.
	RepoMissing string
	// Target says where the gold came from and, for gold from the run's
	// edits, what was read before each edit.
	Target Target
	// Aside is what the run read that is not a repository file.
	Aside Aside
	// taskKey tells tasks apart (TaskKey).
	taskKey string
}

// TaskKey tells the run's task apart from others as it was read, whatever
// --redact later makes of its id: two ids that differ only in a secret
// show the same, and are still two tasks. It is a digest of Task, not
// the id itself.
func (s *Story) TaskKey() string { return s.taskKey }

// Lens is a run under one lens: its figures, as the run list shows them,
// its step count among them.
type Lens struct {
	Figures
}

// Scored reports that the lens has figures to show: the evaluator scored
// it against a gold that is not empty. Where it is false no surface draws a
// curve or a "found"; Error and Reason say why.
func (l *Lens) Scored() bool { return l.Error == "" }

// Tell computes the story of an analysed run.
func Tell(a *scoring.Analysis) *Story {
	s := &Story{A: a, Gold: diagnose.DiagnoseRun(a), Outcome: OutcomeOf(a.Run)}
	if a.Partial != nil {
		s.RepoMissing = a.Partial.Reason()
	}
	s.Target = target(a, s.Gold)
	s.Aside = aside(a)
	sum := sha256.Sum256([]byte(s.Task()))
	s.taskKey = hex.EncodeToString(sum[:12])
	for _, l := range model.Lenses {
		s.Lenses[l] = Lens{Figures: figures(a, s.Gold.Diag[l], l)}
		if t := &s.Target.Lenses[l]; t.Edits != nil && s.Lenses[l].Error == "" {
			blind, share := t.Blind, t.Share()
			s.Lenses[l].BlindEdits, s.Lenses[l].ReadBeforeEdit = &blind, &share
		}
		s.Agents[l] = agents(a, s.Gold, l)
	}
	return s
}

// figures is a lens's outcome: the evaluator's figures, or its error.
func figures(a *scoring.Analysis, d *diagnose.Diagnosis, l model.Lens) Figures {
	res := &a.Lenses[l].Result
	f := Figures{Error: res.Error, Reason: res.Reason, Steps: a.Lenses[l].NumSteps}
	if a.GoldEmpty() && f.Error == "" {
		// Against no gold every coverage reads 1.00: show none. A patch
		// none of whose changes could be placed names something: it was
		// not where it was sought.
		f.Error, f.Reason = "no_gold", "the gold names nothing to find"
		if a.Gold != nil && a.Gold.From == model.GoldFromPatch && a.Gold.Unlocated > 0 {
			f.Error, f.Reason = "changes_not_found", notFound(a.Gold.Unlocated, a.Gold.SoughtIn)
		}
	}
	if f.Error != "" {
		return f
	}
	f.Coverage = res.Final.At(model.GranLine).Coverage
	f.AUC = *res.Trajectory.AUCCoverage.At(model.GranLine)
	f.Redundancy = *res.Trajectory.Redundancy.At(model.GranLine)
	if cov, ok := res.InitialRecall(); ok {
		v := cov.Line
		f.Initial = &v
	}
	f.Diagnosis = d.SpanCounts
	if len(d.Spans) > 0 {
		k := d.FoundLines
		f.FoundLines = &k
	}
	if len(d.Spans) == 0 {
		// Gold that names files only (CodeScaleBench) is diagnosed per file.
		f.Diagnosis = d.FileCounts
	}
	return f
}

// Outcome is how a run ended: its exit status, whether it handed in its
// work, the submits its harness refused, and what it spent.
type Outcome struct {
	ExitStatus string
	// Submitted: the exit status says the run handed in its work.
	Submitted bool
	// Rejected counts the submit actions the harness refused (marked
	// failed when the run was read).
	Rejected int
	Spend    Spend
}

// OutcomeOf reads a run's outcome.
func OutcomeOf(run *model.Run) Outcome {
	o := Outcome{ExitStatus: run.ExitStatus, Submitted: model.Submitted(run.ExitStatus), Spend: RunSpend(run)}
	for i := range run.Actions {
		if act := &run.Actions[i]; act.Category == model.CategorySubmit && act.Failed() {
			o.Rejected++
		}
	}
	return o
}

// Task is the task the run is of: its gold's instance id when gold was
// matched to it, else the id the run records, else the evaluator's id for
// it (a file name for some formats). Two runs are of one task when their
// Task is the same.
func (s *Story) Task() string {
	if g := s.A.Gold; g != nil && g.ID != "" && !s.A.GoldEmpty() {
		return g.ID
	}
	if s.A.Run.RecordedID != "" {
		return s.A.Run.RecordedID
	}
	return s.A.Run.InstanceID
}

// Fits refuses a run a surface that lays out every action and gold span
// (cmd: "export", "compare") would draw past its bounds
// (model.MaxShownActions, model.MaxShownGoldSpans), naming the file and
// the bound.
func (s *Story) Fits(cmd string) error {
	a := s.A
	if n := len(a.Run.Actions); n > model.MaxShownActions {
		return fmt.Errorf("%s: a run of %d actions; %s shows runs of at most %d (score and view read up to %d)", termsafe.Line(a.Run.Path), n, cmd, model.MaxShownActions, model.MaxActions)
	}
	if n := a.Gold.Spans; n > model.MaxShownGoldSpans {
		return fmt.Errorf("%s: %d gold spans and files for %s; %s shows at most %d (score and view read up to %d)", termsafe.Line(a.Run.Path), n, termsafe.Line(a.Run.InstanceID), cmd, model.MaxShownGoldSpans, model.MaxGoldSpans)
	}
	return nil
}
