package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/internal/runtext"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// WriteRunSummary prints what the explorer shows of one run as plain text,
// for a stdout that is not a terminal: the timeline under one lens, coverage
// after the last step under both lenses, the final context, redundancy,
// EditLoc and every gold span with its diagnosis. The run has at least one
// action.
func WriteRunSummary(w io.Writer, a *scoring.Analysis, lens model.Lens) error {
	b := bufio.NewWriter(w)
	run := a.Run
	n := len(run.Actions)
	fmt.Fprintf(b, "trajscope · %s\n", termsafe.Line(run.InstanceID))
	var meta []string
	for _, kv := range [][2]string{{"format", run.Format}, {"agent", run.Agent}, {"model", run.Model}, {"semantics", a.Sem.String()}} {
		if kv[1] != "" {
			meta = append(meta, kv[0]+" "+termsafe.Line(kv[1]))
		}
	}
	fmt.Fprintln(b, strings.Join(meta, " · "))
	fmt.Fprintf(b, "%s · %s · %s\n", plural(n, "action"),
		plural(a.Lenses[model.LensContextBench].NumSteps, "contextbench step"), plural(a.Lenses[model.LensObserved].NumSteps, "observed step"))
	if a.Partial != nil {
		fmt.Fprintf(b, "%s\n", runtext.NoRepoBanner(a.Partial.Reason()))
		fmt.Fprintf(b, "  %s\n", runtext.NoRepoMetrics)
	}
	fmt.Fprintln(b)

	ld := &a.Lenses[lens]
	fmt.Fprintf(b, "timeline (%s lens: +n new gold lines, %s only re-read, %s command failed)\n", lens, runtext.GlyphReread, runtext.GlyphFailed)
	numW := len(fmt.Sprint(n))
	shorts := runtext.Shorts(a)
	for i := range run.Actions {
		cat := string(runtext.Category(&run.Actions[i]))
		v := &ld.Actions[i]
		mark := ""
		if v.NewGold > 0 {
			mark = fmt.Sprintf("+%d", v.NewGold)
		}
		if v.PureReread {
			mark = strings.TrimSpace(mark + " " + runtext.GlyphReread)
		}
		if run.Actions[i].Failed() {
			mark = strings.TrimSpace(runtext.GlyphFailed + " " + mark)
		}
		cmd := runtext.Truncate(shorts[i], 70)
		line := fmt.Sprintf("  %*d %s %-6s %-70s %s", numW, i+1, runtext.CategoryGlyph(cat), cat, cmd, mark)
		fmt.Fprintln(b, strings.TrimRight(line, " "))
	}

	writeFailures(b, a, lens)

	fmt.Fprintf(b, "\ncoverage after the last step  %7s %7s %7s %7s\n", "file", "symbol", "span", "line")
	last := n - 1
	for _, l := range model.Lenses {
		fmt.Fprintf(b, "  %-27s", l.String()+" lens")
		for _, g := range model.Granularities {
			fmt.Fprintf(b, " %7s", value(a, g, a.Lenses[l].CurveAt(g, last)))
		}
		fmt.Fprintln(b)
	}
	res := &ld.Result
	if res.Error != "" {
		fmt.Fprintf(b, "  score: %s %s\n", res.Error, termsafe.Line(res.Reason))
	}
	var fin []string
	for _, g := range model.Granularities {
		m := res.Final.At(g)
		if !a.Computable(g) {
			fin = append(fin, fmt.Sprintf("%s %s", g, runtext.NotComputable))
			continue
		}
		fin = append(fin, fmt.Sprintf("%s %.2f/%.2f", g, m.Coverage, m.Precision))
	}
	fmt.Fprintf(b, "  final context (coverage/precision): %s\n", strings.Join(fin, " · "))
	end := &ld.Actions[last]
	fmt.Fprintf(b, "  redundancy: re-read %d/%d lines (%s)\n", end.CumReread, end.CumRead, runtext.Ratio(end.CumReread, end.CumRead))
	if e := res.EditLoc; e != nil {
		fmt.Fprintf(b, "  EditLoc: recall %.2f precision %.2f", e.Recall, e.Precision)
		if a.EditLocFromGold {
			fmt.Fprintf(b, " (%s)", runtext.EditLocGoldPatch)
		}
		fmt.Fprintln(b)
	}

	gold := diagnose.DiagnoseRun(a).Spans
	fmt.Fprintf(b, "\ngold (%s lens): first read, and what became of it by the end\n", lens)
	if len(gold) == 0 {
		fmt.Fprintln(b, "  no gold context")
	}
	for k := range gold {
		g := &gold[k]
		lines := "whole file"
		if !g.FileLevel() {
			lines = fmt.Sprintf("%d-%d", g.Start(), g.End())
		}
		// "read", not "found": found is a diagnosis category.
		found := "never read"
		if at := g.FoundAt(lens); at >= 0 {
			found = fmt.Sprintf("read @%d", at+1)
		}
		fmt.Fprintf(b, "  %-32s %-9s %-11s %s\n", termsafe.Line(g.File()), lines, found, g.Describe(lens))
	}
	return b.Flush()
}

