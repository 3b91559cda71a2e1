// Package story holds what trajscope says about one run, computed once from
// its analysis so that every surface (score, view, the run list, compare,
// report, convert, the exports) shows the same figures: the run list's row,
// what the run spent.
package story

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// NoRepoGiven is the reason a run has no repository when neither --repo nor
// --cache was given; the advice to pass one then says it all.
const NoRepoGiven = "no --repo or --cache given"

// FinalStandIn labels a final context the run did not declare: the
// observed lens scores the union of its steps in its place, crediting
// everything the run looked at. Every surface showing such a final says so.
const FinalStandIn = "final: none declared, the union of the steps stands in"

// Row is one run of a run list (`view DIR`): where it came from, who ran
// it and, once analysed, what it found under each lens.
type Row struct {
	// Pos is the run's 1-based position in the list, what --instance N
	// takes; Path the file it came from and Index its 0-based place there.
	Pos        int    `json:"position"`
	Path       string `json:"path"`
	Index      int    `json:"index_in_file"`
	ID         string `json:"instance_id"`
	Agent      string `json:"agent,omitempty"`
	Model      string `json:"model,omitempty"`
	Format     string `json:"format,omitempty"`
	Actions    int    `json:"actions"`
	ExitStatus string `json:"exit_status,omitempty"`
	// Tokens (every token, the cache's included; TokenSplit says which),
	// Seconds and CostUSD are what the run spent, as its format records it
	// (story.RunSpend); 0 when it records none.
	Tokens     int     `json:"tokens,omitempty"`
	TokenSplit *Tokens `json:"token_split,omitempty"`
	Seconds    float64 `json:"seconds,omitempty"`
	CostUSD    float64 `json:"cost_usd,omitempty"`
	// Rejected counts the submits the run's harness refused.
	Rejected int `json:"rejected_submits,omitempty"`
	// NoRepo says why the run was analysed without its repository, "" when
	// it had it (or is not analysed yet).
	NoRepo string `json:"no_repository,omitempty"`
	// Loaded: the file was read (until then the row stands for the file);
	// Analysed: the run was scored and the lenses are filled in.
	Loaded   bool `json:"-"`
	Analysed bool `json:"analysed"`
	// GoldFrom says where the run's gold came from (model.GoldFrom).
	GoldFrom string `json:"gold_from,omitempty"`
	// Note says what kept the row from being complete: the file or the run
	// could not be read, or it has no gold or no repository.
	Note   string     `json:"note,omitempty"`
	Lenses [2]Figures `json:"-"`
}

