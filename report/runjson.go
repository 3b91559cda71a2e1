package report

import (
	"bufio"
	"io"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

// The JSON form: stable keys, lens-keyed values (see WriteRunJSON for the
// document). Values keyed by lens or granularity are structs whose fields
// stand in the order of their keys, so they read as maps and cost little.

// byLens is a value per lens, keyed by the lens's name.
type byLens[T any] struct {
	ContextBench T `json:"contextbench"`
	Observed     T `json:"observed"`
}

func (b *byLens[T]) at(l model.Lens) *T {
	if l == model.LensObserved {
		return &b.Observed
	}
	return &b.ContextBench
}

// byGran is a value per granularity, keyed by its name.
type byGran[T any] struct {
	File   T `json:"file"`
	Line   T `json:"line"`
	Span   T `json:"span"`
	Symbol T `json:"symbol"`
}

func (b *byGran[T]) at(g model.Granularity) *T {
	switch g {
	case model.GranLine:
		return &b.Line
	case model.GranSpan:
		return &b.Span
	case model.GranSymbol:
		return &b.Symbol
	}
	return &b.File
}

type editJSON struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
}

// patchJSON is the submitted patch and the gold lines it removes or keeps
// (EditLoc made visible).
type patchJSON struct {
	Text        string         `json:"text"`
	Removed     int            `json:"removed_lines"`
	GoldRemoved int            `json:"gold_lines_removed"`
	GoldLines   []fileLineJSON `json:"gold_lines"`
}

type fileLineJSON struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Removed bool   `json:"removed"`
}

func patchJSONOf(a *scoring.Analysis, p string) patchJSON {
	lines, removed, gold := a.PatchLines(p)
	pj := patchJSON{Text: termsafe.Text(p), Removed: removed, GoldRemoved: gold, GoldLines: []fileLineJSON{}}
	for _, l := range lines {
		if l.Gold {
			pj.GoldLines = append(pj.GoldLines, fileLineJSON{File: l.File, Line: l.Old, Removed: strings.HasPrefix(l.Text, "-")})
		}
	}
	return pj
}

// changeJSON is one recorded edit of an action.
type changeJSON struct {
	File string `json:"file"`
	Kind string `json:"kind"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new"`
	Line int    `json:"after_line,omitempty"`
	// Unrecorded: the record does not hold what was written (old and new
	// are then empty).
	Unrecorded bool `json:"unrecorded,omitempty"`
}

type asideJSON struct {
	File    string `json:"file"`
	Created bool   `json:"created"`
}

var changeKinds = [...]string{model.ChangeReplace: "replace", model.ChangeWhole: "write", model.ChangeInsert: "insert", model.ChangeAppend: "append"}

type runActionJSON struct {
	Index    int          `json:"index"`
	Category string       `json:"category"`
	Command  string       `json:"command"`
	NewGold  byLens[int]  `json:"new_gold"`
	Reread   byLens[int]  `json:"reread_lines"`
	Pure     byLens[bool] `json:"pure_reread"`
	Steps    byLens[int]  `json:"steps_done"`
	Failed   string       `json:"failed,omitempty"`
	NotRun   bool         `json:"not_run,omitempty"`
	Pending  bool         `json:"pending,omitempty"`
	Changes  []changeJSON `json:"changes,omitempty"`
	// Aside are the files it read that are not the repository's
	// (story.Aside).
	Aside    []asideJSON `json:"not_in_repo,omitempty"`
	ExitCode *int32      `json:"exit_code,omitempty"`
	// Agent is the agent that made the action (an index into "agents"),
	// for a run of several agents.
	Agent *int32 `json:"agent,omitempty"`
}

type runGoldJSON struct {
	File      string         `json:"file"`
	Start     int            `json:"start,omitempty"`
	End       int            `json:"end,omitempty"`
	FoundAt   byLens[int]    `json:"found_at"`
	Diagnosis byLens[string] `json:"diagnosis"`
	Closest   byLens[int]    `json:"closest_action"`
	InFinal   byLens[bool]   `json:"in_final"`
	// FoundBy is the agent whose action first put the span in view, -1 for
	// none, for a run of several agents.
	FoundBy *byLens[int] `json:"found_by,omitempty"`
	// Edit is, for gold from the run's edits, when the span was changed
	// and what had been read of it by then.
	Edit *editReadJSON `json:"edit,omitempty"`
}

