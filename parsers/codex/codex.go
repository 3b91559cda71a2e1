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
// Codex 0.147 and later also write event_msg records {"type":
// "item_completed", "item": {"type": "CommandExecution" | "FileChange" |
// "McpToolCall" | "WebSearch" | "AgentMessage" | …}}: an item whose call
// the rollout already holds enriches it (its exit code, and Codex's own
// reading of the command, parsed_cmd: read {path}, list_files, search
// {query, path}, used where the shell reading finds nothing), another is an
// action of its own. "Code Mode" runs commands from JavaScript: a
// custom_tool_call named exec whose source calls tools.exec_command({cmd:
// …}) is one action per command it names. A sub-agent Codex started
// (spawn_agent) is a session of its own, whose session_meta names this one
// (source.subagent.thread_spawn.parent_thread_id): such rollouts beside this
// one (the same day's folder and the days around it) are read in as agents
// of the run, nested ones too.
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
	"sort"
	"strconv"
	"strings"
	"time"

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
	// execCmdRe finds a Code Mode script's tools.exec_command({cmd: …})
	// calls whose command is a string literal.
	execCmdRe = lazyre.New("exec_command\\(\\s*\\{[^}]*?\\bcmd\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`)")
	// threadIDRe finds a thread id (a UUID) in a spawn_agent call's output.
	threadIDRe = lazyre.New(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// dayDirRe matches the sessions/YYYY/MM/DD folder a rollout sits in.
	dayDirRe = lazyre.New(`(\d{4})/(\d{2})/(\d{2})$`)
)

// codeModeCommands is each command a Code Mode script runs with
// tools.exec_command({cmd: "…"}), in order; a command held in a variable
// cannot be known and is left out.
func codeModeCommands(src string) []string {
	var out []string
	for _, m := range execCmdRe().FindAllStringSubmatch(src, 64) {
		lit := m[1]
		switch lit[0] {
		case '`':
			if !strings.Contains(lit, "${") {
				out = append(out, lit[1:len(lit)-1])
			}
		default:
			// A JavaScript string literal, read as Go reads one: its escapes
			// are Go's but for \' (and a bare " inside single quotes).
			inner := strings.ReplaceAll(lit[1:len(lit)-1], `\'`, `'`)
			if lit[0] == '\'' {
				inner = strings.ReplaceAll(inner, `"`, `\"`)
			}
			if s, err := strconv.Unquote(`"` + inner + `"`); err == nil {
				out = append(out, s)
			}
		}
	}
	return out
}

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
	b := newBuilder()
	if err := b.file(path, data, 0); err != nil {
		return model.Run{}, err
	}
	b.subagents(path)
	run := b.finish()
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	toolcall.NameByFile(&run, path)
	return run, nil
}

func newBuilder() *builder {
	return &builder{byCall: map[string]int{}, team: toolcall.NewTeam(), spawned: map[string]int{}}
}

