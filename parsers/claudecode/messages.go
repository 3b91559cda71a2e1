// The records of a conversation: the model's messages (its tool calls,
// what it said, what they cost) and the user's (the task, tool results).

package claudecode

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// assistant reads one line of a model's message as agent's: its tool calls
// become actions, its text their thought, its usage counted once.
func (b *builder) assistant(m *jsontree.Value, line int, agent int32) {
	msg := m.Get("message").Object()
	if msg == nil {
		return
	}
	if b.run.Model == "" && agent == 0 {
		if mod := msg.Get("model").Text(); mod != "" && mod != "<synthetic>" {
			b.run.Model = mod
		}
	}
	// One count per message id and request id, ccusage's rule: a message
	// is split over lines that each repeat its usage. A sub-agent's
	// replay of a message is that message whatever its request id.
	msgID := msg.Get("id").Text()
	sidechain := m.Get("isSidechain").Is(jsontree.Bool) && m.Get("isSidechain").Bool
	id := msgID + "\x00" + m.Get("requestId").Text()
	if msgID == "" {
		id = fmt.Sprintf("line:%d:%d", line, len(b.usageOrder))
	} else if _, ok := b.usage[id]; !ok {
		if prev, ok := b.usage[msgID]; ok && (sidechain || prev.sidechain) {
			id = b.usageKey[prev]
		}
	}
	mu := b.usage[id]
	if mu == nil {
		mu = &msgUsage{firstAction: -1, actionsBefore: len(b.actions), before: toolcall.Origin{File: b.cur, N: b.fileActs[b.cur]}, sidechain: sidechain}
		b.usage[id] = mu
		b.usageOrder = append(b.usageOrder, mu)
		if msgID != "" {
			if _, ok := b.usage[msgID]; !ok {
				b.usage[msgID] = mu // found by its message id alone (a replay)
				b.usageKey[mu] = id
			}
		}
	}
	if u, ok := msg.Lookup("usage"); ok {
		// Later lines may carry a more complete count: the line of the
		// largest total is kept (ccusage's rule), with what it cost.
		nu := toolcall.AnthropicUsage(u)
		if c := toolcall.Cost(m.Get("costUSD")); c > 0 {
			nu.CostUSD = c
		}
		if total(nu) > total(mu.usage) {
			mu.usage = nu
		}
	}
	ts := toolcall.ParseTime(m.Get("timestamp").Text())
	blocks := msg.Get("content").Items()
	if s, ok := msg.Get("content").AsString(); ok && s != "" {
		b.thought[id] = joinText(b.thought[id], s)
	}
	for _, bl := range blocks {
		blk := bl.Object()
		switch blk.Get("type").Text() {
		case "text":
			b.thought[id] = joinText(b.thought[id], blk.Get("text").Text())
		case "thinking":
			// Recent versions keep only the signature: the text is "".
			if b.thought[id] == "" {
				b.thought[id] = blk.Get("thinking").Text()
			}
		case "tool_use", "server_tool_use":
			callID := blk.Get("id").Text()
			if callID != "" {
				if i, dup := b.byID[callID]; dup {
					b.metAgain(b.origin[i].File)
					continue
				}
			}
			name := blk.Get("name").Text()
			if !toolcall.Known(name) {
				b.run.NoteUnread("tool:" + name)
			}
			a := model.Action{Index: int32(len(b.actions)), Timestamp: ts, Agent: agent}
			if mu.firstAction < 0 {
				mu.firstAction = len(b.actions)
			}
			if callID != "" {
				b.byID[callID] = len(b.actions)
			}
			b.actions = append(b.actions, a)
			b.origin = append(b.origin, toolcall.Origin{File: b.cur, N: b.fileActs[b.cur]})
			b.fileActs[b.cur]++
			b.thoughts = append(b.thoughts, b.thought[id])
			// Compact: the input outlives its record, whose parse it would keep.
			b.calls = append(b.calls, toolcall.Call{Name: name, Input: jsontree.Compact(blk.Get("input").Object())})
			if toolcall.LaunchesAgent(name) {
				b.launches = append(b.launches, len(b.calls)-1)
			}
		case "redacted_thinking", "image", "document", "web_search_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload":
		default:
			b.run.NoteUnread("block:" + blk.Get("type").Text())
		}
	}
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	if b == "" {
		return a
	}
	return a + "\n" + b
}

