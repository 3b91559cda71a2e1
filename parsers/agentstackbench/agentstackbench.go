// Package agentstackbench loads AgentStackBench's per-instance pages: one
// task, several variants of one agent (say "Baseline" and "With
// Superpowers Mounted"), each with the `codex exec` items it ran
// (traceEntries), the ContextBench trajectory it was scored on
// (predTrajectory, traj_data in camelCase) and the scores the site
// publishes (evaluatedTrajectory).
//
// Each variant is a run, named by the task's original instance id so
// ContextBench gold finds it. Its prediction is its predTrajectory read as
// a unified record is (the reference evaluator ignores span types, so
// score reproduces the published per-step coverage, AUC and redundancy);
// its timeline is its traceEntries: commands read as shell commands are,
// file changes as edits, the final message as the last thought.
package agentstackbench

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
	"github.com/trajscope/trajscope/parsers/unified"
)

// Name is the format name used by detection and --format.
const Name = "agentstackbench"

var (
	comparisonRe = lazyre.New(`"comparisonId"\s*:`)
	variantsRe   = lazyre.New(`"variants"\s*:\s*\[`)
)

// Sniff reports an AgentStackBench page: a JSON object with a comparison
// id and its variants.
func Sniff(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] == '{' && comparisonRe().Match(head) && variantsRe().Match(head)
}

// ParseRuns reads a page into a run per variant.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff")) // offsets below are into data
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil, jsontree.At(path, err)
	}
	page := v.Object()
	if page == nil || !page.Get("variants").Is(jsontree.Array) {
		return nil, fmt.Errorf("%s: expected an AgentStackBench page (an object with \"variants\")", path)
	}
	id := page.First("originalInstanceId", "instanceId")
	var runs []model.Run
	for i, vr := range page.Get("variants").Items() {
		variant := vr.Object()
		if variant == nil {
			return nil, fmt.Errorf("%s: variants[%d]: expected an object", path, i)
		}
		run, err := variantRun(data, path, id, page.Get("comparisonId").Text(), variant)
		if err != nil {
			return nil, fmt.Errorf("%s: variants[%d]: %w", path, i, err)
		}
		runs = append(runs, run)
	}
	return runs, nil
}

func variantRun(data []byte, path, id, comparison string, v *jsontree.Value) (model.Run, error) {
	run := model.Run{InstanceID: id, Format: Name, Path: path, Model: v.Get("model").Text(),
		Agent: strings.TrimSpace(comparison + " · " + v.Get("name").Text()), ExitStatus: v.Get("status").Text()}
	if u := v.Get("tokenUsage"); u.Is(jsontree.Object) {
		defer func() {
			if n := len(run.Actions); n > 0 {
				in, _ := u.Get("input_tokens").Int()
				cached, _ := u.Get("cached_input_tokens").Int()
				out, _ := u.Get("output_tokens").Int()
				toolcall.AddUsage(&run.Actions[n-1], model.NewUsage(max(in-cached, 0), out, cached, 0))
			}
		}()
	}
	pred, err := prediction(data, id, v)
	if err != nil {
		return run, err
	}
	run.Prediction = pred
	var obs, thoughts model.TextList
	for _, e := range v.Get("traceEntries").Items() {
		a := model.Action{}
		out := ""
		switch e.Get("kind").Text() {
		case "command_execution":
			out = e.Get("output").Text()
			c := toolcall.Call{Name: "shell", Input: jsontree.Wrap("command", jsontree.NewString(toolcall.UnwrapShell(e.Get("command").Text()))),
				Output: out, HasOutput: true}
			if n, ok := e.Get("exitCode").Int(); ok {
				c.Exit, c.HasExit = n, true
			}
			toolcall.Apply(&a, c)
		case "file_change":
			a = model.Action{Tool: "file_change", Command: "apply patch", Category: model.CategoryEdit}
			for _, ch := range e.Path("payload", "changes").Items() {
				if p := ch.Get("path").Text(); p != "" {
					a.Edits = append(a.Edits, p)
				}
			}
		case "assistant_message":
			// The final answer: the thought of the last action.
			if n := len(thoughts); n > 0 && thoughts[n-1] == "" {
				thoughts[n-1] = e.Get("text").Text()
			}
			continue
		default:
			continue // todo lists: no action
		}
		a.Index = int32(len(run.Actions))
		run.Actions = append(run.Actions, a)
		obs, thoughts = append(obs, out), append(thoughts, "")
	}
	run.Observations, run.Thoughts = obs, thoughts
	return run, nil
}

// prediction reads predTrajectory as the unified record it is in
// camelCase: its members' own bytes under the snake_case keys, so nothing
// (key order, number spelling) differs from what the site scored.
func prediction(data []byte, id string, v *jsontree.Value) (model.Prediction, error) {
	pt := v.Get("predTrajectory")
	if !pt.Is(jsontree.Object) {
		return model.Prediction{InstanceID: id}, nil
	}
	raw := func(key, empty string) []byte {
		if m, ok := pt.Lookup(key); ok && m.End > m.Off && m.End <= len(data) {
			return data[m.Off:m.End]
		}
		return []byte(empty)
	}
	rec := []byte(`{"instance_id": `)
	rec = python.AppendJSONString(rec, id)
	rec = append(rec, `, "traj_data": {"pred_steps": `...)
	rec = append(rec, raw("predSteps", "[]")...)
	rec = append(rec, `, "pred_files": `...)
	rec = append(rec, raw("predFiles", "[]")...)
	rec = append(rec, `, "pred_spans": `...)
	rec = append(rec, raw("predSpans", "{}")...)
	rec = append(rec, `, "pred_symbols": `...)
	rec = append(rec, raw("predSymbols", "{}")...)
	rec = append(rec, `}, "model_patch": `...)
	rec = python.AppendJSONString(rec, v.Get("modelPatch").Text())
	rec = append(rec, "}\n"...)
	recs, err := unified.Parse(rec, "predTrajectory.json")
	switch {
	case err != nil:
		return model.Prediction{}, err
	case len(recs) != 1:
		return model.Prediction{}, fmt.Errorf("predTrajectory: not one record")
	case recs[0].Err != nil:
		return model.Prediction{}, fmt.Errorf("predTrajectory: %w", recs[0].Err)
	}
	return recs[0].Pred, nil
}
