// Package claudecode loads Claude Code transcripts: the stream-json output
// of `claude --output-format stream-json --verbose` (what Harbor saves as
// agent/claude-code.txt), the JSON array `--output-format json --verbose`
// prints, and the native session JSONL Claude Code writes under
// projects/<cwd-slug>/<session-id>.jsonl.
//
// Every tool_use block becomes one timeline action, paired with its
// tool_result by tool_use_id. What a Read displayed follows the tool's own
// semantics: offset is 1-based, the observed range is
// offset..offset+limit-1 (the whole file without a limit), and the numbered
// output ("   N→text" or "N\ttext") overrides the arguments when present,
// since it is what the model saw. Grep and Glob results are search hits,
// not reads; Bash commands go through parsers/internal/shell. Token usage
// is counted once per API message (message.id), because one message is
// split over several lines that each repeat its usage.
//
// A session is read whole: its sub-agents are agents of the run (Run.Agents),
// each action knowing which agent made it. Their work arrives three ways:
// inline, as progress records (data.type agent_progress) carrying one of
// the sub-agent's messages each and naming the Task call that started it
// (parentToolUseID), nested as deep as sub-agents go; as sidechain records
// of the session file (isSidechain, agentId) or stream-json messages naming
// their Task call (parent_tool_use_id); and as transcripts beside a
// session file, <session-id>/subagents/agent-<id>.jsonl (with a .meta.json
// naming the agent's type), tied to their Task call by the call's result
// (toolUseResult.agentId). A record or a tool call met twice (a resumed
// session, a forked sub-agent's inherited history) counts once, by uuid
// and tool_use id.
//
// There is no declared final context: the ContextBench prediction is one
// step per action that displayed file lines, and their union as the final.
package claudecode

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "claude-code"

var (
	// recordTypeRe finds a Claude Code record type in a line.
	recordTypeRe = lazyre.New(`"type"\s*:\s*"(?:assistant|user|system|result|queue-operation|summary|attachment|file-history-snapshot)"`)
	sessionKeyRe = lazyre.New(`"(?:parentUuid|sessionId|session_id|isSidechain)"\s*:`)
	messageKeyRe = lazyre.New(`"message"\s*:\s*\{`)
	initRe       = lazyre.New(`"subtype"\s*:\s*"init"`)
	// roleRe finds a message's role: a record without a type (ccusage's
	// fixtures write them so) is known by it and its session keys.
	roleRe   = lazyre.New(`"role"\s*:\s*"(?:assistant|user)"`)
	safeIDRe = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
)

// Sniff reports whether a file is a Claude Code transcript, from its first
// bytes: JSON lines (or a JSON array) of Claude Code records, i.e. a
// "type" of assistant/user/system/result with a message or session keys.
// Lines that are not JSON (stderr teed into the file) are passed over.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 {
		return false
	}
	if bytes.Contains(head, []byte(`"traj_data"`)) || bytes.Contains(head, []byte(`"schema_version"`)) {
		return false
	}
	isRecord := func(b []byte) bool {
		if !recordTypeRe().Match(b) {
			return roleRe().Match(b) && messageKeyRe().Match(b) && sessionKeyRe().Match(b)
		}
		return messageKeyRe().Match(b) || sessionKeyRe().Match(b) || initRe().Match(b)
	}
	if t[0] == '[' {
		return isRecord(t)
	}
	for _, ln := range toolcall.Lines(head) {
		l := bytes.TrimSpace(ln.Text)
		if len(l) > 0 && l[0] == '{' && isRecord(l) {
			return true
		}
	}
	return false
}

// ParseRuns reads one transcript, data, into a single run. Sub-agent
// transcripts that Claude Code keeps beside a session file at path
// (<session-id>/subagents/agent-*.jsonl) are read into it as its agents'.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	b := newBuilder()
	if err := b.file(path, data, 0, 0); err != nil {
		return nil, err
	}
	if b.recognised == 0 {
		if b.firstBad != nil {
			return nil, b.firstBad // nothing read but lines that are not JSON
		}
		return nil, fmt.Errorf("%s: no Claude Code records (expected JSON lines with \"type\": \"assistant\"/\"user\"/\"system\" and a \"message\")", path)
	}
	b.subagentFiles(path)
	run := b.snapshot().finish()
	finish(&run, path, nil)
	return []model.Run{run}, nil
}

