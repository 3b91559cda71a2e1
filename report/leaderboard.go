package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// LeaderboardEntry is one agent's entry as the ContextBench leaderboard
// publishes it (its agent_results.json), computed from its results. Every
// figure's definition is in the README ("The leaderboard entry").
type LeaderboardEntry struct {
	Model       string                 `json:"model"`
	Performance LeaderboardPerformance `json:"performance"`
	Patterns    LeaderboardPatterns    `json:"patterns"`
	Dynamics    LeaderboardDynamics    `json:"dynamics"`
}

// LeaderboardPerformance is recall, precision and F1 per granularity
// ("block" is the symbol granularity) and pass@1.
type LeaderboardPerformance struct {
	File  LeaderboardFigures `json:"file"`
	Block LeaderboardFigures `json:"block"`
	Line  LeaderboardFigures `json:"line"`
	// PassAt1 is the share of instances resolved; nil without --resolved.
	PassAt1 *float64 `json:"pass_at_1"`
}

// LeaderboardFigures are means over instances, errors counting 0.
type LeaderboardFigures struct {
	Recall    float64 `json:"recall"`
	Precision float64 `json:"precision"`
	F1        float64 `json:"f1"`
}

// LeaderboardPatterns are the run's shape: steps, lines per step, cost.
type LeaderboardPatterns struct {
	// AvgSteps is null for a model with no valid task (nothing to
	// average), as are the trajectory figures.
	AvgSteps     *float64 `json:"avg_steps_per_instance"`
	LinesPerStep *float64 `json:"avg_lines_per_step"`
	AvgCost      *float64 `json:"avg_cost_per_instance"`
}

// LeaderboardDynamics are the trajectory figures.
type LeaderboardDynamics struct {
	Efficiency *float64 `json:"efficiency"`
	Redundancy *float64 `json:"redundancy"`
	UsageDrop  *float64 `json:"usage_drop"`
}

// round3 rounds as the leaderboard prints its figures.
func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

func ptr3(v float64) *float64 { v = round3(v); return &v }

// Leaderboard computes a run's entry. resolved, when not nil, holds the
// instance ids a test harness resolved (pass@1 is their share of the run's
// instances).
func Leaderboard(run *ResultFile, resolved map[string]bool) LeaderboardEntry {
	row := Summarize(run, model.LensContextBench.String())
	e := LeaderboardEntry{Model: run.Label}
	switch names, counts := ModelsOf(run); len(names) {
	case 0:
	case 1:
		e.Model = names[0]
	default:
		// Runs of several models in one file: the entry is theirs
		// together, and says so (--group model gives each its own).
		parts := make([]string, len(names))
		for i, n := range names {
			w := "runs"
			if counts[n] == 1 {
				w = "run"
			}
			parts[i] = fmt.Sprintf("%s (%d %s)", n, counts[n], w)
		}
		e.Model = fmt.Sprintf("%d models: %s", len(names), strings.Join(parts, ", "))
	}
	fig := func(g model.Granularity) LeaderboardFigures {
		s := row.Final.At(g)
		return LeaderboardFigures{Recall: round3(s.RecallMacro), Precision: round3(s.PrecisionMacro), F1: round3(s.F1Mean)}
	}
	e.Performance.File, e.Performance.Block, e.Performance.Line = fig(model.GranFile), fig(model.GranSymbol), fig(model.GranLine)
	if resolved != nil {
		ids := make([]string, len(run.Instances))
		for i := range run.Instances {
			ids[i] = run.Instances[i].Result.InstanceID
		}
		e.PassAt1(ids, resolved)
	}
	var steps, valid, lines, lineSteps, cost, costed float64
	for i := range run.Instances {
		in := &run.Instances[i]
		if in.Result.Error == "" {
			steps += float64(in.Result.NumSteps)
			valid++
		}
		if le := in.Extras.Lens(model.LensContextBench.String()); le != nil && in.Result.Error == "" {
			lines += float64(le.ReadLines)
			lineSteps += float64(le.Steps)
		}
		if in.Extras != nil && in.Extras.CostUSD > 0 {
			cost += in.Extras.CostUSD
			costed++
		}
	}
	if valid > 0 {
		e.Patterns.AvgSteps = ptr3(steps / valid)
	}
	if lineSteps > 0 {
		e.Patterns.LinesPerStep = ptr3(lines / lineSteps)
	}
	if costed > 0 {
		e.Patterns.AvgCost = ptr3(cost / costed)
	}
	if valid > 0 {
		// No valid task: nothing was measured, which is not a 0.
		line := row.Final.At(model.GranLine)
		e.Dynamics = LeaderboardDynamics{Efficiency: ptr3(line.AUC), Redundancy: ptr3(line.Redundancy), UsageDrop: ptr3(line.DropLastStep.Mean)}
	}
	return e
}

