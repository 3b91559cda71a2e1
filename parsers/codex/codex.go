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
	b.read(b.open(path, 0), data)
	if err := b.files[0].err(); err != nil {
		return model.Run{}, err
	}
	order := b.subagents(path)
	return b.snapshot(order).finish(path), nil
}

func newBuilder() *builder {
	return &builder{team: toolcall.NewTeam(), spawned: map[string]int{}}
}

// rolloutFile is how far one rollout's reading has come: whose it is, and
// what carries from one of its lines to the next.
type rolloutFile struct {
	path       string
	index      int32 // in builder.files
	agent      int32
	recognised int
	seen       int   // lines read that were not blank
	lines      int   // lines read, blank ones too
	firstBad   error // its first line that did not decode
	// thought is its text since its last action, for its next one.
	thought []string
	// last is its last action (-1: none yet); usage what was counted
	// before its first, which that one is charged.
	last  int
	usage model.Usage
	// total is the running total of its last token count, if counted.
	total   tokens
	counted bool
	// codeMode are its actions made from Code Mode scripts; byCall its
	// actions by call_id (each thread numbers its own calls).
	codeMode []int
	byCall   map[string]int
	actions  int32
	warnings []string
}

// open starts the reading of a rollout as agent's (0: the session's own).
func (b *builder) open(path string, agent int32) *rolloutFile {
	f := &rolloutFile{path: path, index: int32(len(b.files)), agent: agent, last: -1, byCall: map[string]int{}}
	b.files = append(b.files, f)
	return f
}

// err is a rollout's error when nothing in it was a Codex record.
func (f *rolloutFile) err() error {
	if f.recognised > 0 {
		return nil
	}
	if f.firstBad != nil {
		return f.firstBad
	}
	return fmt.Errorf("%s: no Codex records (expected rollout lines with \"type\": \"session_meta\"/\"response_item\"/… and a \"payload\", or `codex exec --json` events)", f.path)
}

// read reads lines of rollout f (data: whole lines, or all of a file).
func (b *builder) read(f *rolloutFile, data []byte) {
	b.st = f
	from := f.lines
	f.lines += bytes.Count(data, []byte("\n"))
	for _, ln := range toolcall.Lines(data) {
		t := bytes.TrimSpace(ln.Text)
		first := f.seen == 0
		f.seen++
		no := ln.No + from
		if len(t) == 0 {
			continue
		}
		if t[0] != '{' {
			f.warnings = append(f.warnings, toolcall.NotJSON(no, t))
			continue
		}
		v, err := toolcall.DecodeAt(t, no)
		if err != nil {
			// A half-written last line of a session still running, or one
			// corrupt record: skipped, named.
			err = jsontree.At(f.path, err)
			if f.firstBad == nil {
				f.firstBad = err
			}
			f.warnings = append(f.warnings, fmt.Sprintf("line %d skipped: %v", no, err))
			continue
		}
		b.record(v, first)
	}
}

type builder struct {
	run      model.Run
	cwd      string
	version  string
	actions  []model.Action
	calls    []toolcall.Call // calls[i] is action i's (Name "" for an action built whole)
	obs      model.TextList
	thoughts model.TextList
	// session is the thread id of the rollout being read
	// (session_meta.payload.id); root the first one's.
	session, root string
	team          *toolcall.Team
	// spawned maps a spawned thread's id to the action that started it.
	spawned map[string]int
	// parsed is each action's parsed_cmd, when Codex recorded one.
	parsed []*jsontree.Value

	// st is the rollout being read; files are those read, the session's
	// first, and origin[i] places action i among its rollout's.
	st     *rolloutFile
	files  []*rolloutFile
	origin []toolcall.Origin
	// applied holds the actions as their calls made them (applyCalls).
	applied toolcall.Applied
	// unread says, by path, why a sub-agent's rollout was not read.
	unread map[string]string
}

