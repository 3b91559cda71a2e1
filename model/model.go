// Package model holds trajscope's domain types: runs, actions, ContextBench
// steps, gold context and scoring results. It is plain data with no I/O, so
// every other package can share it without pulling in files, terminals or git.
package model

import (
	"slices"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/same"
)

// FileSpans is the line spans predicted for one file. Steps keep a slice of
// these rather than a map so that key order survives a round trip through JSON,
// which matters for byte-identical conversion output.
type FileSpans struct {
	File  string
	Spans []Interval
}

// FileSymbols is the symbol names predicted for one file (Agentless style).
type FileSymbols struct {
	File    string
	Symbols []string
}

// Step is one ContextBench step: the context an agent declared or viewed at
// one point of the run. The same shape is used for the final context.
type Step struct {
	Files   []string
	Spans   []FileSpans
	Symbols []FileSymbols
}

// Empty reports whether the step names no files and no spans, the condition
// upstream reports as no_context_extracted for a final context.
func (s Step) Empty() bool {
	if len(s.Files) > 0 {
		return false
	}
	for _, fs := range s.Spans {
		if len(fs.Spans) > 0 {
			return false
		}
	}
	return true
}

// SameLines reports whether s and o name the same files and the same line
// spans, in the same order (symbols aside: what the observed lens and a
// union of steps read).
func (s Step) SameLines(o Step) bool {
	if same.Of(s.Files) == same.Of(o.Files) && same.Of(s.Spans) == same.Of(o.Spans) {
		return true // given again: nothing to compare
	}
	return slices.Equal(s.Files, o.Files) && EqualSpans(s.Spans, o.Spans)
}

// Identical reports whether s and o hold the very same lists (by
// identity): a step given again. A followed run's readers give an
// unchanged action's step again, so what was made of it is kept while
// Identical holds; SameLines and Equal then compare nothing.
func (s Step) Identical(o Step) bool {
	return same.Of(s.Files) == same.Of(o.Files) && same.Of(s.Spans) == same.Of(o.Spans) && same.Of(s.Symbols) == same.Of(o.Symbols)
}

// Equal reports whether s and o name the same files, spans and symbols,
// in the same order.
func (s Step) Equal(o Step) bool {
	return s.SameLines(o) && (same.Of(s.Symbols) == same.Of(o.Symbols) || slices.EqualFunc(s.Symbols, o.Symbols, func(p, q FileSymbols) bool {
		return p.File == q.File && slices.Equal(p.Symbols, q.Symbols)
	}))
}

// EqualSpans reports whether x and y hold the same files and lines, in the
// same order.
func EqualSpans(x, y []FileSpans) bool {
	return slices.EqualFunc(x, y, func(p, q FileSpans) bool { return p.File == q.File && slices.Equal(p.Spans, q.Spans) })
}

// Prediction is one unified ContextBench prediction record (a line of the
// evaluator's --pred file): the per-step context, the final context and the
// patch.
type Prediction struct {
	InstanceID string
	// OriginalInstID is kept when the record named it, so conversion can
	// write it back; InstanceID already falls back to it.
	OriginalInstID string
	Steps          []Step
	Final          Step
	ModelPatch     string
	RepoURL        string
	Commit         string
	// Extra holds top-level record keys trajscope does not interpret, in
	// input order, so conversion does not drop them.
	Extra []RawField
	// StepActions is, for each step, the number (1-based) of the action of
	// the run's timeline that made it, when known: convert writes it
	// ("step_actions", after the evaluator's keys), so a record read back
	// numbers its actions as the run did. nil when unknown.
	StepActions []int
}

// StepActionsKey is the record key of Prediction.StepActions.
const StepActionsKey = "step_actions"

// ValidStepActions reports whether p.StepActions can place p's steps: one
// number per step, each from 1 to MaxActions, never going back.
func (p *Prediction) ValidStepActions() bool {
	if len(p.StepActions) == 0 || len(p.StepActions) != len(p.Steps) {
		return false
	}
	prev := 1
	for _, n := range p.StepActions {
		if n < prev || n > MaxActions {
			return false
		}
		prev = n
	}
	return true
}

// RawField is an uninterpreted JSON member kept verbatim.
type RawField struct {
	Key   string
	Value []byte // raw JSON
}

// GoldSpan is one gold context entry. File is the path as the dataset wrote
// it; normalisation happens when scoring.
type GoldSpan struct {
	File  string
	Start int
	End   int
}

// Gold is the gold context of one task instance.
type Gold struct {
	// ID is original_inst_id, or inst_id when that is empty (upstream Gold.id).
	ID             string
	InstID         string
	OriginalInstID string
	RepoURL        string
	Commit         string
	Repo           string
	Language       string
	Source         string
	// Init is the whole gold for parquet and gold_ctx input; with
	// init_ctx/add_ctx input line metrics and EditLoc use Init only.
	Init []GoldSpan
	Add  []GoldSpan
	// Files is file-level gold without line spans (CodeScaleBench ground
	// truth): it counts at file granularity only, so no line coverage is
	// invented for it.
	Files []string
	// Symbols names definitions without lines (LocAgent's edited entities,
	// "Class.method" in a file): scored at symbol granularity only.
	Symbols []FileSymbols
	// Task is the task statement (problem_statement), when the gold file
	// carries it.
	Task string
	// Patch is the gold patch, used by upstream as an EditLoc fallback.
	Patch string
	// TextForm is set when gold_context was the plain-text form
	// ("context0：\nfile: …"), which upstream silently reads as empty.
	TextForm bool
	// From says where the gold came from: GoldFromFile, GoldFromPatch (a
	// reference patch: its changes are the target) or GoldFromEdits (no
	// gold was given: the run's own edits are the target).
	From GoldFrom
	// Changes, for a gold from a patch or from edits, are the edits whose
	// regions are the target: scoring locates each in the file as it was
	// before them (Init is then empty). ChangedAt is, for gold from
	// edits, the action that made each change.
	Changes   []Change
	ChangedAt []int32
}

// GoldFrom says where a gold came from.
type GoldFrom uint8

const (
	GoldFromFile GoldFrom = iota
	GoldFromPatch
	GoldFromEdits
)

// String is the word every surface uses ("gold_from": "gold", "patch",
// "edits").
func (f GoldFrom) String() string {
	return [...]string{"gold", "patch", "edits"}[f]
}

// EditsGold is the target of a run given no gold: the regions its recorded
// edits changed, each with the action that changed it.
func EditsGold(run *Run) *Gold {
	g := &Gold{ID: run.InstanceID, InstID: run.InstanceID, From: GoldFromEdits}
	for i := range run.Actions {
		for _, c := range run.Actions[i].Changes {
			g.Changes = append(g.Changes, c)
			g.ChangedAt = append(g.ChangedAt, int32(i))
		}
	}
	return g
}

// URL is the repository to read the gold's task at: its repo_url, or,
// when the gold has none (the hub's verified parquet has no repo_url
// column), the GitHub repository its repo column names ("owner/name").
// The reference evaluator reads repo_url only; score --semantics
// contextbench keeps to that.
func (g *Gold) URL() string {
	if g.RepoURL != "" || !repoNameRe().MatchString(g.Repo) {
		return g.RepoURL
	}
	return "https://github.com/" + g.Repo + ".git"
}

var repoNameRe = lazyre.New(`^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$`)

// All returns Init followed by Add.
func (g *Gold) All() []GoldSpan {
	out := make([]GoldSpan, 0, len(g.Init)+len(g.Add))
	out = append(out, g.Init...)
	return append(out, g.Add...)
}