// file reads one transcript's records as agent's (0: the session's own);
// from is the number of lines read before data (a followed file's).
func (b *builder) file(path string, data []byte, agent int32, from int) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		v, err := toolcall.Decode(data)
		if err != nil {
			return jsontree.At(path, err)
		}
		for i, e := range v.Items() {
			m := e.Object()
			if m == nil {
				return fmt.Errorf("%s: record %d: expected a JSON object", path, i)
			}
			b.line = 0
			b.add(m, 0, agent)
		}
		return nil
	}
	// Lines that do not start with "{" are skipped, and named: Harbor
	// tees the CLI's stderr into the same file (`2>&1 | tee`). A line that
	// does not decode (a half-written last line, a corrupt record) is
	// skipped with a warning naming it too.
	for _, ln := range toolcall.Lines(data) {
		ln.No += from
		b.line = int32(ln.No)
		t := bytes.TrimSpace(ln.Text)
		if len(t) == 0 {
			continue
		}
		if t[0] != '{' {
			b.warn(toolcall.NotJSON(ln.No, t))
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		if err != nil {
			err = jsontree.At(path, err)
			if b.firstBad == nil {
				b.firstBad = err
			}
			b.warn(fmt.Sprintf("line %d skipped: %v", ln.No, err))
			continue
		}
		b.add(v.Object(), ln.No, agent)
	}
	return nil
}

// msgUsage is one API message's usage, counted once (ccusage's rule: per
// message id and request id, the line of the largest total kept).
type msgUsage struct {
	usage model.Usage
	// sidechain: a sub-agent's line (a sidechain replay of the lead's
	// message is the same message, whatever its request id).
	sidechain bool
	// firstAction is the first action this message produced, -1 if none.
	firstAction int
	// actionsBefore is how many actions existed when the message began; a
	// message without tool calls charges its usage to the next action.
	actionsBefore int
	// before is where that next action is in the message's file.
	before toolcall.Origin
}

type builder struct {
	run        model.Run
	recognised int
	actions    []model.Action
	thoughts   model.TextList // thoughts[i] is action i's
	calls      []toolcall.Call
	launches   []int // the calls that start agents, as read
	// sharedThoughts: a snapshot's thoughts are the builder's (finish
	// copies them before reordering).
	sharedThoughts bool
	byID           map[string]int
	seenUUID       map[string]int32 // the file where each record was met
	usage          map[string]*msgUsage
	usageOrder     []*msgUsage // the messages' usage, in the order met
	// refs reads the files the session refers to (sub-agents' transcripts
	// and metas): each once, never through a link, one budget in all.
	refs *inputfile.Refs
	// resultUsage is the print mode's own total (its result record's
	// usage), when it wrote one.
	resultUsage    model.Usage
	hasResultUsage bool
	// usageKey is the key a message counted under, for a replay found by
	// its message id alone.
	usageKey map[*msgUsage]string
	thought  map[string]string // message id → text so far
	cwd      string            // the session's working directory
	team     *toolcall.Team
	// launched maps an agent id to the Task call whose result named it
	// (toolUseResult.agentId): how a subagents/ transcript finds its call.
	launched map[string]int
	// recorded holds, by call, the totals an Agent call's result records
	// (for an agent whose transcript is not beside the session), and
	// metaCall, by agent, the call its .meta.json names (toolUseId).
	recorded map[int]model.AgentTotals
	metaCall map[int32]string
	// metaParent is, by agent, the agent its .meta.json says started it
	// (parentAgentId), for one whose call is not known.
	metaParent map[int32]string
	// workflows maps a workflow run's id to the Workflow call that started
	// it (toolUseResult.runId), and flows each workflow agent to its run.
	workflows map[string]int
	flows     map[int32]string
	firstBad  error // the first line that did not decode

	// Where each thing was met, for a reading in another order than a
	// whole one (a followed session: see snapshot).
	files    []string // the files read: "" the session, else a sub-agent transcript's name
	cur      int32    // the file being read
	line     int32    // the line being read
	fileActs []int32  // actions read from each file
	// warns holds each file's warnings (a line that did not decode), put
	// in a whole reading's order by snapshot.
	warns  [][]string
	origin []toolcall.Origin // origin[i]: action i's file and place among that file's actions
	sight  []toolcall.Origin // sight[k]: the file and line where agent k was first met
	// applied holds the actions as their calls made them (applyCalls).
	applied toolcall.Applied
	// at and start are a snapshot's whole reading's order (see snapshot):
	// at[i] is where action i, as read, stands in it, and start the
	// number of actions before each file's. The maps above hold actions
	// as read: place puts them in order.
	at    []int32
	start []int
	// reorder is set when something met first in one file is met again in
	// a file a whole reading reads before it (see metAgain).
	reorder bool
}

