// Package goose loads Goose session exports (`goose session export`, the
// desktop's export): a JSON object with the session's id, working_dir and
// usage, and its conversation[], messages whose content[] holds text,
// toolRequest (toolCall.value: name, arguments) and toolResponse
// (toolResult.value: content, isError) items, paired by id.
//
// Goose names an extension's tools <extension>__<tool>: the developer
// extension's shell and text_editor (view, write, str_replace, insert) are
// read as the shell and str_replace_editor tools are, through
// parsers/internal/toolcall, and a tool of another extension (an MCP
// server) is an action of its own. Tool names without an extension (a
// Claude Code provider's Bash, Read) are read as Claude Code's are. There is
// no declared final context: the ContextBench prediction is one step per
// action that displayed file lines, and their union as the final.
package goose

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
const Name = "goose"

var conversationRe = lazyre.New(`"conversation"\s*:\s*\[`)

// Sniff reports whether a file is a Goose session export: a JSON object
// with a conversation list and Goose's session keys.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] == '{' && conversationRe().Match(head) &&
		(bytes.Contains(head, []byte(`"working_dir"`)) || bytes.Contains(head, []byte(`"toolRequest"`)) || bytes.Contains(head, []byte(`"goose_mode"`)))
}

// ParseRuns reads one export, data, into a single run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil, jsontree.At(path, err)
	}
	s := v.Object()
	if s == nil || !s.Get("conversation").Is(jsontree.Array) {
		return nil, fmt.Errorf("%s: expected a Goose session export (a JSON object with a \"conversation\" list)", path)
	}
	var run model.Run
	var actions []model.Action
	var calls []toolcall.Call
	var thoughts model.TextList
	byID := map[string]int{}
	thought := ""
	for i, mv := range s.Get("conversation").Items() {
		m := mv.Object()
		if m == nil {
			return nil, fmt.Errorf("%s: conversation[%d]: expected a message object", path, i)
		}
		ts, _ := m.Get("created").Float()
		role := m.Get("role").Text()
		for _, cv := range m.Get("content").Items() {
			c := cv.Object()
			switch typ := c.Get("type").Text(); typ {
			case "text":
				text := strings.TrimSpace(c.Get("text").Text())
				if role == "user" && run.Task == "" {
					run.Task = task.FromPrompt(text)
				} else if role == "assistant" && text != "" {
					thought = text
				}
			case "toolRequest":
				id := c.Get("id").Text()
				if _, dup := byID[id]; dup && id != "" {
					continue
				}
				call := c.Get("toolCall")
				val := call.Get("value")
				name := val.Get("name").Text()
				tool := toolName(name)
				if !known(name, tool) {
					run.NoteUnread("tool:" + name)
				}
				tc := toolcall.Call{Name: tool, Input: jsontree.Compact(val.Get("arguments").Object())}
				if call.Get("status").Text() == "error" {
					tc.NotRun = toolcall.FirstLine(call.Get("error").Text())
					if tc.NotRun == "" {
						tc.NotRun = "the request was malformed"
					}
				}
				if id != "" {
					byID[id] = len(actions)
				}
				actions = append(actions, model.Action{Timestamp: ts})
				calls = append(calls, tc)
				thoughts = append(thoughts, thought)
				thought = ""
			case "toolResponse":
				k, ok := byID[c.Get("id").Text()]
				if !ok {
					continue
				}
				res := c.Get("toolResult")
				val := res.Get("value")
				tc := &calls[k]
				tc.HasOutput = true
				if res.Get("status").Text() == "error" {
					tc.IsError = true
					tc.Output = res.Get("error").Text()
					continue
				}
				tc.Output = toolcall.Text(val.Get("content"))
				tc.IsError = val.Get("isError").True()
			case "image", "thinking", "redactedThinking", "toolConfirmationRequest", "contextLengthExceeded", "summarizationRequested",
				"frontendToolRequest", "systemNotification", "actionRequired", "reasoning":
			default:
				run.NoteUnread("content:" + typ)
			}
		}
	}
	cwd := s.Get("working_dir").Text()
	obs := make(model.TextList, len(actions))
	for i := range actions {
		toolcall.Apply(&actions[i], calls[i])
		editorView(&actions[i], calls[i])
		toolcall.Relative(&actions[i], cwd)
		obs[i] = calls[i].Output
		actions[i].Index = int32(i)
	}
	run.Actions, run.Observations, run.Thoughts = actions, obs, thoughts
	run.Format, run.Agent, run.Path = Name, "goose", path
	if mc := s.Get("model_config").Object(); mc != nil {
		run.Model = mc.First("model_name", "model")
	}
	run.CostUSD = toolcall.Cost(s.Get("accumulated_cost"))
	run.RestUsage = sessionUsage(s)
	run.InstanceID = s.Get("id").Text()
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return []model.Run{run}, nil
}