// editReadJSON is story.EditRead under each lens, actions 1-based
// (read_at 0: a blind edit).
type editReadJSON struct {
	EditedAt  int          `json:"edited_at"`
	ReadAt    byLens[int]  `json:"read_at"`
	LinesRead byLens[int]  `json:"lines_read_before_edit"`
	Blind     byLens[bool] `json:"blind_edit"`
}

// targetJSON is story.Target: what was read before the run's edits,
// under each lens.
type targetJSON struct {
	Regions   int                    `json:"edited_regions"`
	Unlocated int                    `json:"changes_not_found"`
	SoughtIn  string                 `json:"changes_sought,omitempty"`
	Lenses    byLens[targetLensJSON] `json:"lenses"`
}

type targetLensJSON struct {
	Lines      int     `json:"edited_lines"`
	ReadBefore int     `json:"lines_read_before_edit"`
	Share      float64 `json:"read_before_edit"`
	Blind      int     `json:"blind_edits"`
	Reads      int     `json:"reads"`
	Unused     int     `json:"reads_used_by_no_edit"`
}

// agentJSON is one agent of a run of several, with its figures.
type agentJSON struct {
	Index       int         `json:"index"`
	ID          string      `json:"id,omitempty"`
	Type        string      `json:"type,omitempty"`
	Description string      `json:"description,omitempty"`
	Parent      int32       `json:"parent"`
	Call        int32       `json:"started_by_action"`
	Depth       int32       `json:"depth"`
	Actions     int         `json:"actions"`
	ReadLines   byLens[int] `json:"read_lines"`
	Reread      byLens[int] `json:"reread_lines"`
	GoldFound   byLens[int] `json:"gold_found"`
	Label       string      `json:"label"`
	// Recorded is the work its call's result records, for an agent whose
	// transcript the run does not hold.
	Recorded *recordedJSON `json:"recorded,omitempty"`
}

type recordedJSON struct {
	ToolUses int `json:"tool_uses"`
	Reads    int `json:"reads"`
	Searches int `json:"searches"`
	Commands int `json:"commands"`
	Edits    int `json:"edits"`
	Tokens   int `json:"tokens"`
}