// file reads one rollout's records as agent's (0: the session's own).
func (b *builder) file(path string, data []byte, agent int32) error {
	b.agent, b.recognised = agent, 0
	var firstBad error
	lines := toolcall.Lines(data)
	for i, ln := range lines {
		t := bytes.TrimSpace(ln.Text)
		if len(t) == 0 || t[0] != '{' {
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		if err != nil {
			// A half-written last line of a session still running, or one
			// corrupt record: skipped, named.
			err = jsontree.At(path, err)
			if firstBad == nil {
				firstBad = err
			}
			b.run.Warn(fmt.Sprintf("line %d skipped: %v", ln.No, err))
			continue
		}
		b.record(v, i == 0)
	}
	if b.recognised == 0 && firstBad != nil {
		return firstBad
	}
	if b.recognised == 0 {
		return fmt.Errorf("%s: no Codex records (expected rollout lines with \"type\": \"session_meta\"/\"response_item\"/… and a \"payload\", or `codex exec --json` events)", path)
	}
	return nil
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
	codeMode   []int          // actions made from Code Mode scripts
	thought    []string       // text since the last action, for the next one
	turnFirst  int            // the first action of the current exec turn
	// session is the thread id of the rollout being read
	// (session_meta.payload.id); root the first one's.
	session, root string
	agent         int32 // whose records are being read
	team          *toolcall.Team
	// spawned maps a spawned thread's id to the action that started it.
	spawned map[string]int
	// parsed is each action's parsed_cmd, when Codex recorded one.
	parsed []*jsontree.Value
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

// meta reads session_meta (or the legacy header). A sub-agent's rollout
// keeps the lead's working directory and version.
func (b *builder) meta(p *jsontree.Value) {
	if id := p.Get("id").Text(); id != "" {
		b.session = id
		if b.root == "" {
			b.root = id
		}
	}
	if b.agent != 0 {
		return
	}
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
		if m := p.Get("model").Text(); m != "" && b.agent == 0 {
			b.run.Model = m
		}
		if cwd := p.Get("cwd").Text(); cwd != "" && b.cwd == "" {
			b.cwd = strings.TrimSuffix(cwd, "/")
		}
	case "response_item":
		if !b.item(p, ts) {
			b.run.NoteUnread("response_item:" + p.Get("type").Text())
		}
	case "event_msg":
		switch et := p.Get("type").Text(); et {
		case "token_count":
			// The usage of the model call that just ended: it made the
			// calls since the previous count.
			if u := p.Get("info").Get("last_token_usage"); u.Is(jsontree.Object) && len(b.actions) > 0 {
				toolcall.AddUsage(&b.actions[len(b.actions)-1], usage(u))
			}
		case "item_completed":
			b.turnItem(p.Get("item"), ts)
		default:
			if !quietEvents[et] {
				b.run.NoteUnread("event_msg:" + et)
			}
		}
	case "compacted":
	default:
		b.run.NoteUnread("record:" + typ)
	}
}

// quietEvents are the rollout's event_msg records that repeat what the
// response items hold, or carry nothing a run is made of.
var quietEvents = map[string]bool{
	"user_message": true, "agent_message": true, "agent_reasoning": true, "agent_reasoning_raw_content": true,
	"patch_apply_end": true, "thread_goal_updated": true, "context_compacted": true, "entered_review_mode": true,
	"exited_review_mode": true, "mcp_tool_call_end": true, "thread_rolled_back": true, "turn_aborted": true,
	"turn_started": true, "task_started": true, "turn_complete": true, "task_complete": true, "web_search_end": true,
	"image_generation_end": true, "sub_agent_activity": true, "exec_command_end": true, "view_image_tool_call": true,
	"error": true, "warning": true, "collab_agent_spawn_end": true, "collab_agent_interaction_end": true,
	"collab_waiting_end": true, "collab_close_end": true, "collab_resume_end": true, "plan_update": true,
	"turn_diff": true, "stream_error": true, "background_event": true, "agent_reasoning_section_break": true,
}

// turnItem reads a completed turn item (Codex 0.147+, PascalCase types):
// one whose call the rollout holds as a response item enriches that
// action; another is an action of its own.
func (b *builder) turnItem(it *jsontree.Value, ts float64) {
	id := it.Get("id").Text()
	k, known := b.byCall[id]
	switch typ := it.Get("type").Text(); typ {
	case "UserMessage":
		if b.run.Task == "" && b.agent == 0 {
			var parts []string
			for _, c := range it.Get("content").Items() {
				parts = append(parts, c.Get("text").Text())
			}
			if text := strings.TrimSpace(strings.Join(parts, "")); text != "" && !strings.HasPrefix(text, "<") {
				b.run.Task = task.FromPrompt(text)
			}
		}
	case "AgentMessage":
		if !known {
			var parts []string
			for _, c := range it.Get("content").Items() {
				parts = append(parts, c.Get("text").Text())
			}
			b.say(strings.Join(parts, "\n"))
		}
	case "Reasoning", "Plan", "Sleep", "ImageView", "ImageGeneration", "ContextCompaction", "HookPrompt", "SubAgentActivity":
	case "CommandExecution":
		c := toolcall.Call{Name: "shell", Input: jsontree.Wrap("command", jsontree.NewString(commandText(it.Get("command")))),
			Output: it.First("aggregatedOutput", "aggregated_output", "formattedOutput"), HasOutput: true}
		if n, ok := firstOf(it, "exitCode", "exit_code").Int(); ok {
			c.Exit, c.HasExit = n, true
		}
		if it.Get("status").Text() == "declined" {
			c.NotRun = "the command was declined"
		}
		parsed := firstOf(it, "parsedCmd", "parsed_cmd")
		if known {
			if !b.calls[k].HasExit && c.HasExit {
				b.calls[k].Exit, b.calls[k].HasExit = c.Exit, true
			}
			if !b.calls[k].HasOutput {
				b.calls[k].Output, b.calls[k].HasOutput = c.Output, true
				b.obs[k] = c.Output
			}
			b.parsed[k] = parsed
			return
		}
		k = b.call(id, c, ts)
		b.parsed[k] = parsed
	case "FileChange":
		if known {
			return
		}
		a := model.Action{Tool: "file_change", Category: model.CategoryEdit, Timestamp: ts}
		for _, m := range it.Get("changes").Members() {
			a.Edits = append(a.Edits, m.Key)
		}
		sort.Strings(a.Edits)
		a.Command = "apply patch: " + strings.Join(a.Edits, ", ")
		if st := it.Get("status").Text(); st == "failed" || st == "declined" {
			a.Failure, a.Edits = "the patch "+st, nil
		}
		b.add(a, "")
	case "McpToolCall", "DynamicToolCall":
		if known {
			return
		}
		name := it.Get("tool").Text()
		if s := it.First("server", "namespace"); s != "" {
			name = s + "." + name
		}
		b.add(model.Action{Tool: name, Category: model.CategoryOther, Command: name, Timestamp: ts}, "")
	case "WebSearch":
		if known {
			return
		}
		b.add(model.Action{Tool: "web_search", Category: model.CategorySearch, Timestamp: ts,
			Command: "web search " + strconv.Quote(it.Get("query").Text())}, "")
	case "CollabAgentToolCall":
		if !known {
			k = b.add(model.Action{Tool: "collab." + it.Get("tool").Text(), Category: model.CategoryOther, Timestamp: ts,
				Command: it.Get("tool").Text()}, "")
		}
		if it.Get("tool").Text() == "spawnAgent" {
			for _, r := range firstOf(it, "receiverThreadIds", "receiver_thread_ids").Items() {
				if s := r.Text(); s != "" {
					b.spawned[s] = k
				}
			}
		}
	default:
		b.run.NoteUnread("item:" + typ)
	}
}

// commandText is a command as Codex records it, an argv list or a string,
// with a `bash -lc` wrapper removed.
func commandText(v *jsontree.Value) string {
	if s, ok := v.AsString(); ok {
		return toolcall.UnwrapShell(s)
	}
	var words []string
	for _, w := range v.Items() {
		words = append(words, w.Text())
	}
	if len(words) >= 3 && (strings.HasSuffix(words[0], "bash") || strings.HasSuffix(words[0], "sh") || strings.HasSuffix(words[0], "zsh")) &&
		strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "c") {
		return words[len(words)-1]
	}
	return strings.Join(words, " ")
}

