package sweagent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/python"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/pyval"
	"github.com/trajscope/trajscope/parsers/internal/rawjson"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// decodeFile decodes a whole-file JSON document, naming the line on error.
func decodeFile(path string, data []byte) (any, error) {
	v, err := pyval.Decode(data)
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: line %d: invalid JSON: %v", path, rawjson.LineAt(data, int(se.Offset)), err)
		}
		return nil, fmt.Errorf("%s: invalid JSON: %v", path, err)
	}
	return v, nil
}

// loadTraj reads a SWE-agent `.traj`. Upstream takes no steps from it, only
// the final context from info.patch_context (files sorted) and the patch
// from info.submission; the timeline comes from `trajectory` (1.x and 0.x)
// or, when that is absent, from the assistant turns of `history`.
func loadTraj(path string, data []byte) (model.Run, error) {
	var run model.Run
	v, err := decodeFile(path, data)
	if err != nil {
		return run, err
	}
	doc, isDict := v.(map[string]any)
	if isDict {
		if rawInfo, has := doc["info"]; has {
			info, ok := rawInfo.(map[string]any)
			if !ok {
				// parse_traj_file calls info.get and crashes.
				return run, fmt.Errorf("%s: info is %s, expected an object", path, pyval.Kind(rawInfo))
			}
			if pc := info["patch_context"]; pyval.Truthy(pc) {
				s, ok := pc.(string)
				if !ok {
					return run, fmt.Errorf("%s: info.patch_context is %s, expected a string", path, pyval.Kind(pc))
				}
				spans, err := ParsePatchContext(s)
				if err != nil {
					return run, fmt.Errorf("%s: info.patch_context: %w", path, err)
				}
				run.Prediction.Final = sortedStep(spans)
			}
			// A non-string submission is not a patch; upstream only checks
			// truthiness, but nothing downstream could use another type.
			run.Prediction.ModelPatch = pyval.Str(info["submission"])
			run.ExitStatus = pyval.Str(info["exit_status"])
			run.CostUSD = toolcall.Cost(pyval.Path(info, "model_stats", "instance_cost"))
		}
	}
	if !isDict {
		return run, nil
	}
	run.Model, run.InstanceID = trajConfig(doc)

	view := &viewer{}
	var obs, thoughts model.TextList // obs[i] and thoughts[i] are action i's
	if steps, ok := doc["trajectory"].([]any); ok && len(steps) > 0 {
		for _, e := range steps {
			entry, ok := e.(map[string]any)
			if !ok {
				continue
			}
			a := model.Action{Index: int32(len(run.Actions))}
			o := pyval.Str(entry["observation"])
			analyzeAction(&a, "", pyval.Str(entry["action"]), o, stateOpenFile(entry["state"]), view)
			run.Actions = append(run.Actions, a)
			obs, thoughts = append(obs, o), append(thoughts, pyval.Str(entry["thought"]))
		}
		run.Observations, run.Thoughts = obs, thoughts
		return run, nil
	}
	hist, _ := doc["history"].([]any)
	for i, h := range hist {
		msg, ok := h.(map[string]any)
		if !ok || pyval.Str(msg["role"]) != "assistant" {
			continue
		}
		if _, has := msg["action"]; !has {
			continue
		}
		o := ""
		for _, n := range hist[i+1:] {
			next, ok := n.(map[string]any)
			if !ok {
				continue
			}
			if pyval.Str(next["role"]) == "assistant" {
				break
			}
			if r := pyval.Str(next["role"]); r == "user" || r == "tool" {
				o = contentText(next["content"])
				break
			}
		}
		a := model.Action{Index: int32(len(run.Actions))}
		analyzeAction(&a, "", pyval.Str(msg["action"]), o, "", view)
		run.Actions = append(run.Actions, a)
		obs, thoughts = append(obs, o), append(thoughts, pyval.Str(msg["thought"]))
	}
	run.Observations, run.Thoughts = obs, thoughts
	return run, nil
}

// contentText flattens a chat message content: a string or a list of
// {"type": "text", "text": ...} parts.
func contentText(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		out := ""
		for _, p := range c {
			if m, ok := p.(map[string]any); ok {
				out += pyval.Str(m["text"])
			}
		}
		return out
	}
	return ""
}

// trajConfig reads the model name and instance id from a 1.x replay_config
// (a JSON string or an object).
func trajConfig(doc map[string]any) (modelName, id string) {
	var rc map[string]any
	switch c := doc["replay_config"].(type) {
	case string:
		if v, err := pyval.Decode([]byte(c)); err == nil {
			rc, _ = v.(map[string]any)
		}
	case map[string]any:
		rc = c
	}
	if rc == nil {
		return "", ""
	}
	if agent, ok := rc["agent"].(map[string]any); ok {
		if m, ok := agent["model"].(map[string]any); ok {
			modelName = pyval.Str(m["name"])
		}
	}
	if ps, ok := rc["problem_statement"].(map[string]any); ok {
		id = pyval.Str(ps["id"])
	}
	return modelName, id
}

