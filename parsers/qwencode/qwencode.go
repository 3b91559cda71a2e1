// Package qwencode loads Qwen Code sessions: JSON lines of records shaped
// like Claude Code's (uuid, parentUuid, sessionId, timestamp, cwd) holding
// Gemini-style messages (Qwen Code is a Gemini CLI fork): "user" and
// "assistant" records whose message has parts (text, functionCall),
// "tool_result" records whose parts hold the functionResponse (with the
// call's status in toolCallResult), and "system" records (telemetry,
// snapshots, compression) that carry nothing a run is made of.
//
// Each functionCall is one action, through parsers/internal/toolcall
// (read_file, read_many_files, grep_search, glob, list_directory,
// run_shell_command, write_file, edit); a call that starts a sub-agent
// (task, create_sub_session) is an action of its own. A record met twice (a
// resumed session) counts once, by uuid. There is no declared final
// context: the ContextBench prediction is one step per action that
// displayed file lines, and their union as the final.
package qwencode

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/genai"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "qwen-code"

var (
	partsRe   = lazyre.New(`"message"\s*:\s*\{\s*"role"\s*:\s*"(?:user|model)"\s*,\s*"parts"\s*:`)
	sessionRe = lazyre.New(`"sessionId"\s*:\s*"`)
)

// Sniff reports whether a file is a Qwen Code session: JSON lines with a
// sessionId whose messages are made of Gemini-style parts.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] == '{' && sessionRe().Match(head) && partsRe().Match(head)
}

// systemSubtypes are the system records Qwen Code writes that carry
// nothing a run is made of.
var systemSubtypes = map[string]bool{
	"attribution_snapshot": true, "ui_telemetry": true, "chat_compression": true, "slash_command": true,
	"at_command": true, "compression": true, "session_start": true, "session_end": true, "file_history_snapshot": true,
}

// ParseRuns reads one session, data, into a single run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	var run model.Run
	var actions []model.Action
	var calls []toolcall.Call
	var thoughts model.TextList
	byID := map[string]int{}
	seen := map[string]bool{}
	team := toolcall.NewTeam()
	cwd, recognised := "", 0
	var firstBad error
	carry := model.Usage{}
	for _, ln := range toolcall.Lines(data) {
		t := bytes.TrimSpace(ln.Text)
		if len(t) == 0 {
			continue
		}
		if t[0] != '{' && t[0] != '[' {
			// Text or binary between records (a CLI's stderr teed in):
			// named for what it holds.
			if firstBad == nil {
				firstBad = jsontree.At(path, fmt.Errorf("%d: not a JSON record", ln.No))
			}
			run.Warn(toolcall.NotJSON(ln.No, t))
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		m := v.Object()
		if err != nil || m == nil {
			if err == nil {
				err = fmt.Errorf("%d: expected a JSON object", ln.No)
			}
			err = jsontree.At(path, err)
			if firstBad == nil {
				firstBad = err
			}
			run.Warn(fmt.Sprintf("line %d skipped: %v", ln.No, err))
			continue
		}
		if uuid := m.Get("uuid").Text(); uuid != "" {
			if seen[uuid] {
				continue
			}
			seen[uuid] = true
		}
		if run.InstanceID == "" {
			run.InstanceID = m.Get("sessionId").Text()
		}
		if cwd == "" {
			cwd = m.Get("cwd").Text()
		}
		ts := toolcall.ParseTime(m.Get("timestamp").Text())
		msg := m.Get("message")
		switch typ := m.Get("type").Text(); typ {
		case "user":
			recognised++
			if run.Task == "" {
				text, _, _ := genai.Parts(msg.Get("parts"))
				run.Task = task.FromPrompt(strings.TrimSpace(text))
			}
		case "assistant":
			recognised++
			if run.Model == "" {
				run.Model = m.Get("model").Text()
			}
			text, thought, fcs := genai.Parts(msg.Get("parts"))
			if text == "" {
				text = thought
			}
			// The line's usage goes on its first new call; a line of none
			// passes it on to the next call, or to the run's rest.
			carry = carry.Plus(genai.Usage(m.Get("usageMetadata")))
			placed := false
			for _, fc := range fcs {
				if fc.ID != "" {
					if _, dup := byID[fc.ID]; dup {
						continue
					}
					byID[fc.ID] = len(actions)
				}
				if !toolcall.Known(fc.Name) {
					run.NoteUnread("tool:" + fc.Name)
				}
				a := model.Action{Timestamp: ts}
				th := ""
				if !placed {
					a.Usage, th, carry, placed = carry, text, model.Usage{}, true
				}
				actions = append(actions, a)
				calls = append(calls, toolcall.Call{Name: fc.Name, Input: jsontree.Compact(fc.Args)})
				thoughts = append(thoughts, th)
			}
		case "tool_result":
			recognised++
			id, _, out, isErr := genai.Response(msg.Get("parts"))
			res := m.Get("toolCallResult")
			if id == "" {
				id = res.Get("callId").Text()
			}
			i, ok := byID[id]
			if !ok {
				continue
			}
			c := &calls[i]
			c.Output, c.HasOutput, c.IsError = out, true, isErr
			switch res.Get("status").Text() {
			case "error":
				c.IsError = true
				if res.Get("executionStatus").Text() == "not_started" {
					c.NotRun = toolcall.FirstLine(res.Get("resultDisplay").Text())
				}
			case "cancelled":
				c.NotRun = "cancelled"
			}
		case "system":
			recognised++
			if st := m.Get("subtype").Text(); !systemSubtypes[st] {
				run.NoteUnread("system:" + st)
			}
		default:
			run.NoteUnread("record:" + typ)
		}
	}
	if recognised == 0 {
		if firstBad != nil {
			return nil, firstBad
		}
		return nil, fmt.Errorf("%s: no Qwen Code records (expected JSON lines with \"type\" user/assistant/tool_result and a \"message\" of \"parts\")", path)
	}
	obs := make(model.TextList, len(actions))
	for i := range actions {
		toolcall.Apply(&actions[i], calls[i])
		toolcall.Relative(&actions[i], cwd)
		obs[i] = calls[i].Output
		actions[i].Index = int32(i)
		if toolcall.LaunchesAgent(calls[i].Name) && !actions[i].NotRun && !calls[i].IsError {
			// The sub-agent's own work is not in this file: it is named,
			// with what it was asked, and its actions are not counted.
			team.Add(fmt.Sprintf("call:%d", i), model.Agent{Type: calls[i].Input.First("subagent_type", "agent_type"),
				Description: toolcall.AgentDescription(calls[i].Input.First("description", "prompt")), Parent: 0, Call: int32(i)})
		}
	}
	run.Actions, run.Observations, run.Thoughts = actions, obs, thoughts
	run.RestUsage = carry // the final answer's, after the last call
	run.Agents = team.Agents(nil)
	run.Format, run.Agent, run.Path = Name, "qwen-code", path
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return []model.Run{run}, nil
}