// value is a coverage figure, or n/a where the analysis cannot compute it.
func value(a *scoring.Analysis, g model.Granularity, v float64) string {
	if !a.Computable(g) {
		return runtext.NotComputable
	}
	return fmt.Sprintf("%.2f", v)
}

// writeFailures lists the failed commands and what the lens still counts of
// them: the evaluator counts a failed action's steps like any other.
func writeFailures(b *bufio.Writer, a *scoring.Analysis, lens model.Lens) {
	first := true
	for i := range a.Run.Actions {
		act := &a.Run.Actions[i]
		if !act.Failed() {
			continue
		}
		if first {
			fmt.Fprintf(b, "\nfailed commands (%s)\n", runtext.GlyphFailed)
			first = false
		}
		fmt.Fprintf(b, "  %d %s\n", i+1, termsafe.Line(act.Failure))
		if note := runtext.FailedButCounted(a, lens, i); note != "" {
			fmt.Fprintf(b, "    %s\n", note)
		}
	}
}

// The JSON form: stable keys, lens-keyed values.
type runJSON struct {
	InstanceID string                 `json:"instance_id"`
	Format     string                 `json:"format"`
	Agent      string                 `json:"agent,omitempty"`
	Model      string                 `json:"model,omitempty"`
	Semantics  string                 `json:"semantics"`
	Actions    []runActionJSON        `json:"actions"`
	Lenses     map[string]runLensJSON `json:"lenses"`
	Gold       []runGoldJSON          `json:"gold"`
	Edit       map[string]float64     `json:"editloc,omitempty"`
	// EditGold: the run has no patch and EditLoc scored the gold patch.
	EditGold bool `json:"editloc_scored_gold_patch,omitempty"`
	// NoRepo says why the repository is missing; the measures then come
	// from the lines the run displayed and NotComputable lists those that
	// cannot (null in coverage and final).
	NoRepo        string   `json:"repository_missing,omitempty"`
	NotComputable []string `json:"not_computable,omitempty"`
}

type runActionJSON struct {
	Index    int             `json:"index"`
	Category string          `json:"category"`
	Command  string          `json:"command"`
	NewGold  map[string]int  `json:"new_gold"`
	Reread   map[string]int  `json:"reread_lines"`
	Pure     map[string]bool `json:"pure_reread"`
	Steps    map[string]int  `json:"steps_done"`
	Failed   string          `json:"failed,omitempty"`
	ExitCode *int            `json:"exit_code,omitempty"`
}

type runLensJSON struct {
	NumSteps int                    `json:"num_steps"`
	Coverage []map[string]*float64  `json:"coverage"`
	Final    map[string]*[2]float64 `json:"final_coverage_precision"`
	Read     int                    `json:"read_lines"`
	Reread   int                    `json:"reread_lines"`
	Error    string                 `json:"error,omitempty"`
}