// loadContextJSON reads a `.context.json` as upstream's parse_context_json:
// final files are the sorted set of file_line_ranges keys and viewed_files;
// spans come from file_line_ranges (missing start/end default to 1). There
// are no steps and no actions.
func loadContextJSON(path string, data []byte) (model.Run, error) {
	var run model.Run
	v, err := decodeFile(path, data)
	if err != nil {
		return run, err
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return run, fmt.Errorf("%s: expected a JSON object, found %s", path, pyval.Kind(v))
	}
	var spans []model.FileSpans
	index := map[string]int{}
	files := map[string]bool{}
	add := func(p string) int {
		files[p] = true
		k, seen := index[p]
		if !seen {
			k = len(spans)
			index[p] = k
			spans = append(spans, model.FileSpans{File: p, Spans: []model.Interval{}})
		}
		return k
	}
	if raw, has := doc["file_line_ranges"]; has {
		ranges, ok := raw.(map[string]any)
		if !ok {
			return run, fmt.Errorf("%s: file_line_ranges is %s, expected an object", path, pyval.Kind(raw))
		}
		// The spans map keeps the JSON object's key order, as a dict does.
		for _, file := range memberOrder(data, "file_line_ranges", ranges) {
			k := add(NormalizePath(file))
			val := ranges[file]
			switch val.(type) {
			case []any, map[string]any, string:
			default:
				return run, fmt.Errorf("%s: file_line_ranges[%q] is %s, expected a list of ranges", path, file, pyval.Kind(val))
			}
			for _, r := range iterValues(val) {
				ri, ok := r.(map[string]any)
				if !ok {
					continue
				}
				start, err := rangeBound(ri, "start")
				if err != nil {
					return run, fmt.Errorf("%s: file_line_ranges[%q]: %v", path, file, err)
				}
				end, err := rangeBound(ri, "end")
				if err != nil {
					return run, fmt.Errorf("%s: file_line_ranges[%q]: %v", path, file, err)
				}
				spans[k].Spans = append(spans[k].Spans, model.Interval{Start: start, End: end})
			}
		}
	}
	if vf, has := doc["viewed_files"]; has {
		switch vf.(type) {
		case []any, map[string]any, string:
		default:
			return run, fmt.Errorf("%s: viewed_files is %s, expected a list", path, pyval.Kind(vf))
		}
		for _, f := range iterValues(vf) {
			s, ok := f.(string)
			if !ok {
				return run, fmt.Errorf("%s: viewed_files holds %s, expected strings", path, pyval.Kind(f))
			}
			add(NormalizePath(s))
		}
	}
	list := make([]string, 0, len(files))
	for f := range files {
		list = append(list, f)
	}
	sort.Strings(list)
	run.Prediction.Final = model.Step{Files: list, Spans: spans}
	if info, ok := doc["info"].(map[string]any); ok {
		run.Prediction.ModelPatch = pyval.Str(info["submission"])
	}
	run.InstanceID = pyval.Str(doc["instance_id"])
	return run, nil
}

// rangeBound is range_info.get(name, 1), required to be an integer.
func rangeBound(ri map[string]any, name string) (int, error) {
	x, has := ri[name]
	if !has {
		return 1, nil
	}
	n, ok := pyval.Int(x)
	if !ok {
		return 0, fmt.Errorf("%s is %s, expected an integer", name, pyval.Kind(x))
	}
	return n, nil
}

// memberOrder returns the keys of the top-level member `name` of the JSON
// object in data in document order (first occurrence of each key), falling
// back to sorted keys of obj if the document cannot be walked.
func memberOrder(data []byte, name string, obj map[string]any) []string {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err == nil {
		if keys, err := objectKeyOrder(top[name]); err == nil && len(keys) == len(obj) {
			return keys
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// objectKeyOrder lists an object's keys in order, without duplicates.
func objectKeyOrder(raw json.RawMessage) ([]string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		if !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// iterValues is Python iteration over a decoded JSON value: list items,
// object keys, or the characters of a string.
func iterValues(v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case map[string]any:
		out := make([]any, 0, len(x))
		for k := range x {
			out = append(out, k)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].(string) < out[j].(string) })
		return out
	case string:
		out := make([]any, 0, len(x))
		for _, r := range x {
			out = append(out, string(r))
		}
		return out
	}
	return nil
}

// loadPatchContext reads a `patch_context.txt`: the whole file through
// parse_patch_context, files sorted, no steps.
func loadPatchContext(path string, data []byte) (model.Run, error) {
	var run model.Run
	// Python reads the file in text mode: "\r\n" and "\r" become "\n".
	text := strings.Join(python.SplitUniversal(string(data)), "\n")
	spans, err := ParsePatchContext(text)
	if err != nil {
		return run, fmt.Errorf("%s: %w", path, err)
	}
	run.Prediction.Final = sortedStep(spans)
	return run, nil
}
