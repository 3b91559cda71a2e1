package openhands

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/pyval"
)

// completionFiles lists dir/*.json sorted by name, as
// sorted(Path(dir).glob("*.json")).
func completionFiles(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// instanceDirs lists the subdirectories of dir, sorted.
func instanceDirs(dir string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// LoadDir loads an llm_completions directory: one instance directory (it
// holds *.json files), or every instance directory below an llm_completions
// root.
func LoadDir(dir string) ([]model.Run, error) {
	dir = filepath.Clean(dir)
	if len(completionFiles(dir)) > 0 {
		run, err := loadCompletionsInstance(dir)
		if err != nil {
			return nil, err
		}
		return []model.Run{run}, nil
	}
	if len(instanceDirs(dir)) == 0 {
		return nil, fmt.Errorf("%s: no *.json completion logs and no instance directories (expected an OpenHands llm_completions directory)", dir)
	}
	return loadCompletionsRoot(dir)
}

// loadCompletionsRoot is upstream's _load_from_llm_completions_dir: one run
// per instance directory, its patch guessed from the last log. An instance
// that fails is reported and skipped.
func loadCompletionsRoot(root string) ([]model.Run, error) {
	var runs []model.Run
	var errs []error
	for _, d := range instanceDirs(root) {
		run, err := loadCompletionsInstance(d)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if files := completionFiles(d); len(files) > 0 {
			run.Prediction.ModelPatch = guessPatch(files[len(files)-1])
		}
		runs = append(runs, run)
	}
	return runs, errors.Join(errs...)
}

var fencedPatchRe = regexp.MustCompile("(?s)```(?:diff|patch)?\n(.*?)\n```")

// guessPatch reproduces upstream's patch search in the last log: from the
// last message backwards, the first string content mentioning a patch with a
// fenced block gives it. A non-string content ends the search (upstream's
// str methods raise there and the exception is swallowed).
func guessPatch(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		return ""
	}
	v, err := pyval.Decode(data)
	if err != nil {
		return ""
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	msgs, _ := doc["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, ok := msgs[i].(map[string]any)
		if !ok {
			return ""
		}
		c, has := m["content"]
		if !has {
			c = ""
		}
		s, ok := c.(string)
		if !ok {
			return ""
		}
		if strings.Contains(s, "git_patch") || strings.Contains(strings.ToLower(s), "patch") {
			if mm := fencedPatchRe.FindStringSubmatch(s); mm != nil {
				return mm[1]
			}
		}
	}
	return ""
}

// loadCompletionsInstance is upstream's
// extract_trajectory_from_llm_completions on one instance directory (only
// the last *.json counts), with the timeline built from the same log: every
// tool call in its messages and in its final response.
func loadCompletionsInstance(dir string) (model.Run, error) {
	run := model.Run{Format: Name, Agent: "openhands", Path: dir}
	var obs, thoughts model.TextList // obs[i] and thoughts[i] are action i's
	run.InstanceID = filepath.Base(dir)
	run.Prediction.InstanceID = run.InstanceID
	files := completionFiles(dir)
	if len(files) == 0 {
		return run, nil
	}
	last := files[len(files)-1]
	data, err := os.ReadFile(last)
	if err != nil {
		return run, nil // upstream: any failure to read gives an empty result
	}
	v, err := pyval.Decode(data)
	if err != nil {
		return run, nil
	}
	doc, ok := v.(map[string]any)
	if !ok {
		return run, fmt.Errorf("%s: expected a JSON object, found %s", last, pyval.Kind(v))
	}
	rawMsgs, has := doc["messages"]
	if !has {
		rawMsgs = []any{}
	}
	msgs, ok := rawMsgs.([]any)
	if !ok {
		return run, fmt.Errorf("%s: messages is %s, expected a list", last, pyval.Kind(rawMsgs))
	}
	if resp, ok := doc["response"].(map[string]any); ok {
		run.Model = pyval.Str(resp["model"])
	}

	// Tool results by call id.
	results := map[string]string{}
	for _, m := range msgs {
		if msg, ok := m.(map[string]any); ok && pyval.Str(msg["role"]) == "tool" {
			results[pyval.Str(msg["tool_call_id"])] = contentText(msg["content"])
		}
	}

	p := &run.Prediction
	for i, m := range msgs {
		msg, ok := m.(map[string]any)
		if !ok {
			return run, fmt.Errorf("%s: messages[%d] is %s, expected an object", last, i, pyval.Kind(m))
		}
		if pyval.Str(msg["role"]) != "assistant" {
			continue
		}
		rawCalls, has := msg["tool_calls"]
		if !has {
			continue
		}
		calls, ok := rawCalls.([]any)
		if !ok {
			return run, fmt.Errorf("%s: messages[%d].tool_calls is %s, expected a list", last, i, pyval.Kind(rawCalls))
		}
		thought := contentText(msg["content"])
		for j, c := range calls {
			where := fmt.Sprintf("%s: messages[%d].tool_calls[%d]", last, i, j)
			call, fn, err := callParts(c)
			if err != nil {
				return run, fmt.Errorf("%s: %v", where, err)
			}
			st, ok, err := callStep(fn)
			if err != nil {
				return run, fmt.Errorf("%s: %v", where, err)
			}
			o := results[pyval.Str(call["id"])]
			a := callAction(len(run.Actions), call, fn, o)
			th := ""
			if j == 0 {
				th = thought
			}
			if ok {
				a.Steps = []int{len(p.Steps)}
				p.Steps = append(p.Steps, st)
			}
			run.Actions = append(run.Actions, a)
			obs, thoughts = append(obs, o), append(thoughts, th)
		}
	}
	p.Final = UnionFinal(p.Steps)

	// The final response's tool calls are actions too (upstream ignores
	// them: they are not in messages).
	if resp, ok := doc["response"].(map[string]any); ok {
		ch, _ := resp["choices"].([]any)
		if len(ch) > 0 {
			c0, _ := ch[0].(map[string]any)
			msg, _ := c0["message"].(map[string]any)
			calls, _ := msg["tool_calls"].([]any)
			for j, c := range calls {
				call, fn, err := callParts(c)
				if err != nil {
					continue
				}
				a := callAction(len(run.Actions), call, fn, "")
				th := ""
				if j == 0 {
					th = contentText(msg["content"])
				}
				run.Actions = append(run.Actions, a)
				obs, thoughts = append(obs, ""), append(thoughts, th)
			}
		}
	}
	run.Observations, run.Thoughts = obs, thoughts
	return run, nil
}

// callParts checks a tool call's shape as upstream's .get chain requires.
func callParts(c any) (map[string]any, map[string]any, error) {
	call, ok := c.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("tool call is %s, expected an object", pyval.Kind(c))
	}
	rawFn, has := call["function"]
	if !has {
		return call, map[string]any{}, nil
	}
	fn, ok := rawFn.(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("function is %s, expected an object", pyval.Kind(rawFn))
	}
	return call, fn, nil
}

// callArgs decodes function.arguments (a JSON string); ok is false where
// upstream's json.loads would fail and the call is skipped.
func callArgs(fn map[string]any) (any, bool) {
	raw, has := fn["arguments"]
	if !has {
		raw = "{}"
	}
	s, ok := raw.(string)
	if !ok {
		return nil, false
	}
	v, err := pyval.Decode([]byte(s))
	if err != nil {
		return nil, false
	}
	return v, true
}

// callStep is upstream's per-call rule: str_replace_editor view and
// execute_bash only.
func callStep(fn map[string]any) (model.Step, bool, error) {
	name := pyval.Str(fn["name"])
	if name != "str_replace_editor" && name != "execute_bash" {
		return model.Step{}, false, nil
	}
	v, ok := callArgs(fn)
	if !ok {
		return model.Step{}, false, nil
	}
	args, isObj := v.(map[string]any)
	if !isObj {
		return model.Step{}, false, fmt.Errorf("arguments decode to %s, expected an object", pyval.Kind(v))
	}
	if name == "str_replace_editor" {
		if pyval.Str(args["command"]) != "view" {
			return model.Step{}, false, nil
		}
		if p, has := args["path"]; has && pyval.Truthy(p) {
			if _, ok := p.(string); !ok {
				return model.Step{}, false, fmt.Errorf("path is %s, expected a string", pyval.Kind(p))
			}
		}
		st, ok, err := ReadStep(args, Completions)
		return st, ok && len(st.Files) > 0, err
	}
	c := args["command"]
	cmd, isStr := c.(string)
	if !isStr && pyval.Truthy(c) {
		return model.Step{}, false, fmt.Errorf("command is %s, expected a string", pyval.Kind(c))
	}
	return RunCommandStep(cmd, Completions)
}

// callAction builds the timeline entry of one tool call, whose output is
// obs.
func callAction(index int, call, fn map[string]any, obs string) model.Action {
	name := pyval.Str(fn["name"])
	a := model.Action{Index: int32(index), Tool: name}
	callKind(&a, name, fn, obs)
	if obs != "" {
		isError := strings.HasPrefix(strings.TrimSpace(obs), "ERROR")
		markFailure(&a, event{m: map[string]any{}}, isError, obs)
	}
	return a
}

// callKind fills the category, command and what the call read or changed.
func callKind(a *model.Action, name string, fn map[string]any, obs string) {
	v, ok := callArgs(fn)
	args, _ := v.(map[string]any)
	if !ok || args == nil {
		a.Command = pyval.Str(fn["arguments"])
		a.Category = model.CategoryOther
		return
	}
	switch name {
	case "execute_bash", "bash", "terminal":
		a.Command = pyval.Str(args["command"])
		shellAction(a, a.Command, obs)
	case "execute_ipython_cell":
		a.Command = pyval.Str(args["code"])
		ipythonAction(a, a.Command, obs)
	case "str_replace_editor", "file_editor":
		cmd := pyval.Str(args["command"])
		a.Command = strings.TrimSpace(cmd + " " + pyval.Str(args["path"]))
		if vr, ok := args["view_range"].([]any); ok && len(vr) == 2 {
			a.Command += fmt.Sprintf(" [%v, %v]", vr[0], vr[1])
		}
		if cmd == "view" {
			readAction(a, args, obs)
		} else {
			failed := strings.HasPrefix(strings.TrimSpace(obs), "ERROR") || strings.Contains(obs, "No replacement was performed")
			editAction(a, args, obs, failed)
		}
	case "think":
		a.Command = pyval.Str(args["thought"])
		a.Category = model.CategoryOther
	case "finish":
		a.Command = pyval.Str(args["message"])
		a.Category = model.CategorySubmit
	default:
		b, _ := json.Marshal(args)
		a.Command = string(b)
		a.Category = model.CategoryOther
	}
}
