package openhands

import (
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// OpenHands V1 (the software-agent-sdk) writes its history as typed events:
// {"kind": "ActionEvent", "tool_name", "tool_call": {"arguments"}, "action":
// {"kind": "ExecuteBashAction" | "FileEditorAction" | …}, "thought"} and
// {"kind": "ObservationEvent", "tool_call_id", "observation": {"output",
// "exit_code", "metadata"}}. The reference evaluator reads `action` as a
// string and finds no step in them; the timeline reads each tool call as
// the other transcripts' are (parsers/internal/toolcall).

// isV1 reports a history of V1 events.
func isV1(hist []*jsontree.Value) bool {
	for _, h := range hist {
		switch h.Get("kind").Text() {
		case "ActionEvent", "ObservationEvent", "MessageEvent", "SystemPromptEvent", "AgentErrorEvent":
			return true
		}
	}
	return false
}

// v1Kinds are the V1 event kinds the reader understands: the ones it reads
// and the ones that carry nothing a run is made of.
var v1Kinds = map[string]bool{
	"ActionEvent": true, "ObservationEvent": true, "MessageEvent": true, "SystemPromptEvent": true,
	"AgentErrorEvent": true, "UserRejectObservation": true, "PauseEvent": true, "Condensation": true,
	"CondensationRequest": true, "CondensationSummaryEvent": true, "ConversationStateUpdateEvent": true,
	"ConversationErrorEvent": true, "LLMCompletionLogEvent": true, "TokenEvent": true, "HookExecutionEvent": true,
	"ServerErrorEvent": true, "StreamingDeltaEvent": true, "InterruptEvent": true,
}

// unreadEvents counts the events and tools of a V1 history the reader does
// not know.
func unreadEvents(run *model.Run, hist []*jsontree.Value) {
	for _, e := range hist {
		k := e.Get("kind").Text()
		if !v1Kinds[k] {
			run.NoteUnread("event:" + k)
			continue
		}
		if k == "ActionEvent" {
			if name := e.Get("tool_name").Text(); name != "" && !toolcall.Known(name) && !strings.HasPrefix(name, "browser_") && !launches(name) {
				run.NoteUnread("tool:" + name)
			}
		}
	}
}

// v1Actions builds the timeline of a V1 history: one action per
// ActionEvent, its output from the observation that answers its tool call.
func v1Actions(hist []*jsontree.Value) (acts []model.Action, obs, thoughts model.TextList) {
	var calls []toolcall.Call
	byCall := map[string]int{}
	agentErr := map[int]string{} // actions the agent's harness failed
	for _, e := range hist {
		switch e.Get("kind").Text() {
		case "ActionEvent":
			in := e.Get("action").Object()
			if args, err := jsontree.Parse([]byte(e.Get("tool_call").Get("arguments").Text())); err == nil && args.Kind == jsontree.Object {
				in = args // the call as the model made it
			}
			name := e.Get("tool_name").Text()
			if name == "" {
				name = strings.TrimSuffix(e.Get("action").Get("kind").Text(), "Action")
			}
			thought := toolcall.Text(e.Get("thought"))
			if r := e.Get("reasoning_content").Text(); r != "" {
				thought = strings.TrimSpace(r + "\n\n" + thought)
			}
			for _, id := range []string{e.Get("tool_call_id").Text(), e.Get("id").Text()} {
				if id != "" {
					byCall[id] = len(acts)
				}
			}
			acts = append(acts, model.Action{Timestamp: toolcall.ParseTime(e.Get("timestamp").Text())})
			calls = append(calls, toolcall.Call{Name: name, Input: jsontree.Compact(in)})
			obs, thoughts = append(obs, ""), append(thoughts, thought)
		case "ObservationEvent", "AgentErrorEvent", "UserRejectObservation":
			k, ok := byCall[e.Get("tool_call_id").Text()]
			if !ok {
				if k, ok = byCall[e.Get("action_id").Text()]; !ok {
					continue
				}
			}
			c := &calls[k]
			o := e.Get("observation")
			switch e.Get("kind").Text() {
			case "AgentErrorEvent":
				c.Output, c.IsError = e.Get("error").Text(), true
				agentErr[k] = c.Output
			case "UserRejectObservation":
				c.NotRun = "rejected"
				if r := e.Get("rejection_reason").Text(); r != "" {
					c.NotRun += " (" + r + ")"
				}
				continue
			default:
				c.Output = o.Get("output").Text()
				if c.Output == "" {
					c.Output = toolcall.Text(o.Get("content"))
				}
				c.IsError = o.Get("error").True()
				if n, ok := o.Get("exit_code").Int(); ok {
					c.Exit, c.HasExit = n, true
				} else if n, ok := o.Get("metadata").Get("exit_code").Int(); ok && n >= 0 {
					c.Exit, c.HasExit = n, true
				}
			}
			c.HasOutput = true
			obs[k] = c.Output
		}
	}
	for i := range acts {
		a := &acts[i]
		if calls[i].Name != "" {
			ts := a.Timestamp
			toolcall.Apply(a, calls[i])
			a.Timestamp = ts
		}
		if msg, ok := agentErr[i]; ok {
			// The call failed before it could show anything.
			a.Reads, a.Searches, a.Edits = nil, nil, nil
			first, _, _ := strings.Cut(msg, "\n")
			a.Failure = "agent error: " + first
		}
		a.Index = int32(i)
	}
	return acts, obs, thoughts
}
