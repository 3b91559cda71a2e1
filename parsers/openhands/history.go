package openhands

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// recordRun turns one output.jsonl record into a run: the upstream
// prediction from `history` and a timeline of every action event with its
// observation.
func recordRun(rec *jsontree.Value) (model.Run, error) {
	var run model.Run
	p := &run.Prediction
	p.InstanceID = rec.Get("instance_id").Text()
	if p.InstanceID == "" {
		p.InstanceID = rec.Get("original_inst_id").Text()
	}
	p.OriginalInstID = rec.Get("original_inst_id").Text()
	run.InstanceID = p.InstanceID
	if tr, has := rec.Lookup("test_result"); has {
		m := tr.Object()
		if m == nil {
			// data.get("test_result", {}).get(...) fails on anything else.
			return run, fmt.Errorf("test_result is %s, expected an object", tr.Describe())
		}
		p.ModelPatch = m.Get("git_patch").Text()
	} else {
		// The resolver's patch: shown, not scored (the evaluator reads
		// test_result only).
		run.RecordedPatch = rec.Get("git_patch").Text()
	}
	if meta := rec.Get("metadata").Object(); meta != nil {
		run.Agent = "openhands"
		if c := meta.Get("agent_class").Text(); c != "" {
			run.Agent = "openhands " + c
		}
		if llm := meta.Get("llm_config").Object(); llm != nil {
			run.Model = llm.Get("model").Text()
		} else if llm := meta.Get("llm").Object(); llm != nil { // V1
			run.Model = llm.Get("model").Text()
		}
	}

	// The evaluation harness records an error for a run that did not end
	// normally (iteration limit, crash), and the run's cost.
	run.ExitStatus = rec.Get("error").Text()
	run.CostUSD = toolcall.Cost(rec.Path("metrics", "accumulated_cost"))

	hist := rec.Get("history").Items()
	run.Task = taskOf(rec, hist)
	// Upstream: each action item that yields files is one step.
	stepOf := map[int]int{} // history index -> step index
	for i, h := range hist {
		item := h.Object()
		if item == nil {
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

	if isV1(hist) {
		run.Actions, run.Observations, run.Thoughts = v1Actions(hist)
		unreadEvents(&run, hist)
		return run, nil
	}
	run.Actions, run.Observations, run.Thoughts = historyActions(hist, stepOf)
	for _, h := range hist {
		if k := h.Get("action").Text(); k != "" && !v0Actions[k] {
			run.NoteUnread("action:" + k)
		}
	}
	return run, nil
}

// v0Actions are the event actions of OpenHands' first history format the
// reader understands.
var v0Actions = map[string]bool{
	"message": true, "run": true, "run_ipython": true, "read": true, "write": true, "edit": true, "browse": true,
	"browse_interactive": true, "think": true, "finish": true, "recall": true, "system": true, "delegate": true,
	"change_agent_state": true, "mcp": true, "condensation": true, "condensation_request": true, "null": true,
	"reject": true, "start": true, "send_pr": true, "task_tracking": true, "summarize": true, "add_task": true,
	"modify_task": true, "push": true, "talk": true, "kill": true,
}

// itemStep is upstream's per-item rule: `read` and `run` actions only, with
// their parameters under "args".
func itemStep(item *jsontree.Value) (model.Step, bool, error) {
	act := item.Get("action").Text()
	args := item.Get("args").Object()
	if args == nil {
		args = jsontree.NewObject()
	}
	switch act {
	case "read":
		return ReadStep(args, History)
	case "run":
		c := args.Get("command")
		cmd, ok := c.AsString()
		if !ok && c.Truthy() {
			return model.Step{}, false, fmt.Errorf("run command is %s, expected a string", c.Describe())
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
	m     *jsontree.Value
}

func (e event) fields() *jsontree.Value {
	if a := e.m.Get("args").Object(); a != nil {
		return a
	}
	return e.m // older flat events
}

// historyActions builds the timeline: every entry with an "action" is an
// action; an observation goes to the action named by its "cause", else to
// the latest action still without one. observed[i] and thoughts[i] are
// action i's.
func historyActions(hist []*jsontree.Value, stepOf map[int]int) (acts []model.Action, observed, thoughts model.TextList) {
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
		switch kind := e.m.Get("action").Text(); {
		case kind == "system" || kind == "recall" || kind == "message" && e.m.Get("source").Text() == "user":
			// The system prompt, the user's message (the task) and the
			// memory recall set the run up: the agent did nothing.
		case !e.m.Get("action").IsNull():
			a := model.Action{Index: int32(len(acts))}
			if k, ok := stepOf[e.index]; ok && e.index >= 0 {
				a.Steps = []int{k}
			}
			thought := startAction(&a, e, seenResp)
			if id, ok := e.m.Lookup("id"); ok {
				byID[id.Format()] = len(acts)
			}
			acts = append(acts, a)
			observed, thoughts = append(observed, ""), append(thoughts, thought)
			evs = append(evs, e)
			pending = append(pending, len(acts)-1)
		case !e.m.Get("observation").IsNull():
			if c := e.m.Get("cause"); !c.IsNull() {
				if ai, ok := byID[c.Format()]; ok {
					attach(ai, e)
					return
				}
			}
			// Events with ids say what caused them; one without a known
			// cause (agent state changes, recalls) answers no action. Older
			// flat events have no ids and follow their action.
			if _, hasID := e.m.Lookup("id"); !hasID && len(pending) > 0 {
				attach(pending[len(pending)-1], e)
			}
		}
	}
	for i, h := range hist {
		switch h.Kind {
		case jsontree.Object:
			handle(event{index: i, m: h})
		case jsontree.Array:
			// [action, observation] pairs (early OpenDevin outputs).
			for k, part := range h.Arr {
				if m := part.Object(); m != nil {
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
	kind := e.m.Get("action").Text()
	a.Tool = kind
	thought := f.Get("thought").Text()
	if meta := e.m.Get("tool_call_metadata").Object(); meta != nil {
		if fn := meta.Get("function_name").Text(); fn != "" {
			a.Tool = fn
		}
		if resp := meta.Get("model_response").Object(); resp != nil {
			// Several tool calls share one response: count its tokens once.
			id := resp.Get("id").Text()
			if id == "" || !seenResp[id] {
				seenResp[id] = id != ""
				a.Usage = usageOf(resp.Get("usage"))
			}
			if thought == "" {
				thought = responseText(resp)
			}
		}
	}
	a.Timestamp = parseTime(e.m.Get("timestamp"))
	a.Command = commandText(kind, f, e.m)
	return thought
}

// finishAction sets category, reads, searches and edits once the
// observation (possibly none) is known.
func finishAction(a *model.Action, e event, obs event) {
	f := e.fields()
	kind := e.m.Get("action").Text()
	text := observationText(obs.m)
	isError := obs.m.Get("observation").Text() == "error"
	defer markFailure(a, obs, isError, text)
	switch kind {
	case "run":
		shellAction(a, f.Get("command").Text(), text)
	case "run_ipython":
		ipythonAction(a, f.Get("code").Text(), text)
	case "read":
		a.Category = model.CategoryRead
		if isError {
			return
		}
		readAction(a, f, text)
	case "write":
		a.Category = model.CategoryEdit
		if p := f.Get("path").Text(); p != "" {
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
func commandText(kind string, f, m *jsontree.Value) string {
	switch kind {
	case "run":
		return f.Get("command").Text()
	case "run_ipython":
		return f.Get("code").Text()
	case "read":
		s := "view " + f.Get("path").Text()
		if vr := f.Get("view_range").Items(); f.Get("view_range").Is(jsontree.Array) && len(vr) == 2 {
			s += fmt.Sprintf(" [%s, %s]", vr[0].Format(), vr[1].Format())
		} else if st, ok := f.Get("start").Int(); ok {
			if en, ok := f.Get("end").Int(); ok && (st != 0 || en != -1) {
				s += fmt.Sprintf(" start=%d end=%d", st, en)
			}
		}
		return s
	case "write", "edit":
		c := f.Get("command").Text()
		if c == "" {
			c = kind
		}
		return c + " " + f.Get("path").Text()
	case "browse":
		return f.Get("url").Text()
	case "browse_interactive":
		return f.Get("browser_actions").Text()
	case "think":
		return f.Get("thought").Text()
	case "finish":
		if s := f.Get("final_thought").Text(); s != "" {
			return s
		}
		if s := f.Get("thought").Text(); s != "" {
			return s
		}
		if o := f.Get("outputs"); o.Truthy() {
			return o.Compact()
		}
		return "finish"
	case "message", "system":
		return f.Get("content").Text()
	case "mcp":
		return f.Get("name").Text() + " " + f.Get("arguments").Compact()
	}
	if s := m.Get("message").Text(); s != "" {
		return s
	}
	return kind
}

func observationText(m *jsontree.Value) string {
	if m == nil {
		return ""
	}
	return contentText(m.Get("content"))
}

// contentText flattens message content: a string or a list of text parts.
func contentText(v *jsontree.Value) string {
	switch {
	case v.Is(jsontree.String):
		return v.Str
	case v.Is(jsontree.Array):
		var b strings.Builder
		for _, p := range v.Arr {
			if m := p.Object(); m != nil {
				b.WriteString(m.Get("text").Text())
			} else if s, ok := p.AsString(); ok {
				b.WriteString(s)
			}
		}
		return b.String()
	}
	return ""
}

// usageOf reads an OpenAI-style usage object.
func usageOf(v *jsontree.Value) model.Usage {
	u := v.Object()
	if u == nil {
		return model.Usage{}
	}
	in, _ := u.Get("prompt_tokens").Int()
	out, _ := u.Get("completion_tokens").Int()
	var read int
	if d := u.Get("prompt_tokens_details").Object(); d != nil {
		read, _ = d.Get("cached_tokens").Int()
	}
	if n, ok := u.Get("cache_read_input_tokens").Int(); ok && read == 0 {
		read = n
	}
	write, _ := u.Get("cache_creation_input_tokens").Int()
	return model.NewUsage(in, out, read, write)
}

// responseText is the assistant text of a model response, if any.
func responseText(resp *jsontree.Value) string {
	ch := resp.Get("choices").Items()
	if len(ch) == 0 {
		return ""
	}
	c0 := ch[0].Object()
	msg := c0.Get("message").Object()
	return contentText(msg.Get("content"))
}

// parseTime reads OpenHands' ISO timestamps (no zone means UTC) or epoch
// seconds.
func parseTime(v *jsontree.Value) float64 {
	switch {
	case v.Is(jsontree.String):
		for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999"} {
			if ts, err := time.Parse(layout, v.Str); err == nil {
				return float64(ts.UnixNano()) / 1e9
			}
		}
	case v.Is(jsontree.Number):
		f, _ := strconv.ParseFloat(v.Str, 64)
		return f
	}
	return 0
}

// taskOf is the run's task: the evaluation record's problem statement (or
// the resolver's issue), else the first message the user sent (a V0 message action, a V1 MessageEvent),
// out of OpenHands' prompt.
func taskOf(rec *jsontree.Value, hist []*jsontree.Value) string {
	if ps := rec.Path("instance", "problem_statement").Text(); strings.TrimSpace(ps) != "" {
		return strings.Clone(strings.TrimSpace(ps))
	}
	if issue := rec.Get("issue").Object(); issue != nil {
		// The resolver's record: the issue it was asked to fix.
		return strings.TrimSpace(issue.Get("title").Text() + "\n\n" + issue.Get("body").Text())
	}
	for _, h := range hist {
		if src := h.Get("source").Text(); src != "user" && src != "" {
			continue
		}
		switch {
		case h.Get("action").Text() == "message":
			text := h.Path("args", "content").Text()
			if text == "" {
				text = h.First("message", "content")
			}
			return task.FromPrompt(text)
		case h.Get("kind").Text() == "MessageEvent":
			return task.FromPrompt(toolcall.Text(h.Path("llm_message", "content")))
		}
	}
	return ""
}
