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
// not reads; Bash commands go through parsers/internal/shell. Calls a
// sub-agent made are marked Sidechain (isSidechain in session files,
// parent_tool_use_id in stream-json). Token usage is counted
// once per API message (message.id), because one message is split over
// several lines that each repeat its usage.
//
// There is no declared final context: the ContextBench prediction is one
// step per action that displayed file lines, and their union as the final.
package claudecode

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
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
	safeIDRe     = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$`)
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
		return recordTypeRe().Match(b) && (messageKeyRe().Match(b) || sessionKeyRe().Match(b) || initRe().Match(b))
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
// (<session-id>/subagents/*.jsonl) are merged in by time and marked
// Sidechain.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	run, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	mergeSubagents(&run, path)
	finish(&run, path)
	return []model.Run{run}, nil
}

// parse builds the run of one transcript file without touching the disk.
func parse(path string, data []byte) (model.Run, error) {
	recs, err := records(path, data)
	if err != nil {
		return model.Run{}, err
	}
	b := newBuilder()
	for _, r := range recs {
		b.add(r)
	}
	if b.recognised == 0 {
		return model.Run{}, fmt.Errorf("%s: no Claude Code records (expected JSON lines with \"type\": \"assistant\"/\"user\"/\"system\" and a \"message\")", path)
	}
	return b.finish(), nil
}

// record is one decoded line.
type record struct {
	line int
	m    *jsontree.Value
}

// records decodes a JSONL transcript, or a JSON array of records. Lines
// that do not start with "{" are skipped: Harbor tees the CLI's stderr into
// the same file (`2>&1 | tee`). A record that does not decode is an error,
// except on the last line, where a run killed mid-write leaves half a
// record.
func records(path string, data []byte) ([]record, error) {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		v, err := toolcall.Decode(data)
		if err != nil {
			return nil, jsontree.At(path, err)
		}
		var out []record
		for i, e := range v.Items() {
			m := e.Object()
			if m == nil {
				return nil, fmt.Errorf("%s: record %d: expected a JSON object", path, i)
			}
			out = append(out, record{line: 0, m: m})
		}
		return out, nil
	}
	lines := toolcall.Lines(data)
	var out []record
	for i, ln := range lines {
		t := bytes.TrimSpace(ln.Text)
		if len(t) == 0 || t[0] != '{' {
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		if err != nil {
			if i == len(lines)-1 && len(out) > 0 {
				break // a half-written last record
			}
			return nil, jsontree.At(path, err)
		}
		out = append(out, record{line: ln.No, m: v.Object()})
	}
	return out, nil
}

// msgUsage is one API message's usage, counted once.
type msgUsage struct {
	usage model.Usage
	// firstAction is the first action this message produced, -1 if none.
	firstAction int
	// actionsBefore is how many actions existed when the message began; a
	// message without tool calls charges its usage to the next action.
	actionsBefore int
}

type builder struct {
	run        model.Run
	recognised int
	actions    []model.Action
	thoughts   model.TextList // thoughts[i] is action i's
	calls      []toolcall.Call
	byID       map[string]int
	seenUUID   map[string]bool
	usage      map[string]*msgUsage
	usageOrder []string
	thought    map[string]string // message id → text so far
	cwd        string            // the session's working directory
}

func newBuilder() *builder {
	return &builder{
		byID:     map[string]int{},
		seenUUID: map[string]bool{},
		usage:    map[string]*msgUsage{},
		thought:  map[string]string{},
	}
}

func (b *builder) add(r record) {
	m := r.m
	if uuid := m.Get("uuid").Text(); uuid != "" {
		// A resumed session repeats earlier records.
		if b.seenUUID[uuid] {
			return
		}
		b.seenUUID[uuid] = true
	}
	if cwd := m.Get("cwd").Text(); cwd != "" && b.cwd == "" {
		b.cwd = cwd // every session record and the stream's init carry it
	}
	switch m.Get("type").Text() {
	case "system":
		b.recognised++
		if b.run.Model == "" {
			b.run.Model = m.Get("model").Text()
		}
		if b.run.InstanceID == "" {
			b.run.InstanceID = m.First("session_id", "sessionId")
		}
	case "assistant":
		b.recognised++
		b.assistant(r)
	case "user":
		b.recognised++
		b.user(m)
	case "result":
		// The print mode's last record: how the session ended
		// ("success", "error_max_turns") and what it cost.
		b.recognised++
		b.run.ExitStatus = m.Get("subtype").Text()
		if c := toolcall.Cost(m.Get("total_cost_usd")); c > 0 {
			b.run.CostUSD = c
		}
	case "queue-operation", "summary", "attachment", "file-history-snapshot", "last-prompt":
		b.recognised++
	}
	if b.run.InstanceID == "" {
		b.run.InstanceID = m.First("sessionId", "session_id")
	}
}

// sidechain says whether a record belongs to a sub-agent.
func sidechain(m *jsontree.Value) bool {
	if m.Get("isSidechain").True() {
		return true
	}
	// stream-json: a sub-agent's messages name the Task call that runs it.
	return m.Get("parent_tool_use_id").Text() != ""
}

func (b *builder) assistant(r record) {
	m := r.m
	msg := m.Get("message").Object()
	if msg == nil {
		return
	}
	if b.run.Model == "" {
		if mod := msg.Get("model").Text(); mod != "" && mod != "<synthetic>" {
			b.run.Model = mod
		}
	}
	id := msg.Get("id").Text()
	if id == "" {
		id = fmt.Sprintf("line:%d:%d", r.line, len(b.usageOrder))
	}
	mu := b.usage[id]
	if mu == nil {
		mu = &msgUsage{firstAction: -1, actionsBefore: len(b.actions)}
		b.usage[id] = mu
		b.usageOrder = append(b.usageOrder, id)
	}
	if u, ok := msg.Lookup("usage"); ok {
		// Every line of a message repeats its usage; later lines may carry
		// a more complete count, so keep the largest of each field.
		nu := toolcall.AnthropicUsage(u)
		mu.usage.InputTokens = max(mu.usage.InputTokens, nu.InputTokens)
		mu.usage.OutputTokens = max(mu.usage.OutputTokens, nu.OutputTokens)
		mu.usage.CacheRead = max(mu.usage.CacheRead, nu.CacheRead)
		mu.usage.CacheWrite = max(mu.usage.CacheWrite, nu.CacheWrite)
	}
	ts := toolcall.ParseTime(m.Get("timestamp").Text())
	side := sidechain(m)
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
			if b.thought[id] == "" {
				b.thought[id] = blk.Get("thinking").Text()
			}
		case "tool_use", "server_tool_use":
			callID := blk.Get("id").Text()
			if callID != "" {
				if _, dup := b.byID[callID]; dup {
					continue
				}
			}
			in := blk.Get("input").Object()
			a := model.Action{
				Index:     int32(len(b.actions)),
				Timestamp: ts,
				Sidechain: side,
			}
			if mu.firstAction < 0 {
				mu.firstAction = len(b.actions)
			}
			if callID != "" {
				b.byID[callID] = len(b.actions)
			}
			b.actions = append(b.actions, a)
			b.thoughts = append(b.thoughts, b.thought[id])
			b.calls = append(b.calls, toolcall.Call{Name: blk.Get("name").Text(), Input: in})
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

func (b *builder) user(m *jsontree.Value) {
	msg := m.Get("message").Object()
	if b.run.Task == "" && !m.Get("isMeta").True() && !sidechain(m) {
		// The session's first prompt is its task; Claude Code's own
		// records (a slash command, a caveat) are not.
		if text := strings.TrimSpace(promptText(msg.Get("content"))); text != "" &&
			!strings.HasPrefix(text, "<command-") && !strings.HasPrefix(text, "<local-command") && !strings.HasPrefix(text, "Caveat:") {
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
			c.Meta = meta.Object()
		}
		if b.actions[i].Timestamp == 0 {
			b.actions[i].Timestamp = toolcall.ParseTime(m.Get("timestamp").Text())
		}
	}
}

func (b *builder) finish() model.Run {
	obs := make(model.TextList, len(b.actions))
	for i := range b.actions {
		toolcall.Apply(&b.actions[i], b.calls[i])
		toolcall.Relative(&b.actions[i], b.cwd)
		obs[i] = b.calls[i].Output
	}
	n := len(b.actions)
	for _, id := range b.usageOrder {
		mu := b.usage[id]
		if toolcall.UsageZero(mu.usage) || n == 0 {
			continue
		}
		target := mu.firstAction
		if target < 0 {
			target = min(mu.actionsBefore, n-1)
		}
		toolcall.AddUsage(&b.actions[target], mu.usage)
	}
	run := b.run
	run.Actions, run.Observations, run.Thoughts = b.actions, obs, b.thoughts
	return run
}

// mergeSubagents adds the sub-agent transcripts Claude Code stores beside a
// session file, <dir>/<session-id>/subagents/agent-*.jsonl, as sidechain
// actions, ordered by time with the main session's actions. A sub-agent
// file that does not load is left out rather than failing the run.
func mergeSubagents(run *model.Run, path string) {
	id := run.InstanceID
	if !safeIDRe().MatchString(id) {
		return // the id names a directory: keep it to one safe name
	}
	dir := filepath.Join(filepath.Dir(path), id, "subagents")
	matches, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if len(matches) == 0 {
		return
	}
	sort.Strings(matches)
	if len(matches) > 256 {
		matches = matches[:256]
	}
	var extra []model.Action
	var obs, thoughts model.TextList
	for i := range run.Actions {
		obs, thoughts = append(obs, run.Observation(i)), append(thoughts, run.Thought(i))
	}
	for _, f := range matches {
		data, err := inputfile.ReadRegular(f)
		if err != nil {
			continue
		}
		sub, err := parse(f, data)
		if err != nil {
			continue
		}
		for i, a := range sub.Actions {
			a.Sidechain = true
			extra = append(extra, a)
			obs, thoughts = append(obs, sub.Observation(i)), append(thoughts, sub.Thought(i))
		}
	}
	if len(extra) == 0 {
		return
	}
	all := append(run.Actions, extra...)
	// Sorted through a permutation, so that each action's texts follow it.
	order := make([]int, len(all))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool {
		ti, tj := all[order[i]].Timestamp, all[order[j]].Timestamp
		if ti == 0 || tj == 0 {
			return false
		}
		return ti < tj
	})
	acts, o, th := make([]model.Action, len(all)), make(model.TextList, len(all)), make(model.TextList, len(all))
	for k, i := range order {
		acts[k], o[k], th[k] = all[i], obs[i], thoughts[i]
	}
	run.Actions, run.Observations, run.Thoughts = acts, o, th
}

// finish numbers the actions, builds the prediction and names the run.
func finish(run *model.Run, path string) {
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format = Name
	run.Agent = "claude-code"
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	if run.InstanceID == "" {
		base := filepath.Base(path)
		run.InstanceID = strings.TrimSuffix(base, filepath.Ext(base))
	}
	run.Prediction.InstanceID = run.InstanceID
}

// promptText is a user message's own text: the string, or its text blocks
// (a message of tool results has none).
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
