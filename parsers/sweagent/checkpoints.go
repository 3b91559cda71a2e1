package sweagent

import (
	"fmt"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// loadCheckpoints reads a ContextBench `.checkpoints.jsonl`: one JSON object
// per line, either a tool action or a `patch_context` declaration.
//
// Steps (upstream): one per `str_replace_editor view PATH --view_range A B`
// with A, B > 0. Final: the last non-empty patch_context, parsed by
// parse_patch_context with files in first-seen order; without one, the last
// step; without steps, empty. model_patch is always "".
func loadCheckpoints(path string, data []byte) (model.Run, error) {
	var run model.Run
	var obs model.TextList // obs[i] is action i's
	var steps []model.Step
	var final *model.Step
	view := &viewer{}
	for i, line := range python.SplitUniversal(string(data)) {
		lineNo := i + 1
		if python.StripSpace(line) == "" {
			continue
		}
		v, err := jsontree.ParseAt([]byte(line), lineNo)
		if err != nil {
			return run, jsontree.At(path, err)
		}
		rec := v.Object()
		if rec == nil {
			return run, fmt.Errorf("%s: line %d: expected a JSON object, found %s", path, lineNo, v.Describe())
		}
		if t, _ := rec.Get("type").AsString(); t == "patch_context" {
			pc := rec.Get("patch_context")
			if !pc.Truthy() {
				continue
			}
			s, ok := pc.AsString()
			if !ok {
				return run, fmt.Errorf("%s: line %d: patch_context is %s, expected a string", path, lineNo, pc.Describe())
			}
			spans, err := ParsePatchContext(s)
			if err != nil {
				return run, fmt.Errorf("%s: line %d: %w", path, lineNo, err)
			}
			final = &model.Step{Files: filesOf(spans), Spans: spans}
			continue
		}

		// Upstream's step rule, including the crashes it would hit.
		act := rec.Get("action")
		stepIdx := -1
		actionStr, isStr := act.AsString()
		if !isStr && act.Truthy() && containsViewLiteral(act) {
			return run, fmt.Errorf("%s: line %d: action is %s, expected a string", path, lineNo, act.Describe())
		}
		if view, ok := ExtractView(actionStr); ok && view.Start > 0 && view.End > 0 {
			if obs := rec.Get("observation"); obs.Truthy() {
				if _, ok := obs.AsString(); !ok {
					return run, fmt.Errorf("%s: line %d: observation is %s, expected a string", path, lineNo, obs.Describe())
				}
			}
			stepIdx = len(steps)
			steps = append(steps, viewStep(view))
		}

		_, hasTool := rec.Lookup("tool")
		_, hasAction := rec.Lookup("action")
		if !hasTool && !hasAction {
			continue
		}
		a := model.Action{Index: int32(len(run.Actions))}
		tool := rec.Get("tool").Text()
		o := rec.Get("observation").Text()
		analyzeAction(&a, tool, actionStr, o, stateOpenFile(rec.Get("state")), view)
		if a.Tool == "" {
			a.Tool = tool
		}
		if stepIdx >= 0 {
			a.Steps = []int{stepIdx}
		}
		run.Actions, obs = append(run.Actions, a), append(obs, o)
	}
	run.Observations = obs
	run.Prediction.Steps = steps
	switch {
	case final != nil:
		run.Prediction.Final = *final
	case len(steps) > 0:
		last := steps[len(steps)-1]
		run.Prediction.Final = model.Step{Files: append([]string(nil), last.Files...), Spans: cloneSpans(last.Spans)}
	}
	return run, nil
}

// containsViewLiteral mirrors `'str_replace_editor view' in action` for a
// non-string action: Python raises TypeError for numbers and booleans, tests
// membership for lists and dicts, and re.search then raises on either.
func containsViewLiteral(v *jsontree.Value) bool {
	const lit = "str_replace_editor view"
	switch v.Kind {
	case jsontree.Array:
		for _, e := range v.Arr {
			if s, ok := e.AsString(); ok && s == lit {
				return true
			}
		}
		return false
	case jsontree.Object:
		_, ok := v.Lookup(lit)
		return ok
	}
	return true // number or true: `in` raises
}

func cloneSpans(in []model.FileSpans) []model.FileSpans {
	out := make([]model.FileSpans, len(in))
	for i, fs := range in {
		out[i] = model.FileSpans{File: fs.File, Spans: append([]model.Interval{}, fs.Spans...)}
	}
	return out
}