// firstOf is the first of m's members that is set.
func firstOf(m *jsontree.Value, keys ...string) *jsontree.Value {
	for _, k := range keys {
		if v := m.Get(k); !v.IsNull() {
			return v
		}
	}
	return nil
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
		name := p.Get("name").Text()
		if !toolcall.Known(name) && !strings.Contains(name, "__") {
			b.run.NoteUnread("tool:" + name) // (server__tool: an MCP tool, understood as other)
		}
		b.call(p.Get("call_id").Text(), toolcall.Call{Name: name, Input: in}, ts)
	case "custom_tool_call":
		name, src := p.Get("name").Text(), p.Get("input").Text()
		if cmds := codeModeCommands(src); name == "exec" && len(cmds) > 0 {
			// Code Mode: a script whose commands are the actions; the
			// script's output is each one's.
			for i, cmd := range cmds {
				id := ""
				if i == len(cmds)-1 {
					id = p.Get("call_id").Text()
				}
				k := b.call(id, toolcall.Call{Name: "exec_command", Input: jsontree.Wrap("cmd", jsontree.NewString(cmd))}, ts)
				b.codeMode = append(b.codeMode, k)
			}
			break
		}
		if !toolcall.Known(name) && name != "exec" {
			b.run.NoteUnread("tool:" + name)
		}
		b.call(p.Get("call_id").Text(), toolcall.Call{Name: name, Input: jsontree.Wrap("input", jsontree.NewString(src))}, ts)
	case "local_shell_call":
		cmd := p.Get("action").Get("command") // an argv list, as the shell tool's
		if cmd == nil {
			cmd = jsontree.NewString("")
		}
		in := jsontree.Wrap("command", cmd)
		b.call(p.First("call_id", "id"), toolcall.Call{Name: "local_shell", Input: in}, ts)
	case "ghost_snapshot", "compaction", "context_compaction", "compaction_summary", "tool_search_call", "tool_search_output",
		"image_generation_call", "additional_tools":
		// Undo snapshots, compaction markers, tool discovery: nothing read.
	case "agent_message":
		b.say(toolcall.Text(p.Get("content")))
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
		text = strings.TrimPrefix(text, "Script completed\n")
		c := &b.calls[k]
		c.Output, c.HasOutput, c.Exit, c.HasExit = text, true, exit, hasExit
		if s := out.Get("success"); s.Is(jsontree.Bool) && !s.Bool {
			c.IsError = true
		}
		b.obs[k] = text
		// A Code Mode script's output belongs to each command it ran.
		for j := len(b.codeMode) - 1; j >= 0 && b.codeMode[j] < k; j-- {
			i := b.codeMode[j]
			if b.calls[i].HasOutput {
				break // an earlier script's
			}
			b.calls[i].Output, b.calls[i].HasOutput = text, true
			b.obs[i] = text
		}
		if c.Name == "spawn_agent" {
			// The spawned thread's id is in the call's output.
			if m := threadIDRe().FindString(text); m != "" {
				b.spawned[m] = k
			}
		}
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
		case "todo_list", "error", "user_message", "plan", "image_view", "context_compaction":
		case "collab_tool_call":
			b.add(model.Action{Tool: "collab." + it.Get("tool").Text(), Category: model.CategoryOther, Command: it.Get("tool").Text()}, "")
		default:
			b.run.NoteUnread("item:" + it.Get("type").Text())
		}
	case "item.started", "item.updated", "turn.failed", "error":
	default:
		b.run.NoteUnread("event:" + typ)
	}
}

