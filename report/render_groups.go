package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// writeCostMarkdown renders cost against coverage with the Pareto front.
func (r *Report) writeCostMarkdown(w io.Writer) {
	t := r.Cost
	fmt.Fprintf(w, "## Cost vs coverage\n\n")
	var rows [][]string
	for _, c := range t.Rows {
		cost, tokens := "–", "–"
		if c.MeanCostUSD != nil {
			cost = fmt.Sprintf("%.4f", *c.MeanCostUSD)
		}
		if c.MeanTokens != nil {
			tokens = fmt.Sprintf("%.0f", *c.MeanTokens)
		}
		front := "–"
		if _, ok := c.X(t.Axis); ok {
			front = ""
			if c.Front {
				front = "★"
			}
		}
		rows = append(rows, []string{cell(c.Run), fmt.Sprint(c.Instances), cost, fmt.Sprint(c.CostN), tokens, fmt.Sprint(c.TokensN), f3(c.LineCoverage), front})
	}
	table(w, []string{"run", "instances", "mean cost (USD)", "n cost", "mean tokens", "n tokens", "line coverage", "Pareto front"}, "lrrrrrrl", rows)
	frontLine := "**Pareto front** (★), by cost: no other run costs at most as much and covers at least as much, and is strictly better in one. Runs without a cost (–) are left out."
	if t.Axis == AxisTokens {
		frontLine = "**Pareto front** (★), by tokens (no run records a cost): no other run uses at most as many tokens and covers at least as much, and is strictly better in one. Runs without tokens (–) are left out."
	}
	legend(w,
		"**mean cost**: the run's recorded cost per instance, mean over the **n cost** instances that record one; **mean tokens**: input + output tokens summed over an instance's actions, mean over the **n tokens** instances that record them.",
		"**line coverage**: mean final line coverage over all instances, error rows counting 0 (the line R macro).",
		frontLine,
	)
	if t.Unlike != "" {
		fmt.Fprintf(w, "**Warning**: %s.\n\n", t.Unlike)
	}
}

// writeGroupsMarkdown renders the summary per run × group.
func (r *Report) writeGroupsMarkdown(w io.Writer) {
	g := r.Groups
	fmt.Fprintf(w, "## By %s\n\n", g.By)
	var rows [][]string
	for _, gr := range g.Rows {
		row := &gr.Row
		line := []string{cell(gr.Run), cell(gr.Group), fmt.Sprint(row.Instances), fmt.Sprint(row.Valid), cell(errorsText(row.Errors))}
		for _, gran := range model.Granularities {
			line = append(line, f3(row.Final.At(gran).RecallMacro))
		}
		auc := "–"
		if row.Valid > 0 {
			auc = f3(row.Final.Line.AUC)
		}
		line = append(line, f3(row.Final.Line.PrecisionMacro), f3(row.Final.Line.F1Mean), auc, stat(row.Final.Line.DropLastStep))
		rows = append(rows, line)
	}
	table(w, []string{"run", g.By, "instances", "valid", "errors", "file R", "symbol R", "span R", "line R", "line P", "line F1 mean", "line AUC", "usage drop line (last step)"}, "llrrlrrrrrrrr", rows)
	legend(w,
		"**R**, **P**: macro means over the group's instances, error rows counting 0; **F1 mean**: mean of per-instance F1; **AUC**: mean over the group's valid instances; **usage drop (last step)** as defined above. `--format json` carries every column of the summary per group.",
		fmt.Sprintf("The %s is the task's, from the gold it was scored against (`score --format json` results), else from `--gold` by instance id; **%s** when neither names it.", g.By, Unknown),
	)
}

// writeMissedMarkdown renders the gold most runs missed.
func (r *Report) writeMissedMarkdown(w io.Writer) {
	m := r.Missed
	fmt.Fprintf(w, "## Gold missed by most runs (lens %s)\n\n", m.Lens)
	if m.Diagnosed == 0 {
		fmt.Fprintf(w, "No input carries a gold diagnosis: upstream `--out` JSONL results have none. Score with `trajscope score --format json` to diagnose every gold span.\n\n")
		return
	}
	fmt.Fprintf(w, "Over %s with a diagnosis", display.Count(m.Diagnosed, "run"))
	if len(m.Undiagnosed) > 0 {
		names := make([]string, len(m.Undiagnosed))
		for i, n := range m.Undiagnosed {
			names[i] = cell(n)
		}
		fmt.Fprintf(w, " (without: %s)", strings.Join(names, ", "))
	}
	fmt.Fprintf(w, ": %s and %s.\n\n", display.Count(m.TotalSpans, "distinct gold span"), display.Count(m.TotalFiles, "gold file"))
	head := func(first ...string) []string {
		h := append(first, "runs", "missed")
		for c := diagnose.NumCategories - 1; c >= 0; c-- {
			h = append(h, diagnose.Category(c).String())
		}
		return h
	}
	counts := func(it *MissedItem) []string {
		out := []string{fmt.Sprint(it.Runs), fmt.Sprint(it.Missed)}
		for c := diagnose.NumCategories - 1; c >= 0; c-- {
			out = append(out, fmt.Sprint(it.Counts[c]))
		}
		return out
	}
	var rows [][]string
	for i := range m.Spans {
		it := &m.Spans[i]
		rows = append(rows, append([]string{cell(it.InstanceID), cell(it.File), fmt.Sprintf("%d-%d", it.Start, it.End)}, counts(it)...))
	}
	if len(rows) > 0 {
		table(w, head("instance", "file", "lines"), "lllrrrrrrr", rows)
	} else {
		fmt.Fprintf(w, "Every diagnosed gold span was found by every run.\n\n")
	}
	rows = nil
	for i := range m.Files {
		it := &m.Files[i]
		rows = append(rows, append([]string{cell(it.InstanceID), cell(it.File)}, counts(it)...))
	}
	if len(rows) > 0 {
		table(w, head("instance", "gold file"), "llrrrrrrr", rows)
	}
	top := "all"
	if m.Top > 0 {
		top = fmt.Sprintf("at most %d", m.Top)
	}
	legend(w,
		fmt.Sprintf("Sorted by **missed** (runs whose final context lacks it), then by the share missed; %s of each, only gold some run missed. **runs** counts the runs that diagnosed the instance; error rows are not diagnosed.", top),
		"Per run: **found**: in the final context; **read then dropped**: shown during the run, absent from the final context; **near miss**: the file was shown but not these lines; **searched, not read**: only a search listed the file; **never opened**. Files have no near miss.",
	)
}
