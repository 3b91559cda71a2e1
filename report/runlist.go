package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// ListRow is one run of a run list (`view DIR`): where it came from, who ran
// it and, once analysed, what it found under each lens.
type ListRow struct {
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
	// Tokens, Seconds and CostUSD are what the run spent, as its format
	// records it (display.RunSpend); 0 when it records none.
	Tokens  int     `json:"tokens,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	CostUSD float64 `json:"cost_usd,omitempty"`
	// Loaded: the file was read (until then the row stands for the file);
	// Analysed: the run was scored and the lenses are filled in.
	Loaded   bool `json:"-"`
	Analysed bool `json:"analysed"`
	// Note says what kept the row from being complete: the file or the run
	// could not be read, or it has no gold or no repository.
	Note   string      `json:"note,omitempty"`
	Lenses [2]ListLens `json:"-"`
}

// ListLens is a run's outcome under one lens: its final line coverage,
// line AUC and redundancy as the evaluator computes them, and how many
// gold spans ended in each diagnosis.
type ListLens struct {
	Coverage   float64         `json:"final_line_coverage"`
	AUC        float64         `json:"line_auc"`
	Redundancy float64         `json:"line_redundancy"`
	Diagnosis  diagnose.Counts `json:"diagnosis"`
	// Error is the evaluator's error for the run (no_context_extracted,
	// checkout_failed…), Reason its explanation.
	Error  string `json:"error,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Who is the row's agent and model ("mini-swe-agent 1.17.3 · Qwen3-Coder"),
// the model without its provider path.
func (r *ListRow) Who() string { return model.Who(r.Agent, r.Model) }

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

// NewListRow describes a run before it is analysed.
func NewListRow(run *model.Run) ListRow {
	sp := display.RunSpend(run)
	return ListRow{
		Path: run.Path, ID: run.InstanceID, Agent: run.Agent, Model: run.Model, Format: run.Format,
		Actions: ActionCount(run), ExitStatus: run.ExitStatus, Loaded: true,
		Tokens: sp.Tokens, Seconds: sp.Seconds, CostUSD: sp.CostUSD,
	}
}

// Spend is what the row's run spent.
func (r *ListRow) Spend() display.Spend {
	return display.Spend{Tokens: r.Tokens, Seconds: r.Seconds, Timed: r.Seconds > 0, CostUSD: r.CostUSD}
}

// Summarize fills in a row's lenses from the run's analysis.
func (r *ListRow) Summarize(a *scoring.Analysis) {
	r.Actions = len(a.Run.Actions)
	for _, l := range model.Lenses {
		res := &a.Lenses[l].Result
		ll := ListLens{Error: res.Error, Reason: res.Reason}
		if a.GoldEmpty() && ll.Error == "" {
			// Against no gold every coverage reads 1.00: show none.
			ll.Error = "no_gold"
		}
		if ll.Error == "" {
			ll.Coverage = res.Final.At(model.GranLine).Coverage
			ll.AUC = *res.Trajectory.AUCCoverage.At(model.GranLine)
			ll.Redundancy = *res.Trajectory.Redundancy.At(model.GranLine)
		}
		d := diagnose.Diagnose(a, l)
		ll.Diagnosis = d.SpanCounts
		if len(d.Spans) == 0 {
			// Gold that names files only (CodeScaleBench) is diagnosed per file.
			ll.Diagnosis = d.FileCounts
		}
		r.Lenses[l] = ll
	}
	r.Analysed = true
}

// Found, Dropped, NearMiss, Searched and Never read a diagnosis count.
func (l *ListLens) Found() int    { return l.Diagnosis[diagnose.Found] }
func (l *ListLens) Dropped() int  { return l.Diagnosis[diagnose.ReadThenDropped] }
func (l *ListLens) NearMiss() int { return l.Diagnosis[diagnose.NearMiss] }
func (l *ListLens) Searched() int { return l.Diagnosis[diagnose.SearchedNotRead] }
func (l *ListLens) Never() int    { return l.Diagnosis[diagnose.NeverOpened] }

// Labels are the rows' instance ids as a list shows them: an id several
// rows share gets what tells them apart, the file's name where their files
// differ (a SWE-agent .traj and its .checkpoints.jsonl) and the run's place
// in its file where they do not (four Agentless stages, two variants of a
// page).
func Labels(rows []ListRow) []string {
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

// WriteRunList prints a run list as a table, for a stdout that is not a
// terminal (`view DIR | less`): one line per run under one lens.
func WriteRunList(w io.Writer, rows []ListRow, lens model.Lens) error {
	b := bufio.NewWriter(w)
	idW, whoW := len("instance"), len("agent · model")
	labels := Labels(rows)
	for i := range rows {
		idW = max(idW, ansi.StringWidth(labels[i]))
		whoW = max(whoW, ansi.StringWidth(termsafe.Line(rows[i].Who())))
	}
	idW, whoW = min(idW, 80), min(whoW, 60) // an id may carry what tells duplicates apart
	fmt.Fprintf(b, "%d runs (%s lens): final line coverage, line AUC, redundancy; gold spans found / read then dropped / near miss / searched / never opened\n",
		len(rows), lens)
	spends := false // what runs spent, when any records it
	for i := range rows {
		spends = spends || rows[i].Tokens > 0 || rows[i].Seconds > 0 || rows[i].CostUSD > 0
	}
	head := fmt.Sprintf("%4s  %s  %s  %7s  %5s  %5s  %5s  %5s  %7s  %4s  %8s  %5s", "#", pad("instance", idW), pad("agent · model", whoW),
		"actions", "cov", "auc", "red", "found", "dropped", "near", "searched", "never")
	if spends {
		head += fmt.Sprintf("  %7s  %7s  %8s", "tokens", "time", "cost")
	}
	fmt.Fprintln(b, head)
	for i := range rows {
		r := &rows[i]
		line := fmt.Sprintf("%4d  %s  %s  %7d", r.Pos, pad(display.Middle(labels[i], idW), idW),
			pad(display.Middle(termsafe.Line(r.Who()), whoW), whoW), r.Actions)
		l := &r.Lenses[lens]
		switch {
		case !r.Analysed:
			line += strings.Repeat(" ", 2+5+2+5+2+5+2+5+2+7+2+4+2+8+2+5)
		case l.Error != "":
			line += fmt.Sprintf("  %5s  %5s  %5s  %5s  %7s  %4s  %8s  %5s", "-", "-", "-", "-", "-", "-", "-", "-")
		default:
			line += fmt.Sprintf("  %5.2f  %5.2f  %5.2f  %5d  %7d  %4d  %8d  %5d", l.Coverage, l.AUC, l.Redundancy,
				l.Found(), l.Dropped(), l.NearMiss(), l.Searched(), l.Never())
		}
		if spends {
			c := r.Spend().Cells()
			line += fmt.Sprintf("  %7s  %7s  %8s", c[0], c[1], c[2])
		}
		if note := noteOf(r, lens); note != "" {
			line += "  (" + termsafe.Line(note) + ")"
		}
		fmt.Fprintln(b, strings.TrimRight(line, " "))
	}
	return b.Flush()
}

// pad fills s with spaces to w cells.
func pad(s string, w int) string {
	return s + strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
}

// noteOf is what the table says beside a row: the scoring error under the
// lens (why the figures are missing), then its note.
func noteOf(r *ListRow, lens model.Lens) string {
	switch e := r.Lenses[lens].Error; {
	case e == "" || !r.Analysed:
		return r.Note
	case r.Note == "" || strings.Contains(r.Note, e) || e == scoring.ErrMissingGold:
		return cmp.Or(r.Note, e) // the note says why there is no gold
	default:
		return e + "; " + r.Note
	}
}

// WriteRunListJSON prints a run list as a JSON array (view DIR --json).
func WriteRunListJSON(w io.Writer, rows []ListRow) error {
	type rowJSON struct {
		ListRow
		Lenses map[string]ListLens `json:"lenses,omitempty"`
	}
	out := make([]rowJSON, len(rows))
	for i := range rows {
		out[i].ListRow = rows[i]
		if rows[i].Analysed {
			out[i].Lenses = map[string]ListLens{}
			for _, l := range model.Lenses {
				out[i].Lenses[l.String()] = rows[i].Lenses[l]
			}
		}
	}
	buf, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(buf), '\n'))
	return err
}