// record reads one line of any of the three shapes.
func (b *builder) record(v *jsontree.Value, first bool) {
	ts := toolcall.ParseTime(v.Get("timestamp").Text())
	typ := v.Get("type").Text()
	payload, wrapped := v.Lookup("payload")
	switch {
	case wrapped && payload.Is(jsontree.Object):
		b.st.recognised++
		b.rollout(typ, payload, ts)
	case strings.HasPrefix(typ, "thread.") || strings.HasPrefix(typ, "turn.") || strings.HasPrefix(typ, "item."):
		b.st.recognised++
		b.exec(typ, v)
	case v.Get("record_type").Text() == "state":
		b.st.recognised++
	case first && typ == "":
		// The legacy header: the session's id and git state.
		if _, ok := v.Lookup("id"); ok {
			b.st.recognised++
			b.meta(v)
		}
	case typ != "":
		if b.item(v, ts) {
			b.st.recognised++
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
	if b.st.agent != 0 {
		return
	}
	if cwd := p.Get("cwd").Text(); cwd != "" {
		b.setCwd(strings.TrimSuffix(cwd, "/"))
	}
	if v := p.Get("cli_version").Text(); v != "" {
		b.version = v
	}
}

// say keeps the model's text for the next action.
func (b *builder) say(s string) {
	if s = strings.TrimSpace(s); s != "" {
		b.st.thought = append(b.st.thought, s)
	}
}

// call adds a tool call's action, to be read once its output is known.
func (b *builder) call(id string, c toolcall.Call, ts float64) int {
	k := b.add(model.Action{Timestamp: ts}, c.Output)
	b.calls[k] = c
	if id != "" {
		b.st.byCall[id] = k
	}
	return k
}

// add appends an action with the thought said before it in its rollout.
func (b *builder) add(a model.Action, out string) int {
	f := b.st
	a.Agent = f.agent
	if f.last < 0 {
		toolcall.AddUsage(&a, f.usage)
	}
	b.actions = append(b.actions, a)
	b.parsed = append(b.parsed, nil)
	b.calls = append(b.calls, toolcall.Call{})
	b.obs = append(b.obs, out)
	b.thoughts = append(b.thoughts, strings.Join(f.thought, "\n\n"))
	b.origin = append(b.origin, toolcall.Origin{File: f.index, N: f.actions})
	f.thought, f.last = nil, len(b.actions)-1
	f.actions++
	return f.last
}

// count charges a model call's usage to the rollout's last action (the
// calls it made came before the count), or to its first one to come.
func (b *builder) count(u model.Usage) {
	if f := b.st; f.last >= 0 {
		toolcall.AddUsage(&b.actions[f.last], u)
	} else {
		held := model.Action{Usage: f.usage}
		toolcall.AddUsage(&held, u)
		f.usage = held.Usage
	}
}

// setCwd sets the session's working directory, which paths are made
// relative to: every action is applied again when it changes.
func (b *builder) setCwd(cwd string) {
	if cwd != b.cwd {
		b.cwd = cwd
		b.applied.StaleAll()
	}
}

// applyCalls reads each call with its output (toolcall.Apply, parsed_cmd,
// paths made relative), kept for the next reading of a followed session
// (toolcall.Applied).
func (b *builder) applyCalls() []model.Action {
	return b.applied.Update(b.actions, func(i int, a *model.Action) {
		if c := b.calls[i]; c.Name != "" {
			toolcall.Apply(a, c)
			if b.parsed[i] != nil {
				parsedCmd(a, b.parsed[i])
			}
		}
		toolcall.Relative(a, b.cwd)
	})
}

// finish makes the run of a snapshot: each sub-agent tied to its call, the
// actions in time order and numbered, the prediction built.
func (b *builder) finish(path string) model.Run {
	run := b.run
	for k := int32(1); int(k) < b.team.Len(); k++ {
		a := b.team.At(k)
		if i, ok := b.spawned[a.ID]; ok {
			a.Call, a.Parent = int32(i), b.actions[i].Agent
		}
	}
	order := toolcall.OrderByTime(b.actions)
	acts, texts := toolcall.Reorder(order, b.actions, b.obs, b.thoughts)
	for i := range acts {
		acts[i].Index = int32(i)
	}
	run.Agents = b.team.Agents(order)
	run.Actions, run.Observations, run.Thoughts = acts, texts[0], texts[1]
	for _, f := range b.files {
		if f.last < 0 {
			// A rollout that made no call: what it spent is the run's.
			run.RestUsage = run.RestUsage.Plus(f.usage)
		}
	}
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format = Name
	run.Agent = "codex"
	if b.version != "" {
		run.Agent += " " + b.version
	}
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	toolcall.NameByFile(&run, path)
	return run
}
