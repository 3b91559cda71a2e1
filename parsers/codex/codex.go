// Package codex loads runs of the OpenAI Codex CLI, in the three shapes it
// writes them:
//
//   - the rollout it keeps under ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl,
//     one {timestamp, type, payload} record a line: session_meta (the
//     session id, cwd, CLI version, git), turn_context (the model),
//     response_item (the conversation: message, reasoning, function_call,
//     function_call_output, custom_tool_call (apply_patch), local_shell_call,
//     web_search_call) and event_msg (token counts; the rest repeats the
//     response items);
//   - the legacy rollout of early 2025: a first line {id, timestamp,
//     instructions, git}, then the response items themselves, one a line,
//     with {"record_type": "state"} lines between them;
//   - the event stream of `codex exec --json`: thread.started, turn.started,
//     item.started/updated/completed (command_execution, file_change,
//     mcp_tool_call, web_search, reasoning, agent_message, …) and
//     turn.completed with the turn's token usage.
//
// Every tool call becomes one timeline action: shell commands (the
// "shell"/"shell_command"/"exec_command" tools, local shell calls and
// command_execution items) are read as mini-swe-agent's are, by
// parsers/internal/shell, so `sed -n`, `cat`, `nl` and `rg` are reads and
// searches; apply_patch and file_change items are edits. A command the
// sandbox declined did not run and says so. Paths under the session's
// working directory are made relative to it. There is no declared final
// context: the ContextBench prediction is one step per action that
// displayed file lines, and their union as the final.
package codex

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "codex"

var (
	// rolloutRe finds a current rollout record's type.
	rolloutRe = lazyre.New(`"type"\s*:\s*"(?:session_meta|response_item|event_msg|turn_context|compacted)"`)
	// execRe finds a `codex exec --json` event.
	execRe = lazyre.New(`"type"\s*:\s*"(?:thread\.started|turn\.started|turn\.completed|turn\.failed|item\.(?:started|updated|completed))"`)
	// legacyRe finds a legacy rollout's item or state record.
	legacyRe = lazyre.New(`"record_type"\s*:\s*"state"|"type"\s*:\s*"(?:function_call|function_call_output|local_shell_call|custom_tool_call)"`)
	// exitRe reads the exit status the newer shell tools print above their
	// output ("Exit code: 0", "Process exited with code 0").
	exitRe = lazyre.New(`(?m)^(?:Exit code: |Process exited with code )(-?\d+)\s*$`)
)

// Sniff reports whether a file is a Codex rollout or exec event stream,
// from its first JSON lines.
func Sniff(_ string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	if bytes.Contains(head, []byte(`"traj_data"`)) {
		return false
	}
	lines := toolcall.Lines(head)
	for i, ln := range lines {
		if i == 8 {
			break
		}
		l := bytes.TrimSpace(ln.Text)
		switch {
		case len(l) == 0 || l[0] != '{':
			return false
		case rolloutRe().Match(l) && bytes.Contains(l, []byte(`"payload"`)), execRe().Match(l):
			return true
		case i > 0 && legacyRe().Match(l) && legacyHeader(lines[0].Text):
			return true
		}
	}
	return false
}

// legacyHeader reports a legacy rollout's first line: an object with the
// session id, its time and the instructions, and no record type.
func legacyHeader(line []byte) bool {
	v, err := jsontree.Parse(bytes.TrimSpace(line))
	if err != nil || v.Kind != jsontree.Object {
		return false
	}
	_, id := v.Lookup("id")
	_, ts := v.Lookup("timestamp")
	_, typ := v.Lookup("type")
	return id && ts && !typ
}

// ParseRuns reads one Codex file, data, into a single run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	run, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	return []model.Run{run}, nil
}

