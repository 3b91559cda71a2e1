package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// The JSON form: stable keys, lens-keyed values. The lists that grow with the
// run or the gold (actions, each lens's coverage, gold) are marshalled as
// empty placeholders and written element by element in their place (see
// writeStreamed), so a run of a million actions or a gold of a million spans
// is never one document in memory.
type runJSON struct {
	InstanceID string                 `json:"instance_id"`
	Format     string                 `json:"format"`
	Agent      string                 `json:"agent,omitempty"`
	Model      string                 `json:"model,omitempty"`
	Semantics  string                 `json:"semantics"`
	Actions    json.RawMessage        `json:"actions"` // []runActionJSON
	Lenses     map[string]runLensJSON `json:"lenses"`
	Gold       json.RawMessage        `json:"gold"` // []runGoldJSON
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
	ExitCode *int32          `json:"exit_code,omitempty"`
}

type runLensJSON struct {
	NumSteps int                    `json:"num_steps"`
	Coverage json.RawMessage        `json:"coverage"` // []map[string]*float64, one per action
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

// placeholder is what a streamed list is marshalled as.
var placeholder = json.RawMessage("[]")

// WriteRunJSON prints the machine form of the run summary (view --json).
// Action and step numbers are 1-based; found_at and closest_action are 0 for
// none. diagnosis holds diagnose.Category keys (never_opened … found). The
// run has at least one action.
func WriteRunJSON(w io.Writer, a *scoring.Analysis) error {
	out, lists := runDoc(a)
	doc, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeStreamed(bw, doc, lists); err != nil {
		return err
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

// runDoc is the document with its long lists as placeholders, and the
// lists in document order.
func runDoc(a *scoring.Analysis) (runJSON, []streamed) {
	run := a.Run
	n := len(run.Actions)
	out := runJSON{
		InstanceID: run.InstanceID, Format: run.Format, Agent: run.Agent, Model: run.Model,
		Semantics: a.Sem.String(), Lenses: map[string]runLensJSON{}, Actions: placeholder, Gold: placeholder,
	}
	lists := []streamed{{key: "actions", indent: 2, n: n, elem: func(i int) any { return actionJSON(a, i) }}}
	for _, l := range model.Lenses {
		ld := &a.Lenses[l]
		jl := runLensJSON{NumSteps: ld.NumSteps, Coverage: placeholder, Final: map[string]*[2]float64{}, Error: ld.Result.Error}
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
	// The lenses are a map: encoding/json writes them in key order.
	for _, l := range sortedLenses() {
		lists = append(lists, streamed{key: "coverage", indent: 6, n: n, elem: func(i int) any { return coverageJSON(a, l, i) }})
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
	gold := diagnose.DiagnoseRun(a).Spans
	lists = append(lists, streamed{key: "gold", indent: 2, n: len(gold), elem: func(i int) any { return goldJSON(&gold[i]) }})
	return out, lists
}

// sortedLenses is model.Lenses in the order of their names, as a map keyed
// by them is written.
func sortedLenses() []model.Lens {
	return slices.SortedFunc(slices.Values(model.Lenses[:]), func(x, y model.Lens) int { return strings.Compare(x.String(), y.String()) })
}

func actionJSON(a *scoring.Analysis, i int) runActionJSON {
	act := &a.Run.Actions[i]
	ja := runActionJSON{Index: i + 1, Category: display.Category(act).String(), Command: act.Command,
		NewGold: map[string]int{}, Reread: map[string]int{}, Pure: map[string]bool{}, Steps: map[string]int{},
		Failed: act.Failure}
	if act.ExitKnown {
		ja.ExitCode = &act.ExitCode
	}
	for _, l := range model.Lenses {
		ld, name := &a.Lenses[l], l.String()
		ja.NewGold[name] = int(ld.Actions[i].NewGold)
		ja.Reread[name] = int(ld.Actions[i].Reread)
		ja.Pure[name] = ld.Actions[i].PureReread()
		ja.Steps[name] = ld.StepsDone[i]
	}
	return ja
}

func coverageJSON(a *scoring.Analysis, l model.Lens, i int) map[string]*float64 {
	c := map[string]*float64{}
	for _, g := range model.Granularities {
		c[g.String()] = nil
		if a.Computable(g) {
			v := a.Lenses[l].CurveAt(g, i)
			c[g.String()] = &v
		}
	}
	return c
}

func goldJSON(g *diagnose.GoldSpan) runGoldJSON {
	jg := runGoldJSON{File: g.File(), Start: g.Start(), End: g.End(), InFinal: g.InFinal(),
		FoundAt: map[string]int{}, Diagnosis: map[string]string{}, Closest: map[string]int{}}
	for _, l := range model.Lenses {
		jg.FoundAt[l.String()] = g.FoundAt(l) + 1
		jg.Diagnosis[l.String()] = g.Category(l).Key()
		jg.Closest[l.String()] = g.Closest(l) + 1
	}
	return jg
}

// streamed is a list marshalled as a placeholder: the n elements of the
// field key whose line is indented by indent spaces.
type streamed struct {
	key    string
	indent int
	n      int
	elem   func(i int) any
}

// writeStreamed writes doc (json.MarshalIndent with two-space indents) with
// each list written in place of its placeholder, in document order, exactly
// as MarshalIndent would have written the whole (termsafe-escaped). A
// placeholder is found by its key at the start of a line with its indent: a
// raw newline only occurs between values, never inside a string, so nothing
// a run holds can look like one.
func writeStreamed(w *bufio.Writer, doc []byte, lists []streamed) error {
	for _, l := range lists {
		mark := []byte(fmt.Sprintf("\n%s%q: %s", strings.Repeat(" ", l.indent), l.key, placeholder))
		at := bytes.Index(doc, mark)
		if at < 0 {
			return fmt.Errorf("view --json: no %q list at indent %d", l.key, l.indent)
		}
		head := len(mark) - len(placeholder)
		w.Write(termsafe.JSON(doc[:at+head]))
		doc = doc[at+len(mark):]
		if l.n == 0 {
			w.Write(placeholder)
			continue
		}
		inner := strings.Repeat(" ", l.indent+2)
		w.WriteString("[\n" + inner)
		for i := range l.n {
			b, err := json.MarshalIndent(l.elem(i), inner, "  ")
			if err != nil {
				return err
			}
			if i > 0 {
				w.WriteString(",\n" + inner)
			}
			w.Write(termsafe.JSON(b))
		}
		w.WriteString("\n" + strings.Repeat(" ", l.indent) + "]")
	}
	_, err := w.Write(termsafe.JSON(doc))
	return err
}
