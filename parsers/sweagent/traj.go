package sweagent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// decodeFile decodes a whole-file JSON document, naming the line on error.
func decodeFile(path string, data []byte) (*jsontree.Value, error) {
	v, err := jsontree.Parse(data)
	if err != nil {
		return nil, jsontree.At(path, err)
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
	doc := v.Object()
	isDict := doc != nil
	if isDict {
		if rawInfo, has := doc.Lookup("info"); has {
			info := rawInfo.Object()
			if info == nil {
				// parse_traj_file calls info.get and crashes.
				return run, fmt.Errorf("%s: info is %s, expected an object", path, rawInfo.Describe())
			}
			if pc := info.Get("patch_context"); pc.Truthy() {
				s, ok := pc.AsString()
				if !ok {
					return run, fmt.Errorf("%s: info.patch_context is %s, expected a string", path, pc.Describe())
				}
				spans, err := ParsePatchContext(s)
				if err != nil {
					return run, fmt.Errorf("%s: info.patch_context: %w", path, err)
				}
				run.Prediction.Final = sortedStep(spans)
			}
			// A non-string submission is not a patch; upstream only checks
			// truthiness, but nothing downstream could use another type.
			run.Prediction.ModelPatch = info.Get("submission").Text()
			run.ExitStatus = info.Get("exit_status").Text()
			run.CostUSD = toolcall.Cost(info.Path("model_stats", "instance_cost"))
		}
	}
	if !isDict {
		return run, nil
	}
	var statement string
	run.Model, run.InstanceID, statement = trajConfig(doc)
	run.Task = strings.Clone(strings.TrimSpace(statement))
	if run.Task == "" {
		for _, h := range doc.Get("history").Items() {
			if h.Get("role").Text() == "user" {
				run.Task = task.FromPrompt(contentText(h.Get("content"))) // the instance template
				break
			}
		}
	}

	view := &viewer{}
	var obs, thoughts model.TextList // obs[i] and thoughts[i] are action i's
	if steps := doc.Get("trajectory").Items(); doc.Get("trajectory").Is(jsontree.Array) && len(steps) > 0 {
		for _, e := range steps {
			entry := e.Object()
			if entry == nil {
				continue
			}
			a := model.Action{Index: int32(len(run.Actions))}
			o := entry.Get("observation").Text()
			analyzeAction(&a, "", entry.Get("action").Text(), o, stateOpenFile(entry.Get("state")), view)
			run.Actions = append(run.Actions, a)
			obs, thoughts = append(obs, o), append(thoughts, entry.Get("thought").Text())
		}
		run.Observations, run.Thoughts = obs, thoughts
		return run, nil
	}
	hist := doc.Get("history").Items()
	for i, h := range hist {
		msg := h.Object()
		if msg == nil || msg.Get("role").Text() != "assistant" {
			continue
		}
		if _, has := msg.Lookup("action"); !has {
			continue
		}
		o := ""
		for _, n := range hist[i+1:] {
			next := n.Object()
			if next == nil {
				continue
			}
			if next.Get("role").Text() == "assistant" {
				break
			}
			if r := next.Get("role").Text(); r == "user" || r == "tool" {
				o = contentText(next.Get("content"))
				break
			}
		}
		a := model.Action{Index: int32(len(run.Actions))}
		analyzeAction(&a, "", msg.Get("action").Text(), o, "", view)
		run.Actions = append(run.Actions, a)
		obs, thoughts = append(obs, o), append(thoughts, msg.Get("thought").Text())
	}
	run.Observations, run.Thoughts = obs, thoughts
	return run, nil
}

// contentText flattens a chat message content: a string or a list of
// {"type": "text", "text": ...} parts.
func contentText(v *jsontree.Value) string {
	switch {
	case v.Is(jsontree.String):
		return v.Str
	case v.Is(jsontree.Array):
		out := ""
		for _, p := range v.Arr {
			if m := p.Object(); m != nil {
				out += m.Get("text").Text()
			}
		}
		return out
	}
	return ""
}

// trajConfig reads the model name, instance id and problem statement from a
// 1.x replay_config (a JSON string or an object).
func trajConfig(doc *jsontree.Value) (modelName, id, statement string) {
	rc := doc.Get("replay_config").Object()
	if s, ok := doc.Get("replay_config").AsString(); ok {
		if v, err := jsontree.Parse([]byte(s)); err == nil {
			rc = v.Object()
		}
	}
	if rc == nil {
		return "", "", ""
	}
	if agent := rc.Get("agent").Object(); agent != nil {
		if m := agent.Get("model").Object(); m != nil {
			modelName = m.Get("name").Text()
		}
	}
	if ps := rc.Get("problem_statement").Object(); ps != nil {
		id, statement = ps.Get("id").Text(), ps.Get("text").Text()
	}
	return modelName, id, statement
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
	doc := v.Object()
	if doc == nil {
		return run, fmt.Errorf("%s: expected a JSON object, found %s", path, v.Describe())
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
	if raw, has := doc.Lookup("file_line_ranges"); has {
		ranges := raw.Object()
		if ranges == nil {
			return run, fmt.Errorf("%s: file_line_ranges is %s, expected an object", path, raw.Describe())
		}
		// The spans map keeps the JSON object's key order, as a dict does.
		for _, m := range ranges.Obj {
			file, val := m.Key, m.Val
			k := add(NormalizePath(file))
			if !iterable(val) {
				return run, fmt.Errorf("%s: file_line_ranges[%q] is %s, expected a list of ranges", path, file, val.Describe())
			}
			for _, r := range iterValues(val) {
				ri := r.Object()
				if ri == nil {
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
	if vf, has := doc.Lookup("viewed_files"); has {
		if !iterable(vf) {
			return run, fmt.Errorf("%s: viewed_files is %s, expected a list", path, vf.Describe())
		}
		for _, f := range iterValues(vf) {
			s, ok := f.AsString()
			if !ok {
				return run, fmt.Errorf("%s: viewed_files holds %s, expected strings", path, f.Describe())
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
	if info := doc.Get("info").Object(); info != nil {
		run.Prediction.ModelPatch = info.Get("submission").Text()
	}
	run.InstanceID = doc.Get("instance_id").Text()
	return run, nil
}

// rangeBound is range_info.get(name, 1), required to be an integer.
func rangeBound(ri *jsontree.Value, name string) (int, error) {
	x, has := ri.Lookup(name)
	if !has {
		return 1, nil
	}
	n, ok := x.Int()
	if !ok {
		return 0, fmt.Errorf("%s is %s, expected an integer", name, x.Describe())
	}
	return n, nil
}

// iterValues is Python iteration over a decoded JSON value: list items,
// object keys, or the characters of a string.
func iterValues(v *jsontree.Value) []*jsontree.Value {
	switch v.Kind {
	case jsontree.Array:
		return v.Arr
	case jsontree.Object:
		out := make([]*jsontree.Value, 0, len(v.Obj))
		for _, m := range v.Obj {
			out = append(out, jsontree.NewString(m.Key))
		}
		return out
	case jsontree.String:
		out := make([]*jsontree.Value, 0, len(v.Str))
		for _, r := range v.Str {
			out = append(out, jsontree.NewString(string(r)))
		}
		return out
	}
	return nil
}

// iterable reports a value Python can iterate: a list, an object or a
// string.
func iterable(v *jsontree.Value) bool {
	return v.Is(jsontree.Array) || v.Is(jsontree.Object) || v.Is(jsontree.String)
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
