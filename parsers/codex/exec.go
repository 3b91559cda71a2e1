// The event stream of `codex exec --json`.

package codex

import (
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// exec reads one `codex exec --json` event.
func (b *builder) exec(typ string, v *jsontree.Value) {
	switch typ {
	case "thread.started":
		b.run.Prediction.InstanceID = "" // named from the path
	case "turn.started":
	case "turn.completed":
		if u := v.Get("usage"); u.Is(jsontree.Object) {
			// The turn's usage: on its last call, or held for the next
			// (the run's own when none comes).
			b.count(usage(u))
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