// metAgain notes a record, a call or an agent met again, first met in file
// f. A whole reading keeps the one it meets first; a followed session's
// files are read in turns, and when the file now read comes before f in a
// whole reading, what was kept is not what a whole reading keeps: the
// reading must start over (Tail), in a whole reading's order.
func (b *builder) metAgain(f int32) {
	if b.files[b.cur] < b.files[f] {
		b.reorder = true
	}
}

func newBuilder() *builder {
	return &builder{
		refs:     inputfile.NewRefs(model.MaxFileBytes),
		byID:     map[string]int{},
		seenUUID: map[string]int32{},
		usage:    map[string]*msgUsage{},
		usageKey: map[*msgUsage]string{},
		thought:  map[string]string{},
		team:     toolcall.NewTeam(),
		launched: map[string]int{},
		recorded: map[int]model.AgentTotals{},
		files:    []string{""},
		warns:    [][]string{nil},
		fileActs: []int32{0},
		sight:    []toolcall.Origin{{}},
	}
}

// metaRecords are record types that carry nothing a run is made of
// (titles, modes, snapshots, queue and summary bookkeeping): understood,
// and passed over.
var metaRecords = map[string]bool{
	"queue-operation": true, "summary": true, "attachment": true, "file-history-snapshot": true, "last-prompt": true,
	"ai-title": true, "custom-title": true, "mode": true, "permission-mode": true, "agent-name": true, "agent-color": true,
	"agent-setting": true, "tag": true, "pr-link": true, "worktree-state": true, "content-replacement": true,
	"marble-origami-commit": true, "marble-origami-snapshot": true, "speculation-accept": true, "attribution-snapshot": true,
	"file-history-delta": true, "atis-latch": true, "relocated": true, "rate_limit_event": true, "stream_event": true,
}

// quietProgress are progress records that report a tool's or hook's
// progress, not an agent's messages: understood, and passed over.
var quietProgress = map[string]bool{
	"hook_progress": true, "bash_progress": true, "mcp_progress": true, "powershell_progress": true,
	"task_progress": true, "tool_progress": true, "query_update": true, "search_results_received": true,
	"waiting_for_task": true,
}

// maxNesting bounds how deep progress records may nest inside each other.
const maxNesting = 8

// add reads one record as agent's.
func (b *builder) add(m *jsontree.Value, line int, agent int32) {
	b.record(m, line, agent, 0)
}

func (b *builder) record(m *jsontree.Value, line int, agent int32, depth int) {
	if m == nil {
		return
	}
	if uuid := m.Get("uuid").Text(); uuid != "" {
		// A resumed session repeats earlier records, and a forked
		// sub-agent its parent's.
		if f, seen := b.seenUUID[uuid]; seen {
			b.metAgain(f)
			return
		}
		b.seenUUID[uuid] = b.cur
	}
	if cwd := m.Get("cwd").Text(); cwd != "" && b.cwd == "" {
		b.cwd = cwd          // every session record and the stream's init carry it
		b.applied.StaleAll() // paths are made relative to it
	}
	typ := m.Get("type").Text()
	if typ == "" && !m.Get("type").Is(jsontree.String) {
		// A record without a type (ccusage's own fixtures write them so):
		// a message's role says which it is.
		switch r := m.Get("message").Get("role").Text(); r {
		case "assistant", "user":
			typ = r
		}
	}
	switch typ {
	case "system":
		b.recognised++
		if b.run.Model == "" {
			b.run.Model = m.Get("model").Text()
		}
		if b.run.InstanceID == "" && agent == 0 {
			b.run.InstanceID = m.First("session_id", "sessionId")
		}
	case "assistant":
		b.recognised++
		b.assistant(m, line, b.agentOf(m, agent))
	case "user":
		b.recognised++
		b.user(m, b.agentOf(m, agent))
	case "result":
		// The print mode's last record: how the session ended
		// ("success", "error_max_turns") and what it cost.
		b.recognised++
		b.run.ExitStatus = m.Get("subtype").Text()
		if c := toolcall.Cost(m.Get("total_cost_usd")); c > 0 {
			b.run.CostUSD = c
		}
		if u, ok := m.Lookup("usage"); ok && agent == 0 {
			b.resultUsage, b.hasResultUsage = toolcall.AnthropicUsage(u), true
		}
	case "progress":
		b.recognised++
		b.progress(m, line, agent, depth)
	default:
		if metaRecords[typ] {
			b.recognised++
		} else {
			b.run.NoteUnread("record:" + typ)
		}
	}
	if b.run.InstanceID == "" && agent == 0 {
		b.run.InstanceID = m.First("sessionId", "session_id")
	}
}