// WriteRunJSON prints the machine form of the run summary (view --json),
// byte for byte what json.MarshalIndent makes of it (terminal-safe), but
// written field by field and its long lists (actions, each lens's
// coverage, gold) element by element: a long run or a large gold is never
// one document in memory. Action and step numbers are 1-based; found_at and
// closest_action are 0 for none. diagnosis holds diagnose.Category keys
// (never_opened … found). The run has at least one action.
func WriteRunJSON(w io.Writer, st *story.Story) error {
	a := st.A
	run := a.Run
	n := len(run.Actions)
	bw := bufio.NewWriterSize(w, 64<<10)
	doc := newJSONObject(bw, "")
	doc.field("instance_id", run.InstanceID)
	doc.field("format", run.Format)
	if run.Agent != "" {
		doc.field("agent", run.Agent)
	}
	if run.Model != "" {
		doc.field("model", run.Model)
	}
	doc.field("semantics", a.Sem.String())
	writeOutcome(doc, &st.Outcome)
	if text, from := a.Task(); text != "" {
		doc.field("task", termsafe.Text(text))
		doc.field("task_from", from)
	}
	if p := run.Patch(); p != "" {
		doc.field("patch", patchJSONOf(a, p))
	}
	doc.list("actions", n, func(i int) any {
		ja := actionJSON(a, i)
		for _, r := range st.Aside.Reads[i] {
			ja.Aside = append(ja.Aside, asideJSON{File: termsafe.Line(r.File), Created: r.Created})
		}
		return ja
	})
	lenses := doc.object("lenses")
	// Keys in the order encoding/json writes a map's: sorted.
	for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
		ld := &a.Lenses[l]
		lo := lenses.object(l.String())
		lo.field("num_steps", st.Lenses[l].Steps)
		lo.list("coverage", n, func(i int) any {
			var c byGran[*float64]
			for _, g := range model.Granularities {
				if a.Computable(l, g) {
					v := ld.CurveAt(g, i)
					*c.at(g) = &v
				}
			}
			return c
		})
		var final byGran[*[2]float64]
		for _, g := range model.Granularities {
			if m := ld.Result.Final.At(g); a.Computable(l, g) {
				*final.at(g) = &[2]float64{m.Coverage, m.Precision}
			}
		}
		lo.field("final_coverage_precision", final)
		var end scoring.LensAction // an empty run read nothing
		if n > 0 {
			end = ld.Actions[n-1]
		}
		lo.field("read_lines", end.CumRead)
		lo.field("reread_lines", end.CumReread)
		if f := &st.Lenses[l]; !f.Scored() {
			lo.field("error", f.Error)
			lo.field("reason", termsafe.Line(f.Reason))
		} else {
			// The run list's figures (story.Figures), under the same keys.
			lo.field("final_line_coverage", f.Coverage)
			lo.field("line_auc", f.AUC)
			lo.field("line_redundancy", f.Redundancy)
			if f.Initial != nil {
				lo.field("initial_recall", *f.Initial)
			}
			if f.BlindEdits != nil {
				lo.field("blind_edits", *f.BlindEdits)
				lo.field("read_before_edit", *f.ReadBeforeEdit)
			}
			lo.field("diagnosis", f.Diagnosis)
		}
		lo.close()
	}
	lenses.close()
	if agents := agentsJSON(st); agents != nil {
		doc.field("agents", agents)
	}
	gold := st.Gold.Spans
	if as := &st.Aside; as.Count() > 0 {
		doc.field("reads_not_in_repo", map[string]int{"created": as.Created, "outside": as.Outside})
	}
	doc.field("gold_from", st.Target.From.String())
	if t := &st.Target; t.From == model.GoldFromEdits {
		tj := targetJSON{Regions: len(t.Lenses[0].Edits), Unlocated: t.Unlocated}
		if t.Unlocated > 0 {
			tj.SoughtIn = t.SoughtIn
		}
		for _, l := range model.Lenses {
			tl := &t.Lenses[l]
			*tj.Lenses.at(l) = targetLensJSON{Lines: tl.Lines, ReadBefore: tl.ReadBefore, Share: tl.Share(), Blind: tl.Blind, Reads: tl.Reads, Unused: tl.Unused}
		}
		doc.field("target", tj)
	} else if t.Unlocated > 0 {
		doc.field("changes_not_found", t.Unlocated)
		doc.field("changes_sought", t.SoughtIn)
	}
	doc.list("gold", len(gold), func(i int) any {
		jg := goldJSON(a.Run, &gold[i])
		if t := &st.Target; t.Lenses[0].Edits != nil {
			jg.Edit = &editReadJSON{EditedAt: t.Lenses[0].Edits[i].EditedAt + 1}
			for _, l := range model.Lenses {
				e := t.Lenses[l].Edits[i]
				*jg.Edit.ReadAt.at(l), *jg.Edit.LinesRead.at(l), *jg.Edit.Blind.at(l) = e.ReadAt+1, e.LinesRead, e.Blind()
			}
		}
		return jg
	})
	if e := a.Lenses[model.LensContextBench].Result.EditLoc; e != nil {
		doc.field("editloc", editJSON{Recall: e.Recall, Precision: e.Precision})
		if a.EditLocFromGold {
			doc.field("editloc_scored_gold_patch", true)
		}
	}
	if a.Partial != nil {
		doc.field("repository_missing", st.RepoMissing)
		var nc []string
		for _, g := range model.Granularities {
			if a.UncomputableAt(g) != "" {
				nc = append(nc, g.String())
			}
		}
		if len(nc) > 0 {
			doc.field("not_computable", nc)
		}
	}
	unread := map[string]int{}
	for k, v := range run.Unread {
		unread[termsafe.Line(k)] = v
	}
	doc.field("unread", unread)
	if len(run.Warnings) > 0 {
		ws := make([]string, len(run.Warnings))
		for i, w := range run.Warnings {
			ws[i] = termsafe.Line(w)
		}
		doc.field("warnings", ws)
	}
	doc.close()
	bw.WriteByte('\n')
	if err := doc.Err(); err != nil {
		return err
	}
	return bw.Flush()
}