// toolName is the tool a Goose name stands for: the developer extension's
// shell and text_editor as the tools of those names (text_editor read as
// str_replace_editor), another name as it is.
func toolName(name string) string {
	ext, tool, ok := strings.Cut(name, "__")
	if !ok {
		return name
	}
	if ext == "developer" {
		if tool == "text_editor" {
			return "str_replace_editor"
		}
		return tool
	}
	return name
}

// editorView corrects what the developer extension's text_editor view
// displayed: Goose prints the file without line numbers, which a
// str_replace_editor's view would only do for an error; the lines are the
// view_range asked for (-1: to the end), else the whole file.
func editorView(a *model.Action, c toolcall.Call) {
	in := c.Input
	if c.Name != "str_replace_editor" || in.Get("command").Text() != "view" || c.IsError || a.NotRun {
		return
	}
	file := in.First("path", "file_path")
	if file == "" || len(a.Reads) > 0 {
		return
	}
	a.Category = model.CategoryRead
	r := model.ObservedRead{File: file, Kind: model.ReadWhole}
	if vr := in.Get("view_range").Items(); len(vr) == 2 {
		s, ok1 := vr[0].AnyInt()
		e, ok2 := vr[1].AnyInt()
		switch {
		case ok1 && ok2 && s >= 1 && e == -1:
			r = model.ObservedRead{File: file, Kind: model.ReadFrom, Start: s}
		case ok1 && ok2 && s >= 1 && e >= s:
			r = model.ObservedRead{File: file, Kind: model.ReadRange, Start: s, End: e}
		}
	}
	a.Reads = []model.ObservedRead{r}
}

// known reports whether the reader understands a Goose tool: one
// toolcall knows, or a tool of an extension other than developer (an MCP
// server's, an action of its own).
func known(name, tool string) bool {
	if toolcall.Known(tool) {
		return true
	}
	ext, _, ok := strings.Cut(name, "__")
	return ok && ext != "developer"
}

// sessionUsage is what the session spent, as Goose totals it: its
// accumulated_usage (its own usage when it has none), whose input_tokens
// include the cache read and written (total_tokens = input + output). Goose
// records no step's share: the run's alone.
func sessionUsage(s *jsontree.Value) model.Usage {
	u := s.Get("accumulated_usage")
	if !u.Is(jsontree.Object) {
		u = s.Get("usage")
	}
	if !u.Is(jsontree.Object) {
		return model.Usage{}
	}
	in, _ := u.Get("input_tokens").AnyInt()
	out, _ := u.Get("output_tokens").AnyInt()
	read, _ := u.Get("cache_read_input_tokens").AnyInt()
	write, _ := u.Get("cache_write_input_tokens").AnyInt()
	in, out, read, write = max(in, 0), max(out, 0), max(read, 0), max(write, 0)
	read = min(read, in)
	write = min(write, in-read)
	return model.NewUsage(in-read-write, out, read, write)
}