func parse(path string, data []byte) (model.Run, error) {
	b := &builder{byCall: map[string]int{}}
	lines := toolcall.Lines(data)
	for i, ln := range lines {
		t := bytes.TrimSpace(ln.Text)
		if len(t) == 0 || t[0] != '{' {
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		if err != nil {
			if i == len(lines)-1 && b.recognised > 0 {
				break // a half-written last record of a session still running
			}
			return model.Run{}, jsontree.At(path, err)
		}
		b.record(v, i == 0)
	}
	if b.recognised == 0 {
		return model.Run{}, fmt.Errorf("%s: no Codex records (expected rollout lines with \"type\": \"session_meta\"/\"response_item\"/… and a \"payload\", or `codex exec --json` events)", path)
	}
	run := b.finish()
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	if run.InstanceID == "" {
		base := filepath.Base(path)
		run.InstanceID = strings.TrimSuffix(base, filepath.Ext(base))
	}
	run.Prediction.InstanceID = run.InstanceID
	return run, nil
}

type builder struct {
	run        model.Run
	recognised int
	cwd        string
	version    string
	actions    []model.Action
	calls      []toolcall.Call // calls[i] is action i's (Name "" for an action built whole)
	obs        model.TextList
	thoughts   model.TextList
	byCall     map[string]int // call_id → action
	thought    []string       // text since the last action, for the next one
	turnFirst  int            // the first action of the current exec turn
}

// record reads one line of any of the three shapes.
func (b *builder) record(v *jsontree.Value, first bool) {
	ts := toolcall.ParseTime(v.Get("timestamp").Text())
	typ := v.Get("type").Text()
	payload, wrapped := v.Lookup("payload")
	switch {
	case wrapped && payload.Is(jsontree.Object):
		b.recognised++
		b.rollout(typ, payload, ts)
	case strings.HasPrefix(typ, "thread.") || strings.HasPrefix(typ, "turn.") || strings.HasPrefix(typ, "item."):
		b.recognised++
		b.exec(typ, v)
	case v.Get("record_type").Text() == "state":
		b.recognised++
	case first && typ == "":
		// The legacy header: the session's id and git state.
		if _, ok := v.Lookup("id"); ok {
			b.recognised++
			b.meta(v)
		}
	case typ != "":
		if b.item(v, ts) {
			b.recognised++
		}
	}
}

// meta reads session_meta (or the legacy header).
func (b *builder) meta(p *jsontree.Value) {
	if cwd := p.Get("cwd").Text(); cwd != "" {
		b.cwd = strings.TrimSuffix(cwd, "/")
	}
	if v := p.Get("cli_version").Text(); v != "" {
		b.version = v
	}
}

// rollout reads one record of the current rollout layout.
func (b *builder) rollout(typ string, p *jsontree.Value, ts float64) {
	switch typ {
	case "session_meta":
		b.meta(p)
	case "turn_context":
		if m := p.Get("model").Text(); m != "" {
			b.run.Model = m
		}
		if cwd := p.Get("cwd").Text(); cwd != "" && b.cwd == "" {
			b.cwd = strings.TrimSuffix(cwd, "/")
		}
	case "response_item":
		b.item(p, ts)
	case "event_msg":
		if p.Get("type").Text() == "token_count" {
			// The usage of the model call that just ended: it made the
			// calls since the previous count.
			if u := p.Get("info").Get("last_token_usage"); u.Is(jsontree.Object) && len(b.actions) > 0 {
				toolcall.AddUsage(&b.actions[len(b.actions)-1], usage(u))
			}
		}
	}
}

// item reads one response item (a rollout's payload, or a legacy line); it
// reports whether it knew the item.
func (b *builder) item(p *jsontree.Value, ts float64) bool {
	switch p.Get("type").Text() {
	case "message":
		switch p.Get("role").Text() {
		case "assistant":
			b.say(toolcall.Text(p.Get("content")))
		case "user":
			// The first prompt is the task; Codex's own context messages
			// (<environment_context>, AGENTS.md, <user_instructions>) are not.
			text := strings.TrimSpace(toolcall.Text(p.Get("content")))
			if b.run.Task == "" && text != "" && !strings.HasPrefix(text, "<") && !strings.HasPrefix(text, "# AGENTS.md") {
				b.run.Task = task.FromPrompt(text)
			}
		}
	case "reasoning":
		var parts []string
		for _, s := range p.Get("summary").Items() {
			if t := s.Get("text").Text(); t != "" {
				parts = append(parts, t)
			}
		}
		b.say(strings.Join(parts, "\n"))
	case "function_call":
		args := p.Get("arguments").Text()
		in, err := jsontree.Parse([]byte(args))
		if err != nil || in.Kind != jsontree.Object {
			in = jsontree.Wrap("input", jsontree.NewString(args)) // a freeform tool's raw text
		}
		b.call(p.Get("call_id").Text(), toolcall.Call{Name: p.Get("name").Text(), Input: in}, ts)
	case "custom_tool_call":
		b.call(p.Get("call_id").Text(), toolcall.Call{Name: p.Get("name").Text(), Input: jsontree.Wrap("input", jsontree.NewString(p.Get("input").Text()))}, ts)
	case "local_shell_call":
		cmd := p.Get("action").Get("command") // an argv list, as the shell tool's
		if cmd == nil {
			cmd = jsontree.NewString("")
		}
		in := jsontree.Wrap("command", cmd)
		b.call(p.First("call_id", "id"), toolcall.Call{Name: "local_shell", Input: in}, ts)
	case "web_search_call":
		b.add(model.Action{Tool: "web_search", Category: model.CategorySearch, Timestamp: ts,
			Command: "web search " + strconv.Quote(p.Get("action").Get("query").Text())}, "")
	case "function_call_output", "custom_tool_call_output":
		k, ok := b.byCall[p.Get("call_id").Text()]
		if !ok {
			return true
		}
		out := p.Get("output")
		text, exit, hasExit := callOutput(out)
		c := &b.calls[k]
		c.Output, c.HasOutput, c.Exit, c.HasExit = text, true, exit, hasExit
		if s := out.Get("success"); s.Is(jsontree.Bool) && !s.Bool {
			c.IsError = true
		}
		b.obs[k] = text
	default:
		return false
	}
	return true
}

// exec reads one `codex exec --json` event.
func (b *builder) exec(typ string, v *jsontree.Value) {
	switch typ {
	case "thread.started":
		b.run.Prediction.InstanceID = "" // named from the path
	case "turn.started":
		b.turnFirst = len(b.actions)
	case "turn.completed":
		if u := v.Get("usage"); u.Is(jsontree.Object) && len(b.actions) > b.turnFirst {
			toolcall.AddUsage(&b.actions[len(b.actions)-1], usage(u))
		}
	case "item.completed":
		it := v.Get("item")
		switch it.Get("type").Text() {
		case "reasoning", "agent_message":
			b.say(it.Get("text").Text())
		case "command_execution":
			cmd := toolcall.UnwrapShell(it.Get("command").Text())
			c := toolcall.Call{Name: "shell", Input: jsontree.Wrap("command", jsontree.NewString(cmd)),
				Output: it.Get("aggregated_output").Text(), HasOutput: true}
			if n, ok := it.Get("exit_code").Int(); ok {
				c.Exit, c.HasExit = n, true
			}
			if it.Get("status").Text() == "declined" {
				c.NotRun = "the command was declined"
			}
			b.call("", c, 0)
		case "file_change":
			var files []string
			for _, ch := range it.Get("changes").Items() {
				if p := ch.Get("path").Text(); p != "" {
					files = append(files, ch.Get("kind").Text()+" "+p)
				}
			}
			a := model.Action{Tool: "file_change", Category: model.CategoryEdit, Command: "apply patch: " + strings.Join(files, ", ")}
			for _, ch := range it.Get("changes").Items() {
				if p := ch.Get("path").Text(); p != "" {
					a.Edits = append(a.Edits, p)
				}
			}
			if it.Get("status").Text() == "failed" {
				a.Failure, a.Edits = "the patch failed", nil
			}
			b.add(a, "")
		case "mcp_tool_call":
			b.add(model.Action{Tool: it.Get("server").Text() + "." + it.Get("tool").Text(), Category: model.CategoryOther,
				Command: it.Get("server").Text() + "." + it.Get("tool").Text()}, "")
		case "web_search":
			b.add(model.Action{Tool: "web_search", Category: model.CategorySearch, Command: "web search " + strconv.Quote(it.Get("query").Text())}, "")
		}
	}
}

// say keeps the model's text for the next action.
func (b *builder) say(s string) {
	if s = strings.TrimSpace(s); s != "" {
		b.thought = append(b.thought, s)
	}
}

// call adds a tool call's action, to be read once its output is known.
func (b *builder) call(id string, c toolcall.Call, ts float64) int {
	k := b.add(model.Action{Timestamp: ts}, c.Output)
	b.calls[k] = c
	if id != "" {
		b.byCall[id] = k
	}
	return k
}

// add appends an action with the thought said before it.
func (b *builder) add(a model.Action, out string) int {
	b.actions = append(b.actions, a)
	b.calls = append(b.calls, toolcall.Call{})
	b.obs = append(b.obs, out)
	b.thoughts = append(b.thoughts, strings.Join(b.thought, "\n\n"))
	b.thought = nil
	return len(b.actions) - 1
}

// finish reads every call with its output, numbers the actions and builds
// the prediction.
func (b *builder) finish() model.Run {
	run := b.run
	for i := range b.actions {
		a := &b.actions[i]
		if c := b.calls[i]; c.Name != "" {
			keep := *a
			toolcall.Apply(a, c)
			a.Timestamp, a.Usage = keep.Timestamp, keep.Usage
		}
		a.Index = int32(i)
		toolcall.Relative(a, b.cwd)
	}
	run.Actions, run.Observations, run.Thoughts = b.actions, b.obs, b.thoughts
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format = Name
	run.Agent = "codex"
	if b.version != "" {
		run.Agent += " " + b.version
	}
	return run
}

// callOutput reads a tool call's output: the rollout's {"output": …,
// "metadata": {"exit_code": …}} document (a string holding JSON, or the
// object itself), the newer shell tools' text with an "Exit code:" header,
// or plain text.
func callOutput(v *jsontree.Value) (text string, exit int, hasExit bool) {
	doc := v
	if s, ok := v.AsString(); ok {
		text = s
		if d, err := jsontree.Parse([]byte(s)); err == nil && d.Kind == jsontree.Object {
			doc = d
		}
	} else if c := v.Get("content"); c.Is(jsontree.String) {
		text = c.Str // a structured payload: {"content": …, "success": …}
	}
	if o := doc.Get("output"); o.Is(jsontree.String) {
		text = o.Str
		if n, ok := doc.Get("metadata").Get("exit_code").Int(); ok {
			return text, n, true
		}
		return text, 0, false
	}
	if m := exitRe().FindStringSubmatchIndex(text); m != nil && m[0] < 512 {
		n, _ := strconv.Atoi(text[m[2]:m[3]])
		if _, rest, ok := strings.Cut(text, "\nOutput:\n"); ok {
			text = rest
		}
		return text, n, true
	}
	return text, 0, false
}

// usage reads a Codex token usage: input_tokens includes the cached ones.
func usage(u *jsontree.Value) model.Usage {
	in, _ := u.Get("input_tokens").Int()
	cached, _ := u.Get("cached_input_tokens").Int()
	out, _ := u.Get("output_tokens").Int()
	return model.NewUsage(max(in-cached, 0), out, cached, 0)
}