func actionJSON(a *scoring.Analysis, i int) runActionJSON {
	act := &a.Run.Actions[i]
	ja := runActionJSON{Index: i + 1, Category: display.Category(act).String(), Command: act.Command, Failed: act.Failure, NotRun: act.NotRun, Pending: act.Pending}
	if act.ExitKnown {
		ja.ExitCode = &act.ExitCode
	}
	for _, c := range act.Changes {
		ja.Changes = append(ja.Changes, changeJSON{File: termsafe.Line(c.File), Kind: changeKinds[c.Kind],
			Old: termsafe.Text(c.Old), New: termsafe.Text(c.New), Line: c.Line, Unrecorded: c.Unrecorded})
	}
	if len(a.Run.Agents) > 1 {
		ag := act.Agent
		ja.Agent = &ag
	}
	for _, l := range model.Lenses {
		ld := &a.Lenses[l]
		*ja.NewGold.at(l) = int(ld.Actions[i].NewGold)
		*ja.Reread.at(l) = int(ld.Actions[i].Reread)
		*ja.Pure.at(l) = ld.Actions[i].PureReread()
		*ja.Steps.at(l) = ld.DoneAt(i)
	}
	return ja
}

func goldJSON(run *model.Run, g *diagnose.GoldSpan) runGoldJSON {
	jg := runGoldJSON{File: g.File(), Start: g.Start(), End: g.End()}
	if len(run.Agents) > 1 {
		jg.FoundBy = &byLens[int]{}
	}
	for _, l := range model.Lenses {
		*jg.FoundAt.at(l) = g.FoundAt(l) + 1
		*jg.Diagnosis.at(l) = g.Category(l).Key()
		*jg.Closest.at(l) = g.Closest(l) + 1
		*jg.InFinal.at(l) = g.InFinal(l)
		if jg.FoundBy != nil {
			*jg.FoundBy.at(l) = story.FoundBy(run, g.FoundAt(l))
		}
	}
	return jg
}

// agentsJSON is the run's agents with their figures under both lenses; nil
// for a run of one agent.
func agentsJSON(st *story.Story) []agentJSON {
	a := st.A
	var out []agentJSON
	for _, l := range model.Lenses {
		for k, f := range st.Agents[l] {
			if len(out) <= k {
				out = append(out, agentJSON{Index: k, ID: termsafe.Line(f.ID), Type: termsafe.Line(f.Type),
					Description: termsafe.Line(f.Description), Parent: f.Parent, Call: f.Call + 1, Depth: f.Depth,
					Actions: f.Actions, Label: termsafe.Line(story.Label(a.Run, k))})
				if r := f.Recorded; r != nil {
					out[k].Recorded = &recordedJSON{r.ToolUses, r.Reads, r.Searches, r.Commands, r.Edits, r.Tokens}
				}
			}
			*out[k].ReadLines.at(l) = f.ReadLines
			*out[k].Reread.at(l) = f.RereadLines
			*out[k].GoldFound.at(l) = f.GoldFound
		}
	}
	return out
}

// outcomeJSON is how the run ended and what it spent (story.Outcome).
type outcomeJSON struct {
	ExitStatus string        `json:"exit_status,omitempty"`
	Submitted  bool          `json:"submitted"`
	Rejected   int           `json:"rejected_submits"`
	Tokens     int           `json:"tokens"`
	TokenSplit *story.Tokens `json:"token_split,omitempty"`
	Seconds    float64       `json:"seconds,omitempty"`
	CostUSD    float64       `json:"cost_usd,omitempty"`
}

func writeOutcome(doc *jsonObject, o *story.Outcome) {
	oj := outcomeJSON{ExitStatus: termsafe.Line(o.ExitStatus), Submitted: o.Submitted, Rejected: o.Rejected,
		Tokens: o.Spend.Tokens.Total(), Seconds: o.Spend.Seconds, CostUSD: o.Spend.CostUSD}
	if o.Spend.Tokens != (story.Tokens{}) {
		t := o.Spend.Tokens
		oj.TokenSplit = &t
	}
	doc.field("outcome", oj)
}
