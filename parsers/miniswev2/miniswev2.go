// Package miniswev2 loads mini-swe-agent v2 trajectories (*.traj.json with
// "trajectory_format": "mini-swe-agent-1.1"): assistant messages carry
// OpenAI-style tool_calls (or, from the Responses API, function_call output
// items), their results come back as "role": "tool" messages (or
// function_call_output items) keyed by call id, and extra.actions repeats
// the parsed commands. v1 trajectories ("mini-swe-agent-1", ```bash blocks,
// the ContextBench runner's format) belong to another package, and this one
// refuses them.
//
// Each bash command is one timeline action analysed by parsers/internal/shell with
// its output. There is no declared final context: the ContextBench
// prediction is one step per action that displayed file lines and their
// union as the final; the patch is info.submission.
package miniswev2

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/cmdfail"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "mini-swe-agent-v2"

// v1Format is the trajectory_format of v1 files.
const v1Format = "mini-swe-agent-1"

var (
	messagesRe = lazyre.New(`"messages"\s*:\s*\[`)
	v1FormatRe = lazyre.New(`"trajectory_format"\s*:\s*"mini-swe-agent-1"`)
	versionRe  = lazyre.New(`"mini_version"\s*:\s*"`)
	v2FormatRe = lazyre.New(`"trajectory_format"\s*:\s*"mini-swe-agent-(?:1\.[1-9]|[2-9])`)
	// v2 markers: a non-empty tool_calls list, a tool message, a Responses
	// API call output, or a 2.x version stamp.
	v2MarkerRe = lazyre.New(`"tool_calls"\s*:\s*\[\s*\{|"role"\s*:\s*"tool"|"type"\s*:\s*"function_call_output"|"mini_version"\s*:\s*"[2-9]\.`)
)

// Sniff reports whether a file is a mini-swe-agent v2 trajectory. A v1 file
// (trajectory_format "mini-swe-agent-1", ```bash blocks, no tool calls) is
// never claimed.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	// A large info.config can push "messages" past the head; the 2.x
	// version stamp in info then speaks for the file.
	// Each pattern runs only where its literal is: a pattern starting with
	// a quote otherwise tries every quote of the head (most of listing a
	// folder of runs went there).
	has := func(s string) bool { return bytes.Contains(head, []byte(s)) }
	if len(t) == 0 || t[0] != '{' || !(has(`"messages"`) && messagesRe().Match(head) || has(`"mini_version"`) && versionRe().Match(head)) {
		return false
	}
	format := has(`"trajectory_format"`)
	if format && v1FormatRe().Match(head) {
		return false
	}
	return format && v2FormatRe().Match(head) ||
		(has(`"tool_calls"`) || has(`"tool"`) || has(`"function_call_output"`) || has(`"mini_version"`)) && v2MarkerRe().Match(head)
}

// ParseRuns reads one v2 trajectory, data, into a single run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	run, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	return []model.Run{run}, nil
}