// ModelsOf is the agents and models a results file's rows name (score
// --format json results), in first-seen order, with how many rows each.
func ModelsOf(run *ResultFile) (names []string, counts map[string]int) {
	counts = map[string]int{}
	for i := range run.Instances {
		if ex := run.Instances[i].Extras; ex != nil && (ex.Agent != "" || ex.Model != "") {
			n := model.Who(ex.Agent, ex.Model)
			if counts[n] == 0 {
				names = append(names, n)
			}
			counts[n]++
		}
	}
	return names, counts
}

// ByModel regroups results files' rows by the agent and model each names
// (a row naming none stays with its file's label): one entry per model
// under --group model.
type ByModel struct {
	files []*ResultFile
	at    map[string]*ResultFile
}

// Add files run's rows under their models.
func (b *ByModel) Add(run *ResultFile) {
	if b.at == nil {
		b.at = map[string]*ResultFile{}
	}
	for i := range run.Instances {
		in := run.Instances[i]
		key := run.Label
		if ex := in.Extras; ex != nil && (ex.Agent != "" || ex.Model != "") {
			key = model.Who(ex.Agent, ex.Model)
		}
		f := b.at[key]
		if f == nil {
			f = &ResultFile{Label: key, Path: run.Path, Format: run.Format}
			b.at[key] = f
			b.files = append(b.files, f)
		}
		f.Instances = append(f.Instances, in)
	}
}

// Files are the groups, in first-seen order.
func (b *ByModel) Files() []*ResultFile { return b.files }

// WriteLeaderboard writes the entries as the leaderboard's JSON list.
func WriteLeaderboard(w io.Writer, entries []LeaderboardEntry) error {
	b, err := json.MarshalIndent(entries, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// ReadResolved reads a test harness's report for the instances it
// resolved: a SWE-bench harness report or a Multi-SWE-bench final report,
// both with "resolved_ids" (a list of instance ids). It keeps the ids want
// accepts (nil: all): a report of 20 million ids is read as a stream,
// never held, and only the ids the results name are kept.
func ReadResolved(name string, r io.Reader, want func(id string) bool) (map[string]bool, error) {
	bad := func(err error) error {
		return fmt.Errorf("%s: expected a harness report (a JSON object with resolved_ids): %v", name, err)
	}
	dec := json.NewDecoder(r)
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		if err == nil {
			err = fmt.Errorf("%v is not an object", t)
		}
		return nil, bad(err)
	}
	var out map[string]bool
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, bad(err)
		}
		if key, _ := t.(string); key != "resolved_ids" {
			if err := skipValue(dec); err != nil {
				return nil, bad(err)
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('[') {
			if err == nil {
				err = fmt.Errorf("resolved_ids is %v, not a list", t)
			}
			return nil, bad(err)
		}
		out = map[string]bool{}
		for dec.More() {
			t, err := dec.Token()
			if err != nil {
				return nil, bad(err)
			}
			id, ok := t.(string)
			if !ok {
				return nil, bad(fmt.Errorf("resolved_ids holds %v, not an id", t))
			}
			if want == nil || want(id) {
				out[id] = true
			}
		}
		if _, err := dec.Token(); err != nil { // the list's end
			return nil, bad(err)
		}
	}
	if out == nil {
		return nil, fmt.Errorf(`%s: no "resolved_ids" list: expected a SWE-bench harness report or a Multi-SWE-bench final report`, name)
	}
	return out, nil
}

// skipValue reads past one JSON value without keeping it.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}

// PassAt1 is the share of ids a harness resolved; entry e gets it.
func (e *LeaderboardEntry) PassAt1(ids []string, resolved map[string]bool) {
	if len(ids) == 0 {
		return
	}
	n := 0
	for _, id := range ids {
		if resolved[id] {
			n++
		}
	}
	e.Performance.PassAt1 = ptr3(float64(n) / float64(len(ids)))
}
