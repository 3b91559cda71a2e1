// Package miniswe loads mini-swe-agent v1 trajectories (.traj.json), the
// format of the ContextBench-instrumented runner: one ```bash block per
// assistant message, validated <explore_context> declarations echoed into
// the next observation, a <PATCH_CONTEXT> answer before submission.
//
// The prediction is exactly what the reference evaluator extracts from any
// .traj.json (agents/minisweagent/extract.py): explore_context steps, the
// bash fallback, the last <PATCH_CONTEXT> as the final context and
// info.submission as the patch. The timeline has one action per command with
// what it displayed. The reference applies this extractor to v2
// (tool-calling) .traj.json files too, so Parse accepts them and builds
// their timeline from the tool calls; parsers/miniswev2 is their own format.
package miniswe

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/cmdfail"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/loader"
	"github.com/trajscope/trajscope/parsers/internal/shell"
	"github.com/trajscope/trajscope/parsers/internal/task"
)

// Name is the format name of mini-swe-agent v1 trajectories.
const Name = "mini-swe-agent-v1"

// Sniff reports whether a file looks like a mini-swe-agent trajectory: a
// .traj.json name, or content with mini-swe-agent's trajectory_format, or
// chat messages whose assistant turns hold ```bash blocks.
func Sniff(name string, head []byte) bool {
	if strings.HasSuffix(name, ".traj.json") {
		return true
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	if formatRe().Match(head) || (bytes.Contains(head, []byte(`"mini_version"`)) && bytes.Contains(head, []byte(`"messages"`))) {
		return true
	}
	return bytes.Contains(head, []byte(`"messages"`)) && assistantRe().Match(head) && bytes.Contains(head, []byte("```bash"))
}

var (
	formatRe    = lazyre.New(`"trajectory_format"\s*:\s*"mini-swe-agent`)
	assistantRe = lazyre.New(`"role"\s*:\s*"assistant"`)
)

// Parse builds a run from a trajectory's bytes; name is the file's base
// name, which gives the instance id as upstream derives it.
func Parse(name string, data []byte) (*model.Run, error) {
	if !utf8.Valid(data) {
		// The reference opens the file as strict UTF-8 and fails.
		return nil, fmt.Errorf("byte %d: invalid UTF-8", loader.InvalidUTF8(data))
	}
	// The messages are most of a run: each is reduced to what is read of
	// it as it is decoded, and the tree is never held whole.
	var all []message
	doc, err := jsontree.ParseEach(data, "messages", func(i int, v *jsontree.Value) {
		if i == 0 {
			all = all[:0] // a repeated key: the last list counts
		}
		all = append(all, newMessage(v))
	})
	if err != nil {
		return nil, err
	}
	ex, err := extract(doc, all)
	if err != nil {
		return nil, err
	}
	patch, err := submission(doc)
	if err != nil {
		return nil, err
	}
	run := &model.Run{Format: Name, Agent: "mini-swe-agent"}
	run.InstanceID = instanceID(name, doc)
	if id := doc.Get("instance_id").Text(); id != "" && id != run.InstanceID {
		run.RecordedID = id
	}
	run.Prediction = model.Prediction{
		InstanceID: run.InstanceID,
		Steps:      ex.steps,
		Final:      ex.final,
		ModelPatch: patch,
	}
	if v := str(doc, "info", "mini_version"); v != "" {
		run.Agent += " " + v
	}
	run.Model = str(doc, "info", "config", "model", "model_name")
	run.ExitStatus = str(doc, "info", "exit_status")
	run.CostUSD = cost(doc)
	for _, m := range all {
		if m.role == "user" {
			run.Task = task.FromPrompt(m.content) // the instance template
			break
		}
	}
	msgs, _ := messageList(doc, all) // validated by extract
	tl := buildTimeline(msgs)
	if run.Model == "" {
		run.Model = tl.model
	}
	// Link each action to the ContextBench steps its messages produced.
	for k, mi := range ex.stepMsg {
		if mi >= 0 && mi < len(tl.msgAction) && tl.msgAction[mi] >= 0 {
			a := tl.msgAction[mi]
			tl.actions[a].Steps = append(tl.actions[a].Steps, k)
		}
	}
	run.Actions, run.Observations, run.Thoughts = tl.actions, tl.obs, tl.thoughts
	return run, nil
}

// message is what the extractor and the timeline read of one message.
type message struct {
	role string
	// content is the content when it is a string; badContent the kind of
	// a truthy non-string content (upstream's regex search raises on it),
	// Null otherwise.
	content string
	// meta is what only some messages carry, shared and empty for the
	// others (an observation), so a long run's messages cost 48 bytes each.
	*meta
	kind       jsontree.Kind // the value's kind: only objects are messages
	badContent jsontree.Kind
}

type meta struct {
	model      string // extra.response.model
	toolCallID string
	stamp      float64
	usage      model.Usage
	// calls are the tool calls of a v2 assistant message.
	calls []toolCall
}

// noMeta is the meta of a message that carries none; never written.
var noMeta = &meta{}

type toolCall struct{ name, command, id string }

func newMessage(v *jsontree.Value) message {
	m := message{kind: v.Kind, meta: noMeta}
	if v.Kind != jsontree.Object {
		return m
	}
	if r, ok := v.Lookup("role"); ok && r.Kind == jsontree.String {
		m.role = r.Str
	}
	if c, ok := v.Lookup("content"); ok && c.Truthy() {
		if c.Kind == jsontree.String {
			m.content = c.Str
		} else {
			m.badContent = c.Kind
		}
	}
	mt := meta{model: str(v, "extra", "response", "model"), toolCallID: str(v, "tool_call_id"), stamp: stamp(v), usage: usage(v)}
	if calls, ok := v.Lookup("tool_calls"); ok && calls.Kind == jsontree.Array {
		mt.calls = make([]toolCall, len(calls.Arr))
		for k, call := range calls.Arr {
			mt.calls[k] = toolCall{name: str(call, "function", "name"), command: toolCommand(call), id: str(call, "id")}
		}
	}
	if mt.model != "" || mt.toolCallID != "" || mt.stamp != 0 || mt.usage != (model.Usage{}) || mt.calls != nil {
		m.meta = &mt
	}
	return m
}

// instanceID follows load_traj_file: for a .traj.json name, the base name
// with every ".traj.json" removed (Python str.replace). A renamed file
// falls back to the recorded instance_id, then to the name minus its
// extension.
func instanceID(name string, doc *jsontree.Value) string {
	if strings.HasSuffix(name, ".traj.json") {
		return strings.ReplaceAll(name, ".traj.json", "")
	}
	if id, ok := doc.Lookup("instance_id"); ok && id.Kind == jsontree.String && id.Str != "" {
		return id.Str
	}
	if i := strings.IndexByte(name, '.'); i > 0 {
		return name[:i]
	}
	return name
}

// str walks object keys and returns the string found, or "".
func str(v *jsontree.Value, keys ...string) string {
	for _, k := range keys {
		next, ok := v.Lookup(k)
		if !ok {
			return ""
		}
		v = next
	}
	if v.Kind == jsontree.String {
		return v.Str
	}
	return ""
}

// cost is info.model_stats.instance_cost, 0 when absent or not a number.
func cost(doc *jsontree.Value) float64 {
	v := doc
	for _, k := range []string{"info", "model_stats", "instance_cost"} {
		next, ok := v.Lookup(k)
		if !ok {
			return 0
		}
		v = next
	}
	if f, ok := v.Float(); ok && f > 0 && !math.IsInf(f, 1) {
		return f
	}
	return 0
}

type timeline struct {
	actions []model.Action
	// obs[i] and thoughts[i] are action i's.
	obs, thoughts model.TextList
	// msgAction maps a message index to the action it belongs to (the
	// assistant message that issued it and the observations that
	// followed), -1 for none.
	msgAction []int32
	model     string
}

// add appends action a, issued by message i, with its thought; it returns
// the action's index.
func (tl *timeline) add(i int, a model.Action, thought string) int {
	k := len(tl.actions)
	tl.msgAction[i] = int32(k)
	tl.actions = append(tl.actions, a)
	tl.obs, tl.thoughts = append(tl.obs, ""), append(tl.thoughts, thought)
	return k
}

// buildTimeline makes one action per command: the first ```bash block of a
// v1 assistant message, or each tool call of a v2 one. Messages that
// follow an action (observations) belong to it until the next assistant
// message. A v1 message with <PATCH_CONTEXT> is a submit action even
// without a command.
func buildTimeline(msgs []message) *timeline {
	// int32: a run file holds at most 4 GiB, so fewer than 2^31 messages.
	tl := &timeline{msgAction: make([]int32, len(msgs))}
	for i := range tl.msgAction {
		tl.msgAction[i] = -1
	}
	// About one action per assistant message: sized once, a long run's
	// actions are not copied at every doubling.
	n := 0
	for i := range msgs {
		if msgs[i].role == "assistant" {
			n++
		}
	}
	tl.actions = make([]model.Action, 0, n)
	tl.obs, tl.thoughts = make(model.TextList, 0, n), make(model.TextList, 0, n)
	// An action's observations are joined by "\n": the first is kept as the
	// action's observation, the rest (rare) beside it.
	nobs := make([]int32, 0, n)
	more := map[int][]string{}
	byCallID := map[string]int{}
	cur := -1
	for i := range msgs {
		msg := &msgs[i]
		c := msg.content
		if msg.role == "assistant" {
			cur = -1
			if tl.model == "" {
				tl.model = msg.model
			}
			if len(msg.calls) > 0 {
				for k, call := range msg.calls {
					a := model.Action{Index: int32(len(tl.actions)), Tool: call.name, Command: call.command}
					thought := ""
					if k == 0 {
						thought = python.StripSpace(c)
						a.Timestamp, a.Usage = msg.stamp, msg.usage
					}
					if call.id != "" {
						byCallID[call.id] = len(tl.actions)
					}
					cur = tl.add(i, a, thought)
					nobs = append(nobs, 0)
				}
				continue
			}
			loc := bashRe().FindStringSubmatchIndex(c)
			hasPatch := strings.Contains(c, "<PATCH_CONTEXT>")
			if loc == nil && !hasPatch {
				continue
			}
			a := model.Action{Index: int32(len(tl.actions)), Timestamp: msg.stamp, Usage: msg.usage}
			thought := python.StripSpace(c)
			if loc != nil {
				a.Tool = "bash"
				a.Command = python.StripSpace(c[loc[2]:loc[3]])
				thought = python.StripSpace(c[:loc[0]])
			}
			if hasPatch {
				a.Category = model.CategorySubmit
			}
			cur = tl.add(i, a, thought)
			nobs = append(nobs, 0)
			continue
		}
		target := cur
		if id := msg.toolCallID; id != "" {
			if a, ok := byCallID[id]; ok {
				target = a
			}
		}
		if target >= 0 {
			tl.msgAction[i] = int32(target)
			switch nobs[target]++; nobs[target] {
			case 1:
				tl.obs[target] = c
			case 2:
				more[target] = []string{tl.obs[target], c}
			default:
				more[target] = append(more[target], c)
			}
		}
	}
	for i := range tl.actions {
		a := &tl.actions[i]
		if list, ok := more[i]; ok {
			tl.obs[i] = strings.Join(list, "\n")
		}
		if a.Command == "" {
			continue
		}
		obs := tl.obs[i]
		code, known := cmdfail.ReturnCode(obs)
		cmdfail.Mark(a, code, known, false, outputOf(obs))
		r := shell.ConfirmFromObservation(shell.Analyze(a.Command), obs)
		if a.Category != model.CategorySubmit {
			a.Category = r.Category
		}
		a.Reads, a.Searches, a.Edits = r.Reads, r.Searches, r.Edits
		if a.Changes == nil && !a.Failed() { // a failed sed changed nothing
			a.Changes = r.Changes
		}
	}
	for i := range tl.actions {
		if tl.actions[i].Category == 0 {
			tl.actions[i].Category = model.CategoryOther
		}
	}
	return tl
}

// toolCommand returns a tool call's "command" argument (arguments is a JSON
// string), or the raw arguments when they hold no command.
func toolCommand(call *jsontree.Value) string {
	args := str(call, "function", "arguments")
	if m, err := jsontree.Parse([]byte(args)); err == nil {
		if c, ok := m.Get("command").AsString(); ok {
			return c
		}
	}
	return args
}

// stamp returns a message's timestamp (seconds since the epoch), or 0.
func stamp(msg *jsontree.Value) float64 {
	for _, keys := range [][]string{{"timestamp"}, {"extra", "timestamp"}, {"extra", "response", "created"}} {
		v := msg
		ok := true
		for _, k := range keys {
			if v, ok = v.Lookup(k); !ok {
				break
			}
		}
		if ok {
			if f, ok := v.Float(); ok {
				return f
			}
		}
	}
	return 0
}

// usage reads the LiteLLM usage block of an assistant message.
func usage(msg *jsontree.Value) model.Usage {
	u, ok := msg.Lookup("extra")
	if ok {
		u, ok = u.Lookup("response")
	}
	if ok {
		u, ok = u.Lookup("usage")
	}
	if !ok {
		return model.Usage{}
	}
	num := func(keys ...string) int {
		v := u
		for _, k := range keys {
			var ok bool
			if v, ok = v.Lookup(k); !ok {
				return 0
			}
		}
		n, _ := v.Int()
		return int(n)
	}
	return model.NewUsage(num("prompt_tokens"), num("completion_tokens"),
		num("prompt_tokens_details", "cached_tokens")+num("cache_read_input_tokens"), num("cache_creation_input_tokens"))
}

// outputOf strips mini-swe-agent's "<returncode>N</returncode>" and
// "<output>" wrapper from an observation, leaving what the command printed.
func outputOf(obs string) string {
	if i := strings.Index(obs, "<output>"); i >= 0 && i < 256 {
		obs = strings.TrimPrefix(obs[i+len("<output>"):], "\n")
	}
	return obs
}