// Figures is a run's outcome under one lens: its final line coverage,
// line AUC and redundancy as the evaluator computes them, and how many
// gold spans ended in each diagnosis.
type Figures struct {
	// Steps is the number of steps the lens made (LensData.NumSteps),
	// whether or not the evaluator scored them.
	Steps      int             `json:"steps"`
	Coverage   float64         `json:"final_line_coverage"`
	AUC        float64         `json:"line_auc"`
	Redundancy float64         `json:"line_redundancy"`
	Diagnosis  diagnose.Counts `json:"diagnosis"`
	// FoundLines qualifies the found spans of Diagnosis by the lines of
	// theirs the final context kept; nil for gold diagnosed per file.
	FoundLines *diagnose.Kept `json:"found_lines,omitempty"`
	// Initial is the line coverage after the first step, for a run of
	// more than one (initial recall); nil otherwise.
	Initial *float64 `json:"initial_recall,omitempty"`
	// BlindEdits counts, for gold from the run's edits, the regions it
	// changed with none of their lines read first, and ReadBeforeEdit is
	// the share of edited lines read before their edit (story.Target);
	// nil for other gold.
	BlindEdits     *int     `json:"blind_edits,omitempty"`
	ReadBeforeEdit *float64 `json:"read_before_edit,omitempty"`
	// Error is the evaluator's error for the run (no_context_extracted,
	// checkout_failed…), Reason its explanation.
	Error  string `json:"error,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Who is the row's agent and model ("mini-swe-agent 1.17.3 · Qwen3-Coder"),
// the model without its provider path.
func (r *Row) Who() string { return model.Who(r.Agent, r.Model) }

// ActionCount is how many actions the explorer will show for a run: its
// timeline, or one per ContextBench step for a prediction record.
func ActionCount(run *model.Run) int {
	if n := len(run.Actions); n > 0 {
		return n
	}
	if n := len(run.Prediction.Steps); n > 0 {
		return n
	}
	if run.Prediction.Final.Empty() {
		return 0
	}
	return 1
}

// NewRow describes a run before it is analysed.
func NewRow(run *model.Run) Row {
	o := OutcomeOf(run)
	r := Row{
		Path: run.Path, ID: run.InstanceID, Agent: run.Agent, Model: run.Model, Format: run.Format,
		Actions: ActionCount(run), ExitStatus: run.ExitStatus, Loaded: true, Rejected: o.Rejected,
	}
	r.setSpend(o.Spend)
	return r
}

func (r *Row) setSpend(sp Spend) {
	r.Tokens, r.Seconds, r.CostUSD, r.TokenSplit = sp.Tokens.Total(), sp.Seconds, sp.CostUSD, nil
	if sp.Tokens != (Tokens{}) {
		t := sp.Tokens
		r.TokenSplit = &t
	}
}

// Spend is what the row's run spent.
func (r *Row) Spend() Spend {
	sp := Spend{Seconds: r.Seconds, Timed: r.Seconds > 0, CostUSD: r.CostUSD}
	if r.TokenSplit != nil {
		sp.Tokens = *r.TokenSplit
	}
	return sp
}

// Summarize fills in a row from the run's story.
func (r *Row) Summarize(s *Story) {
	r.Actions = len(s.A.Run.Actions)
	for _, l := range model.Lenses {
		r.Lenses[l] = s.Lenses[l].Figures
	}
	r.ExitStatus, r.Rejected, r.NoRepo = s.Outcome.ExitStatus, s.Outcome.Rejected, s.RepoMissing
	r.setSpend(s.Outcome.Spend)
	r.GoldFrom = s.Target.From.String()
	r.Analysed = true
}

// Found, Dropped, NearMiss, Searched and Never read a diagnosis count.
func (l *Figures) Found() int    { return l.Diagnosis[diagnose.Found] }
func (l *Figures) Dropped() int  { return l.Diagnosis[diagnose.ReadThenDropped] }
func (l *Figures) NearMiss() int { return l.Diagnosis[diagnose.NearMiss] }
func (l *Figures) Searched() int { return l.Diagnosis[diagnose.SearchedNotRead] }
func (l *Figures) Never() int    { return l.Diagnosis[diagnose.NeverOpened] }

// Labels are the rows' instance ids as a list shows them: an id several
// rows share gets what tells them apart, the file's name where their files
// differ (a SWE-agent .traj and its .checkpoints.jsonl) and the run's place
// in its file where they do not (four Agentless stages, two variants of a
// page).
func Labels(rows []Row) []string {
	byID := map[string][]int{}
	for i := range rows {
		byID[rows[i].ID] = append(byID[rows[i].ID], i)
	}
	out := make([]string, len(rows))
	for i := range rows {
		out[i] = termsafe.Line(rows[i].ID)
		same := byID[rows[i].ID]
		if len(same) < 2 || !rows[i].Loaded {
			continue
		}
		oneFile, common := true, filepath.Dir(rows[i].Path)
		for _, k := range same {
			oneFile = oneFile && rows[k].Path == rows[i].Path
			for !strings.HasPrefix(rows[k].Path, common+string(filepath.Separator)) && common != filepath.Dir(common) {
				common = filepath.Dir(common)
			}
		}
		if oneFile {
			out[i] += fmt.Sprintf(" (#%d in file)", rows[i].Index+1)
		} else if rel, err := filepath.Rel(common, rows[i].Path); err == nil {
			out[i] += " (" + termsafe.Line(rel) + ")"
		}
	}
	return out
}
