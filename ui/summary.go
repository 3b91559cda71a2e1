package ui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/ui/common"
	"github.com/trajscope/trajscope/ui/metrics"
)

// WriteSummary prints what the explorer shows as plain text, for a stdout
// that is not a terminal: the timeline under one lens, coverage after the
// last step under both lenses, the final context, redundancy, EditLoc and
// every gold span with its diagnosis.
func WriteSummary(w io.Writer, a *scoring.Analysis, lens model.Lens) error {
	d := common.NewData(a)
	b := bufio.NewWriter(w)
	run := d.Run
	fmt.Fprintf(b, "trajscope · %s\n", termsafe.Line(run.InstanceID))
	var meta []string
	for _, kv := range [][2]string{{"format", run.Format}, {"agent", run.Agent}, {"model", run.Model}, {"semantics", a.Sem.String()}} {
		if kv[1] != "" {
			meta = append(meta, kv[0]+" "+termsafe.Line(kv[1]))
		}
	}
	fmt.Fprintln(b, strings.Join(meta, " · "))
	fmt.Fprintf(b, "%s · %s · %s\n\n", plural(d.N, "action"),
		plural(d.Lens[model.LensContextBench].NumSteps, "contextbench step"), plural(d.Lens[model.LensObserved].NumSteps, "observed step"))

	ld := &d.Lens[lens]
	fmt.Fprintf(b, "timeline (%s lens: +n new gold lines, %s only re-read)\n", lens, common.GlyphReread)
	numW := len(fmt.Sprint(d.N))
	for i := range run.Actions {
		cat := string(common.Category(&run.Actions[i]))
		mark := ""
		if n := ld.NewGold[i]; n > 0 {
			mark = fmt.Sprintf("+%d", n)
		}
		if ld.Pure[i] {
			mark = strings.TrimSpace(mark + " " + common.GlyphReread)
		}
		cmd := common.Truncate(d.Short[i], 70)
		line := fmt.Sprintf("  %*d %s %-6s %-70s %s", numW, i+1, common.CategoryGlyph(cat), cat, cmd, mark)
		fmt.Fprintln(b, strings.TrimRight(line, " "))
	}

	fmt.Fprintf(b, "\ncoverage after the last step  %7s %7s %7s %7s\n", "file", "symbol", "span", "line")
	last := d.N - 1
	for _, l := range []model.Lens{model.LensContextBench, model.LensObserved} {
		cov := d.Lens[l].Cov
		fmt.Fprintf(b, "  %-27s %7.2f %7.2f %7.2f %7.2f\n", l.String()+" lens", cov[0][last], cov[1][last], cov[2][last], cov[3][last])
	}
	res := ld.Result
	if res.Error != "" {
		fmt.Fprintf(b, "  score: %s %s\n", res.Error, termsafe.Line(res.Reason))
	}
	var fin []string
	for _, g := range model.Granularities {
		m := res.Final.At(g)
		fin = append(fin, fmt.Sprintf("%s %.2f/%.2f", g, m.Coverage, m.Precision))
	}
	fmt.Fprintf(b, "  final context (coverage/precision): %s\n", strings.Join(fin, " · "))
	fmt.Fprintf(b, "  redundancy: re-read %d/%d lines (%s)\n", ld.CumReread[last], ld.CumRead[last], metrics.Ratio(ld.CumReread[last], ld.CumRead[last]))
	if e := res.EditLoc; e != nil {
		fmt.Fprintf(b, "  EditLoc: recall %.2f precision %.2f\n", e.Recall, e.Precision)
	}

	fmt.Fprintf(b, "\ngold (%s lens): first read, and what became of it by the end\n", lens)
	if len(d.Gold) == 0 {
		fmt.Fprintln(b, "  no gold context")
	}
	for k := range d.Gold {
		g := &d.Gold[k]
		lines := "whole file"
		if !g.FileLevel {
			lines = fmt.Sprintf("%d-%d", g.Start, g.End)
		}
		// "read", not "found": found is a diagnosis category.
		found := "never read"
		if at := g.FoundAt[lens]; at >= 0 {
			found = fmt.Sprintf("read @%d", at+1)
		}
		fmt.Fprintf(b, "  %-32s %-9s %-11s %s\n", termsafe.Line(g.File), lines, found, g.Describe(lens))
	}
	return b.Flush()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// The JSON form: stable keys, lens-keyed values.
type jsonSummary struct {
	InstanceID string              `json:"instance_id"`
	Format     string              `json:"format"`
	Agent      string              `json:"agent,omitempty"`
	Model      string              `json:"model,omitempty"`
	Semantics  string              `json:"semantics"`
	Actions    []jsonAction        `json:"actions"`
	Lenses     map[string]jsonLens `json:"lenses"`
	Gold       []jsonGold          `json:"gold"`
	Edit       map[string]float64  `json:"editloc,omitempty"`
}

type jsonAction struct {
	Index    int             `json:"index"`
	Category string          `json:"category"`
	Command  string          `json:"command"`
	NewGold  map[string]int  `json:"new_gold"`
	Reread   map[string]int  `json:"reread_lines"`
	Pure     map[string]bool `json:"pure_reread"`
	Steps    map[string]int  `json:"steps_done"`
}

type jsonLens struct {
	NumSteps int                   `json:"num_steps"`
	Coverage []map[string]float64  `json:"coverage"`
	Final    map[string][2]float64 `json:"final_coverage_precision"`
	Read     int                   `json:"read_lines"`
	Reread   int                   `json:"reread_lines"`
	Error    string                `json:"error,omitempty"`
}

type jsonGold struct {
	File      string            `json:"file"`
	Start     int               `json:"start,omitempty"`
	End       int               `json:"end,omitempty"`
	FoundAt   map[string]int    `json:"found_at"`
	Diagnosis map[string]string `json:"diagnosis"`
	Closest   map[string]int    `json:"closest_action"`
	InFinal   bool              `json:"in_final"`
}

// WriteJSON prints the machine form of the summary (--json). Action and
// step numbers are 1-based; found_at and closest_action are 0 for none.
// diagnosis holds diagnose.Category keys (never_opened … found).
func WriteJSON(w io.Writer, a *scoring.Analysis) error {
	d := common.NewData(a)
	lensName := func(l int) string { return model.Lens(l).String() }
	out := jsonSummary{
		InstanceID: d.Run.InstanceID, Format: d.Run.Format, Agent: d.Run.Agent, Model: d.Run.Model,
		Semantics: a.Sem.String(), Lenses: map[string]jsonLens{}, Actions: []jsonAction{}, Gold: []jsonGold{},
	}
	for i := range d.Run.Actions {
		act := &d.Run.Actions[i]
		ja := jsonAction{Index: i + 1, Category: string(common.Category(act)), Command: act.Command,
			NewGold: map[string]int{}, Reread: map[string]int{}, Pure: map[string]bool{}, Steps: map[string]int{}}
		for l := range d.Lens {
			ld := &d.Lens[l]
			ja.NewGold[lensName(l)] = ld.NewGold[i]
			ja.Reread[lensName(l)] = ld.Reread[i]
			ja.Pure[lensName(l)] = ld.Pure[i]
			ja.Steps[lensName(l)] = ld.StepsDone[i]
		}
		out.Actions = append(out.Actions, ja)
	}
	for l := range d.Lens {
		ld := &d.Lens[l]
		jl := jsonLens{NumSteps: ld.NumSteps, Final: map[string][2]float64{}, Error: ld.Result.Error}
		for i := 0; i < d.N; i++ {
			c := map[string]float64{}
			for g, name := range model.Granularities {
				c[name.String()] = ld.Cov[g][i]
			}
			jl.Coverage = append(jl.Coverage, c)
		}
		for _, name := range model.Granularities {
			m := ld.Result.Final.At(name)
			jl.Final[name.String()] = [2]float64{m.Coverage, m.Precision}
		}
		jl.Read, jl.Reread = ld.CumRead[d.N-1], ld.CumReread[d.N-1]
		out.Lenses[lensName(l)] = jl
	}
	if e := d.Lens[0].Result.EditLoc; e != nil {
		out.Edit = map[string]float64{"recall": e.Recall, "precision": e.Precision}
	}
	for k := range d.Gold {
		g := &d.Gold[k]
		jg := jsonGold{File: g.File, Start: g.Start, End: g.End, InFinal: g.InFinal,
			FoundAt: map[string]int{}, Diagnosis: map[string]string{}, Closest: map[string]int{}}
		for l := range d.Lens {
			jg.FoundAt[lensName(l)] = g.FoundAt[l] + 1
			jg.Diagnosis[lensName(l)] = g.Category(model.Lens(l)).Key()
			jg.Closest[lensName(l)] = g.Closest(model.Lens(l)) + 1
		}
		out.Gold = append(out.Gold, jg)
	}
	buf, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(jsonSafe(buf), '\n'))
	return err
}

// jsonSafe escapes the runes encoding/json leaves raw that a terminal may
// still act on (C1 controls, bidirectional overrides), so --json printed to
// a terminal stays inert. They can only occur inside strings, where \uXXXX
// means the same.
func jsonSafe(b []byte) []byte {
	s := string(b)
	if !strings.ContainsFunc(s, needsEscape) {
		return b
	}
	var out strings.Builder
	for _, r := range s {
		if needsEscape(r) {
			fmt.Fprintf(&out, `\u%04x`, r)
			continue
		}
		out.WriteRune(r)
	}
	return []byte(out.String())
}

func needsEscape(r rune) bool {
	return (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x7f
}
