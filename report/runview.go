package report

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// WriteRunSummary prints what the explorer shows of one run as plain text,
// for a stdout that is not a terminal: the timeline under one lens, coverage
// after the last step under both lenses, the final context, redundancy,
// EditLoc and every gold span with its diagnosis. The run has at least one
// action.
func WriteRunSummary(w io.Writer, st *story.Story, lens model.Lens) error {
	b := bufio.NewWriter(w)
	a := st.A
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
	fmt.Fprintf(b, "%s · %s · %s\n", display.Count(n, "action"),
		display.Count(st.Lenses[model.LensContextBench].Steps, "contextbench step"), display.Count(st.Lenses[model.LensObserved].Steps, "observed step"))
	if out := display.OutcomeWords(&st.Outcome); out != "" {
		fmt.Fprintf(b, "outcome: %s\n", termsafe.Line(out))
	}
	if sp := display.SpendWords(st.Outcome.Spend); sp != "" {
		fmt.Fprintf(b, "spent: %s", sp)
		if split := display.TokenSplit(st.Outcome.Spend.Tokens); split != "" {
			fmt.Fprintf(b, " (%s)", split)
		}
		fmt.Fprintln(b)
	}
	if t := display.TargetWords(&st.Target, lens); t != "" {
		fmt.Fprintf(b, "%s\n", t)
	}
	if w := display.AsideWords(&st.Aside); w != "" {
		fmt.Fprintf(b, "%s\n", w)
	}
	if a.Partial != nil {
		fmt.Fprintf(b, "%s\n", display.NoRepoBanner(st.RepoMissing))
		fmt.Fprintf(b, "  %s\n", display.NoRepoMetrics)
	}
	if u := story.UnreadWords(run, 4); u != "" {
		fmt.Fprintf(b, "%s\n", termsafe.Line(u))
	}
	for _, w := range run.Warnings {
		fmt.Fprintf(b, "warning: %s\n", termsafe.Line(w))
	}
	if run.MoreWarnings > 0 {
		fmt.Fprintf(b, "warning: %d more\n", run.MoreWarnings)
	}
	ld := &a.Lenses[lens]
	if agents := st.Agents[lens]; agents != nil {
		fmt.Fprintf(b, "agents (%s lens): actions, lines read (re-read), gold spans first read\n", lens)
		for _, f := range agents {
			who := story.Label(run, f.Index)
			if f.Index > 0 && f.Call >= 0 {
				who += fmt.Sprintf(", started @%d", f.Call+1)
			}
			who = display.Indent(int(f.Depth), "  ") + termsafe.Line(who)
			fmt.Fprintf(b, "  %-40s %5d %7d (%d) %4d\n", display.Truncate(who, 40), f.Actions, f.ReadLines, f.RereadLines, f.GoldFound)
			if f.Recorded != nil {
				fmt.Fprintf(b, "  %s  %s\n", display.Indent(int(f.Depth), "  "), display.RecordedWork(f.Recorded))
			}
		}
	}
	fmt.Fprintln(b)

	fmt.Fprintf(b, "timeline (%s lens: +n new gold lines, %s only re-read, %s command failed", lens, display.GlyphReread, display.GlyphFailed)
	if st.Aside.Count() > 0 {
		fmt.Fprintf(b, ", %s read a file not in the repository", display.GlyphAside)
	}
	fmt.Fprintln(b, ")")
	numW := len(fmt.Sprint(n))
	// Each row's command is made as it is printed: a long run's would
	// otherwise be held all at once. Listed as the explorer lists them:
	// each sub-agent's actions under the call that started it.
	for _, i := range run.Grouped() {
		cat := display.Category(&run.Actions[i]).String()
		v := &ld.Actions[i]
		mark := ""
		if v.NewGold > 0 {
			mark = fmt.Sprintf("+%d", v.NewGold)
		}
		if v.PureReread() {
			mark = strings.TrimSpace(mark + " " + display.GlyphReread)
		}
		if run.Actions[i].Failed() {
			mark = strings.TrimSpace(display.GlyphFailed + " " + mark)
		}
		if st.Aside.Reads[i] != nil {
			mark = strings.TrimSpace(mark + " " + display.GlyphAside)
		}
		if run.Actions[i].Pending {
			mark = strings.TrimSpace(mark + " " + display.PendingWord(false))
		}
		cmd := display.Short(a, i)
		if run.Actions[i].Sidechain() {
			cmd = display.GlyphSidechain + " " + termsafe.Line(story.Label(run, int(run.Actions[i].Agent))) + ": " + cmd
		}
		cmd = display.Truncate(cmd, 70)
		line := fmt.Sprintf("  %*d %s %-6s %-70s %s", numW, i+1, display.ActionGlyph(&run.Actions[i]), cat, cmd, mark)
		fmt.Fprintln(b, strings.TrimRight(line, " "))
	}

	writeFailures(b, a, lens)

	fmt.Fprintf(b, "\ncoverage after the last step  %7s %7s %7s %7s\n", "file", "symbol", "span", "line")
	last := n - 1
	for _, l := range model.Lenses {
		fmt.Fprintf(b, "  %-27s", l.String()+" lens")
		for _, g := range model.Granularities {
			fmt.Fprintf(b, " %7s", value(a, l, g, a.Lenses[l].CurveAt(g, last)))
		}
		fmt.Fprintln(b)
	}
	res := &ld.Result
	if f := &st.Lenses[lens]; !f.Scored() {
		fmt.Fprintf(b, "  %s lens not scored: %s", lens, f.Error)
		if f.Reason != "" {
			fmt.Fprintf(b, " (%s)", termsafe.Line(f.Reason))
		}
		fmt.Fprintln(b)
	}
	var fin []string
	for _, g := range model.Granularities {
		m := res.Final.At(g)
		if !a.Computable(lens, g) {
			fin = append(fin, fmt.Sprintf("%s %s", g, display.Missing(a.GoldEmpty())))
			continue
		}
		fin = append(fin, fmt.Sprintf("%s %.2f/%.2f", g, m.Coverage, m.Precision))
	}
	fmt.Fprintf(b, "  final context (coverage/precision): %s\n", strings.Join(fin, " · "))
	if ld.FinalStandIn {
		fmt.Fprintf(b, "  %s\n", story.FinalStandIn)
	}
	var end scoring.LensAction // an empty run read nothing
	if last >= 0 {
		end = ld.Actions[last]
	}
	fmt.Fprintf(b, "  redundancy: re-read %d/%d lines (%s)\n", end.CumReread, end.CumRead, display.Ratio(end.CumReread, end.CumRead))
	if why := a.Uncomputable(lens, model.GranLine); why != "" && res.EditLoc != nil {
		fmt.Fprintf(b, "  EditLoc: n/a (%s)\n", why) // it counts gold lines
	} else if e := res.EditLoc; e != nil {
		fmt.Fprintf(b, "  EditLoc (this run): recall %.2f precision %.2f", e.Recall, e.Precision)
		if a.EditLocFromGold {
			fmt.Fprintf(b, " (%s)", display.EditLocGoldPatch)
		}
		fmt.Fprintln(b)
	}

	gold := st.Gold.Spans
	fmt.Fprintf(b, "\ngold (%s lens): first read, and what became of it by the end\n", lens)
	if len(gold) == 0 {
		fmt.Fprintln(b, "  "+display.EmptyTarget(&st.Target))
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
		desc := g.Describe(lens)
		if eds := st.Target.Lenses[lens].Edits; eds != nil {
			desc = display.EditWords(eds[k]) + "; " + desc
		}
		if by := story.FoundByWords(run, g.FoundAt(lens)); by != "" {
			desc += " (" + termsafe.Line(by) + ")"
		}
		fmt.Fprintf(b, "  %-32s %-9s %-11s %s\n", termsafe.Line(g.File()), lines, found, desc)
	}
	return b.Flush()
}

// value is a coverage figure, or n/a where the analysis cannot compute it.
func value(a *scoring.Analysis, l model.Lens, g model.Granularity, v float64) string {
	return display.Figure(v, a.Computable(l, g), a.GoldEmpty())
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
			fmt.Fprintf(b, "\nfailed commands (%s)\n", display.GlyphFailed)
			first = false
		}
		fmt.Fprintf(b, "  %d %s\n", i+1, termsafe.Line(act.Failure))
		if note := display.FailedButCounted(a, lens, i); note != "" {
			fmt.Fprintf(b, "    %s\n", note)
		}
	}
}
