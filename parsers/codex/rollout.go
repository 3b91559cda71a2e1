// Rollout records: the response items and events a session writes, and
// the tool calls, outputs and usage they carry.

package codex

import (
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
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

// rollout reads one record of the current rollout layout.
func (b *builder) rollout(typ string, p *jsontree.Value, ts float64) {
	switch typ {
	case "session_meta":
		b.meta(p)
	case "turn_context":
		if m := p.Get("model").Text(); m != "" && b.st.agent == 0 {
			b.run.Model = m
		}
		if cwd := p.Get("cwd").Text(); cwd != "" && b.cwd == "" {
			b.setCwd(strings.TrimSuffix(cwd, "/"))
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
			// Codex writes each count twice (after the call and again after
			// its output): a count whose running total is the last one's
			// is that one again.
			info := p.Get("info")
			tot, last := info.Get("total_token_usage"), info.Get("last_token_usage")
			var t tokens
			if tot.Is(jsontree.Object) {
				t = tokensOf(tot)
				if b.st.counted && t == b.st.total {
					break
				}
			}
			// The call's own usage, else (a count of zero, or none) how
			// far the running total moved: ccusage's rule.
			u := tokensOf(last)
			if !last.Is(jsontree.Object) || u == (tokens{}) {
				u = t.minus(b.st.total)
			}
			if tot.Is(jsontree.Object) {
				b.st.total, b.st.counted = t, true
			}
			b.count(u.usage())
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
	k, known := b.st.byCall[id]
	switch typ := it.Get("type").Text(); typ {
	case "UserMessage":
		if b.run.Task == "" && b.st.agent == 0 {
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
			b.applied.Stale(k)
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
		switch {
		case !toolcall.Known(name) && strings.Contains(name, "__"):
			// Codex names an MCP server's tool server__tool: spelled as
			// every agent's MCP tool, it is retrieval when its result
			// shows files or lines (toolcall.IsMCP).
			name = "mcp__" + name
		case !toolcall.Known(name):
			b.run.NoteUnread("tool:" + name)
		}
		b.call(p.Get("call_id").Text(), toolcall.Call{Name: name, Input: jsontree.Compact(in)}, ts)
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
				b.st.codeMode = append(b.st.codeMode, k)
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
		b.call(p.First("call_id", "id"), toolcall.Call{Name: "local_shell", Input: jsontree.Compact(in)}, ts)
	case "ghost_snapshot", "compaction", "context_compaction", "compaction_summary", "tool_search_call", "tool_search_output",
		"image_generation_call", "additional_tools":
		// Undo snapshots, compaction markers, tool discovery: nothing read.
	case "agent_message":
		b.say(toolcall.Text(p.Get("content")))
	case "web_search_call":
		b.add(model.Action{Tool: "web_search", Category: model.CategorySearch, Timestamp: ts,
			Command: "web search " + strconv.Quote(p.Get("action").Get("query").Text())}, "")
	case "function_call_output", "custom_tool_call_output":
		k, ok := b.st.byCall[p.Get("call_id").Text()]
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
		b.applied.Stale(k)
		// A Code Mode script's output belongs to each command it ran.
		cm := b.st.codeMode
		for j := len(cm) - 1; j >= 0 && cm[j] < k; j-- {
			i := cm[j]
			if b.calls[i].HasOutput {
				break // an earlier script's
			}
			b.calls[i].Output, b.calls[i].HasOutput = text, true
			b.obs[i] = text
			b.applied.Stale(i)
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

// tokens is a Codex token usage as recorded: input_tokens includes the
// cached ones, output_tokens the reasoning.
type tokens struct{ in, cached, out int }

func tokensOf(u *jsontree.Value) tokens {
	in, _ := u.Get("input_tokens").Int()
	cached, _ := u.Get("cached_input_tokens").Int()
	out, _ := u.Get("output_tokens").Int()
	return tokens{max(in, 0), max(cached, 0), max(out, 0)}
}

// minus is how far a running total moved since prev (never back).
func (t tokens) minus(prev tokens) tokens {
	return tokens{max(t.in-prev.in, 0), max(t.cached-prev.cached, 0), max(t.out-prev.out, 0)}
}

// usage splits it: cached input is cache read.
func (t tokens) usage() model.Usage {
	cached := min(t.cached, t.in)
	return model.NewUsage(t.in-cached, t.out, cached, 0)
}

// usage reads a Codex token usage.
func usage(u *jsontree.Value) model.Usage { return tokensOf(u).usage() }
