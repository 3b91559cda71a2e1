package openhands

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/pyval"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// recordRun turns one output.jsonl record into a run: the upstream
// prediction from `history` and a timeline of every action event with its
// observation.
func recordRun(rec map[string]any) (model.Run, error) {
	var run model.Run
	p := &run.Prediction
	p.InstanceID = pyval.Str(rec["instance_id"])
	if p.InstanceID == "" {
		p.InstanceID = pyval.Str(rec["original_inst_id"])
	}
	p.OriginalInstID = pyval.Str(rec["original_inst_id"])
	run.InstanceID = p.InstanceID
	if tr, has := rec["test_result"]; has {
		m, ok := tr.(map[string]any)
		if !ok {
			// data.get("test_result", {}).get(...) fails on anything else.
			return run, fmt.Errorf("test_result is %s, expected an object", pyval.Kind(tr))
		}
		p.ModelPatch = pyval.Str(m["git_patch"])
	}
	if meta, ok := rec["metadata"].(map[string]any); ok {
		run.Agent = "openhands"
		if c := pyval.Str(meta["agent_class"]); c != "" {
			run.Agent = "openhands " + c
		}
		if llm, ok := meta["llm_config"].(map[string]any); ok {
			run.Model = pyval.Str(llm["model"])
		}
	}

	// The evaluation harness records an error for a run that did not end
	// normally (iteration limit, crash), and the run's cost.
	run.ExitStatus = pyval.Str(rec["error"])
	run.CostUSD = toolcall.Cost(pyval.Path(rec, "metrics", "accumulated_cost"))

	hist, _ := rec["history"].([]any)
	// Upstream: each action item that yields files is one step.
	stepOf := map[int]int{} // history index -> step index
	for i, h := range hist {
		item, ok := h.(map[string]any)
		if !ok {
			continue
		}
		st, ok, err := itemStep(item)
		if err != nil {
			return run, fmt.Errorf("history[%d]: %v", i, err)
		}
		if ok {
			stepOf[i] = len(p.Steps)
			p.Steps = append(p.Steps, st)
		}
	}
	p.Final = UnionFinal(p.Steps)

	run.Actions, run.Observations, run.Thoughts = historyActions(hist, stepOf)
	return run, nil
}

// itemStep is upstream's per-item rule: `read` and `run` actions only, with
// their parameters under "args".
func itemStep(item map[string]any) (model.Step, bool, error) {
	act, _ := item["action"].(string)
	args, _ := item["args"].(map[string]any)
	if args == nil {
		args = map[string]any{}
	}
	switch act {
	case "read":
		return ReadStep(args, History)
	case "run":
		c := args["command"]
		cmd, ok := c.(string)
		if !ok && pyval.Truthy(c) {
			return model.Step{}, false, fmt.Errorf("run command is %s, expected a string", pyval.Kind(c))
		}
		return RunCommandStep(cmd, History)
	}
	return model.Step{}, false, nil
}

// event is one history entry seen through either event format: the current
// one ({"id", "action", "args", ...} and {"observation", "cause",
// "content", "extras"}) or the older flat one (fields at the top level, no
// ids), or one half of an [action, observation] pair.
type event struct {
	index int // history index, -1 for the second half of a pair
	m     map[string]any
}

func (e event) fields() map[string]any {
	if a, ok := e.m["args"].(map[string]any); ok {
		return a
	}
	return e.m // older flat events
}

// historyActions builds the timeline: every entry with an "action" is an
// action; an observation goes to the action named by its "cause", else to
// the latest action still without one. observed[i] and thoughts[i] are
// action i's.
func historyActions(hist []any, stepOf map[int]int) (acts []model.Action, observed, thoughts model.TextList) {
	var evs []event
	byID := map[string]int{}
	seenResp := map[string]bool{}
	pending := []int{} // actions without an observation, in order
	attach := func(ai int, o event) {
		a := &acts[ai]
		observed[ai] = observationText(o.m)
		finishAction(a, evs[ai], o)
		for k, p := range pending {
			if p == ai {
				pending = append(pending[:k], pending[k+1:]...)
				break
			}
		}
	}
	handle := func(e event) {
		switch {
		case e.m["action"] != nil:
			a := model.Action{Index: int32(len(acts))}
			if k, ok := stepOf[e.index]; ok && e.index >= 0 {
				a.Steps = []int{k}
			}
			thought := startAction(&a, e, seenResp)
			if id, ok := e.m["id"]; ok {
				byID[fmt.Sprint(id)] = len(acts)
			}
			acts = append(acts, a)
			observed, thoughts = append(observed, ""), append(thoughts, thought)
			evs = append(evs, e)
			pending = append(pending, len(acts)-1)
		case e.m["observation"] != nil:
			if c, ok := e.m["cause"]; ok && c != nil {
				if ai, ok := byID[fmt.Sprint(c)]; ok {
					attach(ai, e)
					return
				}
			}
			// Events with ids say what caused them; one without a known
			// cause (agent state changes, recalls) answers no action. Older
			// flat events have no ids and follow their action.
			if _, hasID := e.m["id"]; !hasID && len(pending) > 0 {
				attach(pending[len(pending)-1], e)
			}
		}
	}
	for i, h := range hist {
		switch x := h.(type) {
		case map[string]any:
			handle(event{index: i, m: x})
		case []any:
			// [action, observation] pairs (early OpenDevin outputs).
			for k, part := range x {
				if m, ok := part.(map[string]any); ok {
					idx := -1
					if k == 0 {
						idx = -2 - i // never a step: upstream skips pairs
					}
					handle(event{index: idx, m: m})
				}
			}
		}
	}
	// Actions never answered still get their command-only analysis.
	for _, ai := range pending {
		finishAction(&acts[ai], evs[ai], event{})
	}
	return acts, observed, thoughts
}

