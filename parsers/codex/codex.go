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
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
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
