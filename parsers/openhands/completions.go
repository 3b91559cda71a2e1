package openhands

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// completionFiles lists dir/*.json sorted by name, as
// sorted(Path(dir).glob("*.json")).
func completionFiles(dir string) []string {
	return listDir(dir, func(e os.DirEntry) bool {
		if !strings.HasSuffix(e.Name(), ".json") {
			return false
		}
		if e.Type().IsRegular() {
			return true
		}
		// Only regular files are read (a FIFO would block, a link to a
		// device never end); a link is followed to one.
		st, err := os.Stat(filepath.Join(dir, e.Name()))
		return err == nil && st.Mode().IsRegular()
	})
}

// instanceDirs lists the subdirectories of dir, sorted.
func instanceDirs(dir string) []string {
	return listDir(dir, os.DirEntry.IsDir)
}

// listDir lists the entries of dir that keep keeps, as paths, sorted.
func listDir(dir string, keep func(os.DirEntry) bool) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		if keep(e) {
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

var fencedPatchRe = lazyre.New("(?s)```(?:diff|patch)?\n(.*?)\n```")

// guessPatch reproduces upstream's patch search in the last log: from the
// last message backwards, the first string content mentioning a patch with a
// fenced block gives it. A non-string content ends the search (upstream's
// str methods raise there and the exception is swallowed).
func guessPatch(file string) string {
	data, err := inputfile.ReadRegular(file)
	if err != nil {
		return ""
	}
	v, err := jsontree.Parse(data)
	if err != nil {
		return ""
	}
	doc := v.Object()
	if doc == nil {
		return ""
	}
	msgs := doc.Get("messages").Items()
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i].Object()
		if m == nil {
			return ""
		}
		s, ok := "", true
		if c, has := m.Lookup("content"); has {
			s, ok = c.AsString()
		}
		if !ok {
			return ""
		}
		if strings.Contains(s, "git_patch") || strings.Contains(strings.ToLower(s), "patch") {
			if mm := fencedPatchRe().FindStringSubmatch(s); mm != nil {
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
	data, err := inputfile.ReadRegular(last)
	if err != nil {
		return run, nil // upstream: any failure to read gives an empty result
	}
	v, err := jsontree.Parse(data)
	if err != nil {
		return run, nil
	}
	doc := v.Object()
	if doc == nil {
		return run, fmt.Errorf("%s: expected a JSON object, found %s", last, v.Describe())
	}
	var msgs []*jsontree.Value
	if rawMsgs, has := doc.Lookup("messages"); has {
		if !rawMsgs.Is(jsontree.Array) {
			return run, fmt.Errorf("%s: messages is %s, expected a list", last, rawMsgs.Describe())
		}
		msgs = rawMsgs.Arr
	}
	if resp := doc.Get("response").Object(); resp != nil {
		run.Model = resp.Get("model").Text()
	}

	// Tool results by call id.
	results := map[string]string{}
	for _, m := range msgs {
		if msg := m.Object(); msg != nil && msg.Get("role").Text() == "tool" {
			results[msg.Get("tool_call_id").Text()] = contentText(msg.Get("content"))
		}
	}

	p := &run.Prediction
	for i, m := range msgs {
		msg := m.Object()
		if msg == nil {
			return run, fmt.Errorf("%s: messages[%d] is %s, expected an object", last, i, m.Describe())
		}
		if msg.Get("role").Text() != "assistant" {
			continue
		}
		rawCalls, has := msg.Lookup("tool_calls")
		if !has {
			continue
		}
		if !rawCalls.Is(jsontree.Array) {
			return run, fmt.Errorf("%s: messages[%d].tool_calls is %s, expected a list", last, i, rawCalls.Describe())
		}
		calls := rawCalls.Arr
		thought := contentText(msg.Get("content"))
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
			o := results[call.Get("id").Text()]
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
	if resp := doc.Get("response").Object(); resp != nil {
		ch := resp.Get("choices").Items()
		if len(ch) > 0 {
			msg := ch[0].Get("message").Object()
			calls := msg.Get("tool_calls").Items()
			for j, c := range calls {
				call, fn, err := callParts(c)
				if err != nil {
					continue
				}
				a := callAction(len(run.Actions), call, fn, "")
				th := ""
				if j == 0 {
					th = contentText(msg.Get("content"))
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
func callParts(c *jsontree.Value) (*jsontree.Value, *jsontree.Value, error) {
	call := c.Object()
	if call == nil {
		return nil, nil, fmt.Errorf("tool call is %s, expected an object", c.Describe())
	}
	rawFn, has := call.Lookup("function")
	if !has {
		return call, jsontree.NewObject(), nil
	}
	fn := rawFn.Object()
	if fn == nil {
		return nil, nil, fmt.Errorf("function is %s, expected an object", rawFn.Describe())
	}
	return call, fn, nil
}

// callArgs decodes function.arguments (a JSON string); ok is false where
// upstream's json.loads would fail and the call is skipped.
func callArgs(fn *jsontree.Value) (*jsontree.Value, bool) {
	s, ok := "{}", true
	if raw, has := fn.Lookup("arguments"); has {
		s, ok = raw.AsString()
	}
	if !ok {
		return nil, false
	}
	v, err := jsontree.Parse([]byte(s))
	if err != nil {
		return nil, false
	}
	return v, true
}

// callStep is upstream's per-call rule: str_replace_editor view and
// execute_bash only.
func callStep(fn *jsontree.Value) (model.Step, bool, error) {
	name := fn.Get("name").Text()
	if name != "str_replace_editor" && name != "execute_bash" {
		return model.Step{}, false, nil
	}
	v, ok := callArgs(fn)
	if !ok {
		return model.Step{}, false, nil
	}
	args := v.Object()
	if args == nil {
		return model.Step{}, false, fmt.Errorf("arguments decode to %s, expected an object", v.Describe())
	}
	if name == "str_replace_editor" {
		if args.Get("command").Text() != "view" {
			return model.Step{}, false, nil
		}
		if p, has := args.Lookup("path"); has && p.Truthy() {
			if !p.Is(jsontree.String) {
				return model.Step{}, false, fmt.Errorf("path is %s, expected a string", p.Describe())
			}
		}
		st, ok, err := ReadStep(args, Completions)
		return st, ok && len(st.Files) > 0, err
	}
	c := args.Get("command")
	cmd, isStr := c.AsString()
	if !isStr && c.Truthy() {
		return model.Step{}, false, fmt.Errorf("command is %s, expected a string", c.Describe())
	}
	return RunCommandStep(cmd, Completions)
}

// callAction builds the timeline entry of one tool call, whose output is
// obs.
func callAction(index int, call, fn *jsontree.Value, obs string) model.Action {
	name := fn.Get("name").Text()
	a := model.Action{Index: int32(index), Tool: name}
	callKind(&a, name, fn, obs)
	if obs != "" {
		isError := strings.HasPrefix(strings.TrimSpace(obs), "ERROR")
		markFailure(&a, event{m: jsontree.NewObject()}, isError, obs)
	}
	return a
}

// callKind fills the category, command and what the call read or changed.
func callKind(a *model.Action, name string, fn *jsontree.Value, obs string) {
	v, ok := callArgs(fn)
	args := v.Object()
	if !ok || args == nil {
		a.Command = fn.Get("arguments").Text()
		a.Category = model.CategoryOther
		return
	}
	switch name {
	case "execute_bash", "bash", "terminal":
		a.Command = args.Get("command").Text()
		shellAction(a, a.Command, obs)
	case "execute_ipython_cell":
		a.Command = args.Get("code").Text()
		ipythonAction(a, a.Command, obs)
	case "str_replace_editor", "file_editor":
		cmd := args.Get("command").Text()
		a.Command = strings.TrimSpace(cmd + " " + args.Get("path").Text())
		if vr := args.Get("view_range").Items(); len(vr) == 2 {
			a.Command += fmt.Sprintf(" [%s, %s]", vr[0].Format(), vr[1].Format())
		}
		if cmd == "view" {
			readAction(a, args, obs)
		} else {
			failed := strings.HasPrefix(strings.TrimSpace(obs), "ERROR") || strings.Contains(obs, "No replacement was performed")
			editAction(a, args, obs, failed)
		}
	case "think":
		a.Command = args.Get("thought").Text()
		a.Category = model.CategoryOther
	case "finish":
		a.Command = args.Get("message").Text()
		a.Category = model.CategorySubmit
	default:
		a.Command = args.Compact()
		a.Category = model.CategoryOther
	}
}