// startAction fills what the action event alone tells, and returns the
// action's thought.
func startAction(a *model.Action, e event, seenResp map[string]bool) string {
	f := e.fields()
	kind := pyval.Str(e.m["action"])
	a.Tool = kind
	thought := pyval.Str(f["thought"])
	if meta, ok := e.m["tool_call_metadata"].(map[string]any); ok {
		if fn := pyval.Str(meta["function_name"]); fn != "" {
			a.Tool = fn
		}
		if resp, ok := meta["model_response"].(map[string]any); ok {
			// Several tool calls share one response: count its tokens once.
			id := pyval.Str(resp["id"])
			if id == "" || !seenResp[id] {
				seenResp[id] = id != ""
				a.Usage = usageOf(resp["usage"])
			}
			if thought == "" {
				thought = responseText(resp)
			}
		}
	}
	a.Timestamp = parseTime(e.m["timestamp"])
	a.Command = commandText(kind, f, e.m)
	return thought
}

// finishAction sets category, reads, searches and edits once the
// observation (possibly none) is known.
func finishAction(a *model.Action, e event, obs event) {
	f := e.fields()
	kind := pyval.Str(e.m["action"])
	text := observationText(obs.m)
	isError := pyval.Str(obs.m["observation"]) == "error"
	defer markFailure(a, obs, isError, text)
	switch kind {
	case "run":
		shellAction(a, pyval.Str(f["command"]), text)
	case "run_ipython":
		ipythonAction(a, pyval.Str(f["code"]), text)
	case "read":
		a.Category = model.CategoryRead
		if isError {
			return
		}
		readAction(a, f, text)
	case "write":
		a.Category = model.CategoryEdit
		if p := pyval.Str(f["path"]); p != "" {
			a.Edits = []string{p}
		}
	case "edit":
		editAction(a, f, text, isError)
	case "finish":
		a.Category = model.CategorySubmit
	default:
		a.Category = model.CategoryOther
	}
}

// commandText is a one-line-or-more description of the action.
func commandText(kind string, f, m map[string]any) string {
	switch kind {
	case "run":
		return pyval.Str(f["command"])
	case "run_ipython":
		return pyval.Str(f["code"])
	case "read":
		s := "view " + pyval.Str(f["path"])
		if vr, ok := f["view_range"].([]any); ok && len(vr) == 2 {
			s += fmt.Sprintf(" [%v, %v]", vr[0], vr[1])
		} else if st, ok := pyval.Int(f["start"]); ok {
			if en, ok := pyval.Int(f["end"]); ok && (st != 0 || en != -1) {
				s += fmt.Sprintf(" start=%d end=%d", st, en)
			}
		}
		return s
	case "write", "edit":
		c := pyval.Str(f["command"])
		if c == "" {
			c = kind
		}
		return c + " " + pyval.Str(f["path"])
	case "browse":
		return pyval.Str(f["url"])
	case "browse_interactive":
		return pyval.Str(f["browser_actions"])
	case "think":
		return pyval.Str(f["thought"])
	case "finish":
		if s := pyval.Str(f["final_thought"]); s != "" {
			return s
		}
		if s := pyval.Str(f["thought"]); s != "" {
			return s
		}
		if o, ok := f["outputs"]; ok && pyval.Truthy(o) {
			b, _ := json.Marshal(o)
			return string(b)
		}
		return "finish"
	case "message", "system":
		return pyval.Str(f["content"])
	case "mcp":
		b, _ := json.Marshal(f["arguments"])
		return pyval.Str(f["name"]) + " " + string(b)
	}
	if s := pyval.Str(m["message"]); s != "" {
		return s
	}
	return kind
}

func observationText(m map[string]any) string {
	if m == nil {
		return ""
	}
	return contentText(m["content"])
}

// contentText flattens message content: a string or a list of text parts.
func contentText(v any) string {
	switch c := v.(type) {
	case string:
		return c
	case []any:
		var b strings.Builder
		for _, p := range c {
			if m, ok := p.(map[string]any); ok {
				b.WriteString(pyval.Str(m["text"]))
			} else if s, ok := p.(string); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// usageOf reads an OpenAI-style usage object.
func usageOf(v any) model.Usage {
	u, ok := v.(map[string]any)
	if !ok {
		return model.Usage{}
	}
	in, _ := pyval.Int(u["prompt_tokens"])
	out, _ := pyval.Int(u["completion_tokens"])
	var read int
	if d, ok := u["prompt_tokens_details"].(map[string]any); ok {
		read, _ = pyval.Int(d["cached_tokens"])
	}
	if n, ok := pyval.Int(u["cache_read_input_tokens"]); ok && read == 0 {
		read = n
	}
	write, _ := pyval.Int(u["cache_creation_input_tokens"])
	return model.NewUsage(in, out, read, write)
}

// responseText is the assistant text of a model response, if any.
func responseText(resp map[string]any) string {
	ch, _ := resp["choices"].([]any)
	if len(ch) == 0 {
		return ""
	}
	c0, _ := ch[0].(map[string]any)
	msg, _ := c0["message"].(map[string]any)
	return contentText(msg["content"])
}

// parseTime reads OpenHands' ISO timestamps (no zone means UTC) or epoch
// seconds.
func parseTime(v any) float64 {
	switch t := v.(type) {
	case string:
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
			if ts, err := time.Parse(layout, t); err == nil {
				return float64(ts.UnixNano()) / 1e9
			}
		}
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64)
		return f
	}
	return 0
}