// progress reads a progress record: an agent's (or a skill's) message, the
// sub-agent named by data.agentId and started by the call parentToolUseID;
// a progress record may carry another (a sub-agent's sub-agent).
func (b *builder) progress(m *jsontree.Value, line int, agent int32, depth int) {
	d := m.Get("data").Object()
	kind := d.Get("type").Text()
	switch {
	case kind == "agent_progress" || kind == "skill_progress":
		if depth >= maxNesting {
			b.run.NoteUnread("progress:nested too deep")
			return
		}
		call := m.Get("parentToolUseID").Text()
		key := d.Get("agentId").Text()
		if key == "" {
			key = "call:" + call
		}
		sub := b.subagent(key, call, agent)
		if kind == "skill_progress" && b.team.At(sub).Type == "" {
			b.team.At(sub).Type = "skill"
		}
		b.record(d.Get("message").Object(), line, sub, depth+1)
	case quietProgress[kind]:
	default:
		b.run.NoteUnread("progress:" + kind)
	}
}

// applyCalls gives each action what its call did (toolcall.Apply), kept
// for the next reading of a followed session (toolcall.Applied). Once
// applied with its result, the structured result is let go: nothing reads
// it after (were the same result recorded again in a message of several,
// a whole reading would apply the first one's again; a followed one
// applies the call without it).
func (b *builder) applyCalls() []model.Action {
	return b.applied.Update(b.actions, func(i int, a *model.Action) {
		toolcall.Apply(a, b.calls[i])
		if !b.calls[i].HasOutput {
			// No result yet (a running command in a followed session, or
			// one the session ended before): asked for, not shown.
			a.Pending, a.Reads = true, nil
		}
		toolcall.Relative(a, b.cwd)
		if b.calls[i].HasOutput {
			b.calls[i].Meta = nil
		}
	})
}

// place is where action i as read stands in a snapshot's order (i itself
// outside one; -1 for -1).
func (b *builder) place(i int) int {
	if i < 0 || b.at == nil || i >= len(b.at) {
		return i
	}
	return int(b.at[i])
}

// finish makes the run of a snapshot's actions (applied) and agents.
func (b *builder) finish() model.Run {
	b.tieAgents()
	b.recordedAgents()
	obs := make(model.TextList, len(b.actions))
	for i := range b.actions {
		obs[i] = b.calls[i].Output
	}
	n := len(b.actions)
	rest := model.Usage{}
	for _, mu := range b.usageOrder {
		if toolcall.UsageZero(mu.usage) {
			continue
		}
		target := b.place(mu.firstAction)
		if target < 0 {
			target = mu.actionsBefore // the next action, when one came
			if b.start != nil {
				target = b.start[mu.before.File] + int(mu.before.N)
			}
		}
		if target >= n {
			// A message after the last call (the final answer), or of a
			// run that made none: the run's.
			rest = rest.Plus(mu.usage)
			continue
		}
		toolcall.AddUsage(&b.actions[target], mu.usage)
	}
	if b.hasResultUsage {
		// The session's own total: what its messages do not account for
		// (responses the stream did not write) is the run's.
		counted := model.Usage{}
		for _, mu := range b.usageOrder {
			counted = counted.Plus(mu.usage)
		}
		r := b.resultUsage
		rest = rest.Plus(model.NewUsage(max(int(r.InputTokens-counted.InputTokens), 0), max(int(r.OutputTokens-counted.OutputTokens), 0),
			max(int(r.CacheRead-counted.CacheRead), 0), max(int(r.CacheWrite-counted.CacheWrite), 0)))
	}
	// Sub-agent transcripts read after the session: into time order, in
	// place (a snapshot's actions and the observations are its own; its
	// thoughts may be the builder's).
	order := toolcall.OrderByTime(b.actions)
	thoughts := b.thoughts
	if order != nil && b.sharedThoughts {
		thoughts = slices.Clone(thoughts)
	}
	toolcall.ReorderInPlace(order, b.actions, obs, thoughts)
	run := b.run
	run.Actions, run.Observations, run.Thoughts = b.actions, obs, thoughts
	run.RestUsage = rest
	run.Agents = b.team.Agents(order)
	return run
}

// finish numbers the actions, builds the prediction and names the run.
// A followed session's lens goes on from what memo kept of its last
// reading (nil: a whole reading, nothing kept).
func finish(run *model.Run, path string, memo *observed.Memo) {
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	run.Prediction.Steps, run.Prediction.Final = memo.Declare(run.Actions)
	run.Format = Name
	run.Agent = "claude-code"
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	toolcall.NameByFile(run, path)
}