// maxNesting bounds how deep sub-agents' rollouts are followed, and
// maxRollouts how many rollouts beside the session are looked at.
const (
	maxNesting  = 5
	maxRollouts = 4096
)

// subagents reads the rollouts of the threads this session spawned, and
// theirs: rollouts in the session's folder and, for the dated layout
// (sessions/YYYY/MM/DD), the days before and after, whose session_meta
// names a parent thread (source.subagent.thread_spawn). Each is read once,
// as the agent of its thread.
func (b *builder) subagents(path string) {
	if b.root == "" {
		return
	}
	dir := filepath.Dir(path)
	dirs := []string{dir}
	if m := dayDirRe().FindStringSubmatch(filepath.ToSlash(dir)); m != nil {
		if day, err := time.Parse("2006/01/02", m[1]+"/"+m[2]+"/"+m[3]); err == nil {
			base := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
			for _, d := range []int{-1, 1} {
				dirs = append(dirs, filepath.Join(base, filepath.FromSlash(day.AddDate(0, 0, d).Format("2006/01/02"))))
			}
		}
	}
	type child struct{ id, path, role string }
	children := map[string][]child{}
	seen := 0
	self := filepath.Clean(path)
	for _, d := range dirs {
		files := inputfile.Glob(filepath.Join(d, "rollout-*.jsonl"))
		sort.Strings(files)
		for _, f := range files {
			if seen++; seen > maxRollouts || filepath.Clean(f) == self {
				continue
			}
			head, err := inputfile.HeadRegular(f, 64<<10)
			if err != nil {
				continue
			}
			line, _, _ := bytes.Cut(head, []byte("\n"))
			v, err := toolcall.Decode(line)
			if err != nil || v.Get("type").Text() != "session_meta" {
				continue
			}
			p := v.Get("payload")
			spawn := p.Path("source", "subagent", "thread_spawn")
			parent := spawn.Get("parent_thread_id").Text()
			if parent == "" {
				continue
			}
			role := spawn.Get("agent_role").Text()
			if role == "" {
				role = spawn.Get("agent_nickname").Text()
			}
			children[parent] = append(children[parent], child{p.Get("id").Text(), f, role})
		}
	}
	threads := map[string]int32{b.root: 0}
	queue := []string{b.root}
	for depth := 0; len(queue) > 0 && depth < maxNesting; depth++ {
		var next []string
		for _, parent := range queue {
			for _, c := range children[parent] {
				if _, done := threads[c.id]; done || c.id == "" {
					continue
				}
				data, err := inputfile.ReadRegular(c.path)
				if err != nil {
					b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(c.path), err))
					continue
				}
				ag := b.team.Add(c.id, model.Agent{Type: c.role, Parent: threads[parent], Call: -1})
				threads[c.id] = ag
				if err := b.file(c.path, data, ag); err != nil {
					b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(c.path), err))
				}
				next = append(next, c.id)
			}
		}
		queue = next
	}
	b.agent = 0
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
	a.Agent = b.agent
	b.actions = append(b.actions, a)
	b.parsed = append(b.parsed, nil)
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
			a.Timestamp, a.Usage, a.Agent = keep.Timestamp, keep.Usage, keep.Agent
			if b.parsed[i] != nil {
				parsedCmd(a, b.parsed[i])
			}
		}
		toolcall.Relative(a, b.cwd)
	}
	// Each sub-agent is tied to the call that spawned it.
	for k := int32(1); int(k) < b.team.Len(); k++ {
		a := b.team.At(k)
		if i, ok := b.spawned[a.ID]; ok {
			a.Call, a.Parent = int32(i), b.actions[i].Agent
		}
	}
	order := toolcall.OrderByTime(b.actions)
	acts, texts := toolcall.Reorder(order, b.actions, b.obs, b.thoughts)
	b.actions, b.obs, b.thoughts = acts, texts[0], texts[1]
	for i := range b.actions {
		b.actions[i].Index = int32(i)
	}
	run.Agents = b.team.Agents(order)
	run.Actions, run.Observations, run.Thoughts = b.actions, b.obs, b.thoughts
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format = Name
	run.Agent = "codex"
	if b.version != "" {
		run.Agent += " " + b.version
	}
	return run
}

// parsedCmd uses Codex's own reading of a command (parsed_cmd) where the
// shell reading found nothing: a file it says the command read (the whole
// file: Codex does not say which lines), a search or a listing.
func parsedCmd(a *model.Action, parsed *jsontree.Value) {
	if len(a.Reads) > 0 || len(a.Searches) > 0 || a.Category == model.CategoryEdit || a.NotRun {
		return
	}
	for _, p := range parsed.Items() {
		switch p.Get("type").Text() {
		case "read":
			if f := p.Get("path").Text(); f != "" && a.Failure == "" {
				a.Category = model.CategoryRead
				a.Reads = append(a.Reads, model.ObservedRead{File: f, Kind: model.ReadWhole})
			}
		case "search", "list_files":
			if a.Category != model.CategoryRead {
				a.Category = model.CategorySearch
			}
		}
	}
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