type runGoldJSON struct {
	File      string            `json:"file"`
	Start     int               `json:"start,omitempty"`
	End       int               `json:"end,omitempty"`
	FoundAt   map[string]int    `json:"found_at"`
	Diagnosis map[string]string `json:"diagnosis"`
	Closest   map[string]int    `json:"closest_action"`
	InFinal   bool              `json:"in_final"`
}

// WriteRunJSON prints the machine form of the run summary (view --json).
// Action and step numbers are 1-based; found_at and closest_action are 0 for
// none. diagnosis holds diagnose.Category keys (never_opened … found). The
// run has at least one action.
func WriteRunJSON(w io.Writer, a *scoring.Analysis) error {
	run := a.Run
	n := len(run.Actions)
	out := runJSON{
		InstanceID: run.InstanceID, Format: run.Format, Agent: run.Agent, Model: run.Model,
		Semantics: a.Sem.String(), Lenses: map[string]runLensJSON{}, Actions: []runActionJSON{}, Gold: []runGoldJSON{},
	}
	for i := range run.Actions {
		act := &run.Actions[i]
		ja := runActionJSON{Index: i + 1, Category: string(runtext.Category(act)), Command: act.Command,
			NewGold: map[string]int{}, Reread: map[string]int{}, Pure: map[string]bool{}, Steps: map[string]int{},
			Failed: act.Failure}
		if act.ExitKnown {
			ja.ExitCode = &act.ExitCode
		}
		for _, l := range model.Lenses {
			ld, name := &a.Lenses[l], l.String()
			ja.NewGold[name] = ld.Actions[i].NewGold
			ja.Reread[name] = ld.Actions[i].Reread
			ja.Pure[name] = ld.Actions[i].PureReread
			ja.Steps[name] = ld.StepsDone[i]
		}
		out.Actions = append(out.Actions, ja)
	}
	for _, l := range model.Lenses {
		ld := &a.Lenses[l]
		jl := runLensJSON{NumSteps: ld.NumSteps, Final: map[string]*[2]float64{}, Error: ld.Result.Error}
		for i := 0; i < n; i++ {
			c := map[string]*float64{}
			for _, g := range model.Granularities {
				if a.Computable(g) {
					v := ld.CurveAt(g, i)
					c[g.String()] = &v
				} else {
					c[g.String()] = nil
				}
			}
			jl.Coverage = append(jl.Coverage, c)
		}
		for _, g := range model.Granularities {
			m := ld.Result.Final.At(g)
			jl.Final[g.String()] = nil
			if a.Computable(g) {
				jl.Final[g.String()] = &[2]float64{m.Coverage, m.Precision}
			}
		}
		jl.Read, jl.Reread = ld.Actions[n-1].CumRead, ld.Actions[n-1].CumReread
		out.Lenses[l.String()] = jl
	}
	if e := a.Lenses[model.LensContextBench].Result.EditLoc; e != nil {
		out.Edit = map[string]float64{"recall": e.Recall, "precision": e.Precision}
		out.EditGold = a.EditLocFromGold
	}
	if a.Partial != nil {
		out.NoRepo = a.Partial.Reason()
		for _, g := range model.Granularities {
			if !a.Computable(g) {
				out.NotComputable = append(out.NotComputable, g.String())
			}
		}
	}
	for _, g := range diagnose.DiagnoseRun(a).Spans {
		jg := runGoldJSON{File: g.File(), Start: g.Start(), End: g.End(), InFinal: g.InFinal(),
			FoundAt: map[string]int{}, Diagnosis: map[string]string{}, Closest: map[string]int{}}
		for _, l := range model.Lenses {
			jg.FoundAt[l.String()] = g.FoundAt(l) + 1
			jg.Diagnosis[l.String()] = g.Category(l).Key()
			jg.Closest[l.String()] = g.Closest(l) + 1
		}
		out.Gold = append(out.Gold, jg)
	}
	buf, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(termsafe.JSON(buf), '\n'))
	return err
}
