// Package opencode loads OpenCode session exports (`opencode export`): a
// JSON object {info, messages[{info, parts[]}]} where an assistant
// message's parts hold its text, reasoning and tool parts ({type: "tool",
// callID, tool, state: {status, input, output, error, time}}), and
// step-finish parts its tokens and cost.
//
// Each tool part is one action, through parsers/internal/toolcall: read
// (its output numbered "00012| " in 2025 and "12: " since, or, in the V2
// read, not at all, when the offset and limit asked for say what was
// shown), grep, glob, list, bash, edit, write and patch. A task part
// started a sub-agent: its session (state.metadata.sessionId) is exported
// on its own, so the call is named with its agent type and its actions are
// not counted here. There is no declared final context: the ContextBench
// prediction is one step per action that displayed file lines, and their
// union as the final.
package opencode

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "opencode"

var (
	infoRe     = lazyre.New(`^\s*\{\s*"info"\s*:\s*\{`)
	messagesRe = lazyre.New(`"messages"\s*:\s*\[`)
)

// Sniff reports whether a file is an OpenCode export: a JSON object whose
// first member is the session's info, with a messages list.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return infoRe().Match(t) && messagesRe().Match(head) &&
		(bytes.Contains(head, []byte(`"sessionID"`)) || bytes.Contains(head, []byte(`"parts"`)))
}

// partTypes are the parts the reader understands without reading.
var partTypes = map[string]bool{
	"step-start": true, "file": true, "patch": true, "agent": true, "subtask": true, "snapshot": true,
	"compaction": true, "retry": true,
}

// ParseRuns reads one export, data, into a single run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil, jsontree.At(path, err)
	}
	s := v.Object()
	if s == nil || !s.Get("messages").Is(jsontree.Array) {
		return nil, fmt.Errorf("%s: expected an OpenCode export (a JSON object with \"info\" and a \"messages\" list)", path)
	}
	info := s.Get("info")
	var run model.Run
	var actions []model.Action
	var calls []toolcall.Call
	var thoughts model.TextList
	team := toolcall.NewTeam()
	seen := map[string]bool{}
	for i, mv := range s.Get("messages").Items() {
		m := mv.Object()
		if m == nil {
			return nil, fmt.Errorf("%s: messages[%d]: expected a message object", path, i)
		}
		mi := m.Get("info")
		role := mi.Get("role").Text()
		if run.Model == "" && role == "assistant" {
			run.Model = mi.Get("modelID").Text()
		}
		created, _ := mi.Path("time", "created").Float()
		thought := ""
		var usage model.Usage
		first := len(actions)
		for _, pv := range m.Get("parts").Items() {
			p := pv.Object()
			switch typ := p.Get("type").Text(); typ {
			case "text":
				text := strings.TrimSpace(p.Get("text").Text())
				if role == "user" && run.Task == "" && !p.Get("synthetic").True() {
					run.Task = task.FromPrompt(text)
				} else if role == "assistant" && text != "" {
					thought = joinText(thought, text)
				}
			case "reasoning":
				if thought == "" {
					thought = strings.TrimSpace(p.Get("text").Text())
				}
			case "tool":
				id := p.Get("callID").Text()
				if id != "" && seen[id] {
					continue
				}
				seen[id] = true
				name := p.Get("tool").Text()
				if !toolcall.Known(name) && !strings.Contains(name, "_") {
					// (server_tool: an MCP tool, understood as other)
					run.NoteUnread("tool:" + name)
				}
				st := p.Get("state")
				c := toolcall.Call{Name: name, Input: jsontree.Compact(st.Get("input").Object())}
				switch st.Get("status").Text() {
				case "completed":
					c.Output, c.HasOutput = st.Get("output").Text(), true
				case "error":
					c.Output, c.HasOutput, c.IsError = st.Get("error").Text(), true, true
				}
				ts, _ := st.Path("time", "start").Float()
				if ts == 0 {
					ts = created
				}
				a := model.Action{Timestamp: ts / 1000}
				if toolcall.LaunchesAgent(name) {
					team.Add("call:"+id, model.Agent{ID: st.Path("metadata", "sessionId").Text(),
						Type: c.Input.First("subagent_type"), Description: c.Input.First("description"),
						Parent: 0, Call: int32(len(actions))})
				}
				actions = append(actions, a)
				calls = append(calls, c)
				thoughts = append(thoughts, thought)
				thought = ""
			case "step-finish":
				tok := p.Get("tokens")
				in, _ := tok.Get("input").AnyInt()
				out, _ := tok.Get("output").AnyInt()
				r, _ := tok.Get("reasoning").AnyInt()
				cr, _ := tok.Path("cache", "read").AnyInt()
				cw, _ := tok.Path("cache", "write").AnyInt()
				u := model.NewUsage(in, out+r, cr, cw)
				u.CostUSD = toolcall.Cost(p.Get("cost"))
				usage = usage.Plus(u)
			default:
				if !partTypes[typ] {
					run.NoteUnread("part:" + typ)
				}
			}
		}
		if len(actions) > first {
			toolcall.AddUsage(&actions[first], usage)
		} else if len(actions) > 0 {
			toolcall.AddUsage(&actions[len(actions)-1], usage)
		}
	}
	cwd := info.Get("directory").Text()
	obs := make(model.TextList, len(actions))
	for i := range actions {
		toolcall.Apply(&actions[i], calls[i])
		toolcall.Relative(&actions[i], cwd)
		obs[i] = calls[i].Output
		actions[i].Index = int32(i)
	}
	run.Actions, run.Observations, run.Thoughts = actions, obs, thoughts
	run.Agents = team.Agents(nil)
	run.Format, run.Agent, run.Path = Name, "opencode", path
	if v := info.Get("version").Text(); v != "" {
		run.Agent += " " + v
	}
	run.InstanceID = info.Get("id").Text()
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return []model.Run{run}, nil
}

func joinText(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}