func parse(path string, data []byte) (model.Run, error) {
	v, err := toolcall.Decode(data)
	if err != nil {
		return model.Run{}, jsontree.At(path, err)
	}
	doc := v.Object()
	if doc == nil {
		return model.Run{}, fmt.Errorf("%s: expected a JSON object with \"messages\"", path)
	}
	switch f := doc.Get("trajectory_format").Text(); {
	case f == v1Format:
		return model.Run{}, fmt.Errorf("%s: trajectory_format %q is mini-swe-agent v1 (```bash blocks), not v2 tool calls", path, f)
	case f != "" && !strings.HasPrefix(f, "mini-swe-agent"):
		return model.Run{}, fmt.Errorf("%s: trajectory_format %q: expected mini-swe-agent-1.1", path, f)
	}
	msgs := doc.Get("messages").Items()
	if !doc.Get("messages").Is(jsontree.Array) {
		return model.Run{}, fmt.Errorf("%s: messages: expected a list of messages", path)
	}

	info := doc.Get("info").Object()
	run := model.Run{
		Format: Name,
		Agent:  "mini-swe-agent",
		Model:  info.Path("config", "model", "model_name").Text(),
		Path:   path,
		// How the run ended and what it cost, as mini-swe-agent records them.
		ExitStatus: info.Get("exit_status").Text(),
		CostUSD:    toolcall.Cost(info.Path("model_stats", "instance_cost")),
	}
	var calls []toolcall.Call
	byID := map[string]int{}
	var waiting []int // actions without a call id, answered in order
	var carry model.Usage
	var thoughts []string     // thoughts[i] is action i's
	shown := map[int]string{} // action → its output message as the model saw it
	patch := info.Get("submission").Text()

	for i, m := range msgs {
		msg := m.Object()
		if msg == nil {
			return model.Run{}, fmt.Errorf("%s: messages[%d]: expected a message object", path, i)
		}
		role := msg.Get("role").Text()
		switch {
		case role == "assistant" || msg.Get("object").Text() == "response":
			acts, thought, ts := actionsOf(msg)
			usage := usageOf(msg)
			if run.Model == "" {
				run.Model = msg.First("model")
				if run.Model == "" {
					run.Model = msg.Path("extra", "response", "model").Text()
				}
			}
			if len(acts) == 0 {
				carry = toolcall.SumUsage(carry, usage)
				continue
			}
			for k, act := range acts {
				a := model.Action{Timestamp: ts}
				th := ""
				if k == 0 {
					th = thought
					a.Usage = toolcall.SumUsage(carry, usage)
					carry = model.Usage{}
				}
				idx := len(run.Actions)
				run.Actions = append(run.Actions, a)
				thoughts = append(thoughts, th)
				calls = append(calls, toolcall.Call{Name: act.tool, Input: jsontree.Wrap("command", jsontree.NewString(act.command))})
				if act.id != "" {
					byID[act.id] = idx
				} else {
					waiting = append(waiting, idx)
				}
			}
		case role == "tool" || msg.Get("type").Text() == "function_call_output":
			id := msg.First("tool_call_id", "call_id")
			idx, ok := byID[id]
			if !ok {
				continue
			}
			delete(byID, id)
			shown[idx] = setOutput(&calls[idx], &run.Actions[idx], msg)
		case role == "user" && run.Task == "" && len(run.Actions) == 0:
			run.Task = task.FromPrompt(toolcall.Text(msg.Get("content")))
		case role == "user" && len(waiting) > 0:
			// Text-based v2: each action's output is the next user message.
			k := waiting[0]
			waiting = waiting[1:]
			shown[k] = setOutput(&calls[k], &run.Actions[k], msg)
		case role == "exit":
			if s := msg.Path("extra", "submission").Text(); s != "" && patch == "" {
				patch = s
			}
		}
	}
	if len(run.Actions) > 0 && !toolcall.UsageZero(carry) {
		toolcall.AddUsage(&run.Actions[len(run.Actions)-1], carry)
	}
	obs := make(model.TextList, len(run.Actions))
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
		toolcall.Apply(&run.Actions[i], calls[i])
		obs[i] = calls[i].Output
		if o, ok := shown[i]; ok {
			obs[i] = o
		}
	}
	run.Observations, run.Thoughts = obs, model.TextList(thoughts)

	run.InstanceID = doc.Get("instance_id").Text()
	if run.InstanceID == "" {
		base := filepath.Base(path)
		run.InstanceID = strings.TrimSuffix(strings.TrimSuffix(base, ".json"), ".traj")
	}
	run.Prediction.InstanceID = run.InstanceID
	run.Prediction.ModelPatch = patch
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return run, nil
}

type action struct {
	tool    string
	command string
	id      string
}

