package sweagent

import (
	"fmt"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/pyval"
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
		v, err := pyval.Decode([]byte(line))
		if err != nil {
			return run, fmt.Errorf("%s: line %d: invalid JSON (expected one checkpoint object per line): %v", path, lineNo, err)
		}
		rec, ok := v.(map[string]any)
		if !ok {
			return run, fmt.Errorf("%s: line %d: expected a JSON object, found %s", path, lineNo, pyval.Kind(v))
		}
		if t, _ := rec["type"].(string); t == "patch_context" {
			pc := rec["patch_context"]
			if !pyval.Truthy(pc) {
				continue
			}
			s, ok := pc.(string)
			if !ok {
				return run, fmt.Errorf("%s: line %d: patch_context is %s, expected a string", path, lineNo, pyval.Kind(pc))
			}
			spans, err := ParsePatchContext(s)
			if err != nil {
				return run, fmt.Errorf("%s: line %d: %w", path, lineNo, err)
			}
			final = &model.Step{Files: filesOf(spans), Spans: spans}
			continue
		}

		// Upstream's step rule, including the crashes it would hit.
		act := rec["action"]
		stepIdx := -1
		actionStr, isStr := act.(string)
		if !isStr && pyval.Truthy(act) && containsViewLiteral(act) {
			return run, fmt.Errorf("%s: line %d: action is %s, expected a string", path, lineNo, pyval.Kind(act))
		}
		if view, ok := ExtractView(actionStr); ok && view.Start > 0 && view.End > 0 {
			if obs := rec["observation"]; pyval.Truthy(obs) {
				if _, ok := obs.(string); !ok {
					return run, fmt.Errorf("%s: line %d: observation is %s, expected a string", path, lineNo, pyval.Kind(obs))
				}
			}
			stepIdx = len(steps)
			steps = append(steps, viewStep(view))
		}

		_, hasTool := rec["tool"]
		_, hasAction := rec["action"]
		if !hasTool && !hasAction {
			continue
		}
		a := model.Action{Index: int32(len(run.Actions))}
		tool := pyval.Str(rec["tool"])
		o := pyval.Str(rec["observation"])
		analyzeAction(&a, tool, actionStr, o, stateOpenFile(rec["state"]), view)
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
func containsViewLiteral(v any) bool {
	const lit = "str_replace_editor view"
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if s, ok := e.(string); ok && s == lit {
				return true
			}
		}
		return false
	case map[string]any:
		_, ok := x[lit]
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