func (b *builder) user(m *jsontree.Value, agent int32) {
	msg := m.Get("message").Object()
	if b.run.Task == "" && agent == 0 && !m.Get("isMeta").True() && !m.Get("isSidechain").True() {
		// The session's first prompt is its task, a slash command
		// included ("/review 12"); Claude Code's own records (a local
		// command's output, a caveat) and housekeeping commands are not.
		text := strings.TrimSpace(promptText(msg.Get("content")))
		if cmd, ok := slashCommand(text); ok {
			b.run.Task = cmd
		} else if text != "" && !strings.HasPrefix(text, "<command-") &&
			!strings.HasPrefix(text, "<local-command") && !strings.HasPrefix(text, "Caveat:") {
			b.run.Task = task.FromPrompt(text)
		}
	}
	blocks := msg.Get("content").Items()
	var results []*jsontree.Value
	for _, bl := range blocks {
		blk := bl.Object()
		if blk.Get("type").Text() == "tool_result" {
			results = append(results, blk)
		}
	}
	// The structured result (toolUseResult in session files,
	// tool_use_result in stream-json) belongs to the record's only result.
	meta := m.Get("toolUseResult")
	if meta.IsNull() {
		meta = m.Get("tool_use_result")
	}
	for _, blk := range results {
		i, ok := b.byID[blk.Get("tool_use_id").Text()]
		if !ok {
			continue
		}
		c := &b.calls[i]
		c.Output = toolcall.Text(blk.Get("content"))
		c.HasOutput = true
		c.IsError = blk.Get("is_error").True()
		if len(results) == 1 {
			c.Meta = jsontree.Compact(meta.Object()) // kept until applied, without its record's parse
			if id := c.Meta.Get("agentId").Text(); id != "" && toolcall.LaunchesAgent(c.Name) {
				b.launched[id] = i
			}
			if t, ok := agentTotals(c.Meta); ok && toolcall.LaunchesAgent(c.Name) {
				b.recorded[i] = t
			}
			if run := c.Meta.Get("runId").Text(); run != "" && c.Name == "Workflow" {
				if b.workflows == nil {
					b.workflows = map[string]int{}
				}
				b.workflows[run] = i
			}
		}
		if b.actions[i].Timestamp == 0 {
			b.actions[i].Timestamp = toolcall.ParseTime(m.Get("timestamp").Text())
		}
		b.applied.Stale(i)
	}
}

// promptText is a user message's own text: the string, or its text blocks
// (a message of tool results has none).
// housekeeping are the commands that set a session up rather than ask
// for work; a session opened with /model still has its task to come.
var housekeeping = map[string]bool{
	"/clear": true, "/model": true, "/login": true, "/logout": true, "/config": true, "/status": true,
	"/cost": true, "/help": true, "/resume": true, "/permissions": true, "/theme": true, "/mcp": true,
	"/doctor": true, "/memory": true, "/vim": true, "/terminal-setup": true, "/exit": true, "/usage": true,
}

// slashCommand reads the record Claude Code writes for a slash command
// (<command-name>/review</command-name> … <command-args>12</command-args>)
// as the prompt the user typed: "/review 12".
func slashCommand(text string) (string, bool) {
	name, ok := between(text, "<command-name>", "</command-name>")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return "", false
	}
	if !strings.HasPrefix(name, "/") {
		name = "/" + name
	}
	if housekeeping[name] {
		return "", false
	}
	if args, _ := between(text, "<command-args>", "</command-args>"); strings.TrimSpace(args) != "" {
		name += " " + strings.TrimSpace(args)
	}
	return strings.Clone(name), true
}

func between(s, open, close string) (string, bool) {
	i := strings.Index(s, open)
	if i < 0 {
		return "", false
	}
	s = s[i+len(open):]
	j := strings.Index(s, close)
	if j < 0 {
		return "", false
	}
	return s[:j], true
}

func promptText(c *jsontree.Value) string {
	if c.Is(jsontree.String) {
		return c.Str
	}
	var parts []string
	for _, bl := range c.Items() {
		if bl.Get("type").Text() == "text" {
			parts = append(parts, bl.Get("text").Text())
		}
	}
	return strings.Join(parts, "\n")
}

// total is every token of a usage, as ccusage totals an entry.
func total(u model.Usage) int {
	return int(u.InputTokens) + int(u.OutputTokens) + int(u.CacheRead) + int(u.CacheWrite)
}