// actionsOf lists the commands an assistant message issued: extra.actions
// when present (mini-swe-agent's own parse), else the tool calls.
func actionsOf(msg *jsontree.Value) (acts []action, thought string, ts float64) {
	extra := msg.Get("extra").Object()
	ts, _ = extra.Get("timestamp").Float()
	if ts == 0 {
		ts, _ = msg.Get("timestamp").Float()
	}
	thought = toolcall.Text(msg.Get("content"))
	if thought == "" {
		thought = msg.Get("reasoning_content").Text()
	}
	names := map[string]string{}
	var fromCalls []action
	for _, c := range msg.Get("tool_calls").Items() {
		call := c.Object()
		fn := call.Get("function").Object()
		a := action{tool: fn.Get("name").Text(), id: call.Get("id").Text(), command: commandOf(fn.Get("arguments"))}
		names[a.id] = a.tool
		fromCalls = append(fromCalls, a)
	}
	// Responses API: output items of type function_call / message.
	for _, o := range msg.Get("output").Items() {
		item := o.Object()
		switch item.Get("type").Text() {
		case "function_call":
			a := action{tool: item.Get("name").Text(), id: item.First("call_id", "id"), command: commandOf(item.Get("arguments"))}
			names[a.id] = a.tool
			fromCalls = append(fromCalls, a)
		case "message":
			if thought == "" {
				thought = toolcall.Text(item.Get("content"))
			}
		}
	}
	for _, x := range extra.Get("actions").Items() {
		ea := x.Object()
		cmd, ok := ea.Get("command").AsString()
		if !ok {
			continue
		}
		id := ea.Get("tool_call_id").Text()
		tool := names[id]
		if tool == "" {
			tool = "bash"
		}
		acts = append(acts, action{tool: tool, command: cmd, id: id})
	}
	if len(acts) == 0 {
		acts = fromCalls
	}
	for i := range acts {
		if acts[i].tool == "" {
			acts[i].tool = "bash"
		}
	}
	return acts, thought, ts
}

// commandOf reads the command from a call's arguments (a JSON string, or an
// object from exporters that decoded it).
func commandOf(v *jsontree.Value) string {
	if s, ok := v.AsString(); ok {
		if d, err := toolcall.Decode([]byte(s)); err == nil {
			return d.Get("command").Text()
		}
		return ""
	}
	return v.Get("command").Text()
}

func usageOf(msg *jsontree.Value) model.Usage {
	u := toolcall.OpenAIUsage(msg.Get("usage"))
	if r := msg.Path("extra", "response", "usage"); !r.IsNull() {
		u = toolcall.OpenAIUsage(r)
	}
	u.CostUSD = toolcall.Cost(msg.Path("extra", "cost")) // the call's, as mini-swe-agent's model counts it
	return u
}

var (
	outputRe     = lazyre.New(`(?s)<output>\n?(.*?)\n?</output>`)
	outputHeadRe = lazyre.New(`(?s)<output_head>\n?(.*?)\n?</output_head>`)
	outputTailRe = lazyre.New(`(?s)<output_tail>\n?(.*?)\n?</output_tail>`)
)

// setOutput records what a command printed and returns the message as the
// model saw it. The shell analyser wants the raw output: extra.raw_output
// when kept, else the text inside mini's <output> (or <output_head> and
// <output_tail> when it elided the middle).
func setOutput(c *toolcall.Call, a *model.Action, msg *jsontree.Value) string {
	content := toolcall.Text(msg.Get("content"))
	if content == "" {
		content = toolcall.Text(msg.Get("output"))
	}
	c.HasOutput = true
	c.Output = content
	if rc, ok := msg.Path("extra", "returncode").AnyInt(); ok {
		c.Exit, c.HasExit = rc, true
	} else {
		c.Exit, c.HasExit = cmdfail.ReturnCode(content)
	}
	raw, ok := msg.Path("extra", "raw_output").AsString()
	switch {
	case ok:
		c.Output = raw
	case outputRe().MatchString(content):
		c.Output = outputRe().FindStringSubmatch(content)[1]
	case outputHeadRe().MatchString(content):
		out := outputHeadRe().FindStringSubmatch(content)[1]
		if m := outputTailRe().FindStringSubmatch(content); m != nil {
			out += "\n" + m[1]
		}
		c.Output = out
	}
	if a.Timestamp == 0 {
		a.Timestamp, _ = msg.Path("extra", "timestamp").Float()
	}
	return content
}
