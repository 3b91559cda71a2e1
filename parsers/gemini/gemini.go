// Package gemini loads Gemini CLI sessions, in both shapes Gemini CLI has
// written them: one JSON document (sessionId, projectHash, messages[]) and,
// since 0.3x, JSON lines: a metadata line, then message records, where a
// message written again (a tool call's update) replaces the earlier record
// of its id in place, {"$set": …} updates the metadata (a "messages" list
// resets them) and {"$rewindTo": id} drops that message and all after it.
//
// A "gemini" message's toolCalls are the actions: read_file (offset and
// limit counted from 0, or start_line and end_line from 1), read_many_files,
// grep_search, glob, list_directory, run_shell_command (its output's
// "Output:" part is what the command printed, "Exit Code:" its status),
// write_file and replace, through parsers/internal/toolcall. A tool call
// that ran a sub-agent names it (agentId); the sub-agent's own session is
// chats/<this session's id>/<agentId>.jsonl beside this file, read in as that
// agent's (kind "subagent"), however deep sub-agents nest.
//
// There is no declared final context: the ContextBench prediction is one
// step per action that displayed file lines, and their union as the final.
package gemini

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/genai"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "gemini-cli"

var (
	projectHashRe = lazyre.New(`"projectHash"\s*:\s*"`)
	sessionIDRe   = lazyre.New(`"sessionId"\s*:\s*"`)
	exitCodeRe    = lazyre.New(`(?m)^Exit Code: (-?\d{1,9})\s*$`)
	safeIDRe      = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
)

// Sniff reports whether a file is a Gemini CLI session: a JSON object (the
// document, or the first of JSON lines) naming a sessionId and a
// projectHash.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	return projectHashRe().Match(first) && sessionIDRe().Match(first) ||
		projectHashRe().Match(head) && sessionIDRe().Match(head) && bytes.Contains(head, []byte(`"messages"`))
}

// ParseRuns reads one session, data, into a single run, with the
// sessions of the sub-agents it ran.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	b := &builder{team: toolcall.NewTeam(), seenCall: map[string]bool{}, agentCall: map[string]int{}}
	conv, err := b.read(path, data)
	if err != nil {
		return nil, err
	}
	if conv.sessionID == "" && len(conv.messages) == 0 {
		return nil, fmt.Errorf("%s: no Gemini CLI session (expected sessionId, projectHash and messages)", path)
	}
	b.conversation(conv, 0)
	b.subagents(path, conv.sessionID)
	return []model.Run{b.finish(path, conv)}, nil
}

// conversation is a session as its records leave it.
type conversation struct {
	sessionID, kind string
	messages        []*jsontree.Value
}

// read replays a session file: the JSON document, or its JSON lines.
func (b *builder) read(path string, data []byte) (conversation, error) {
	var c conversation
	if doc, err := toolcall.Decode(data); err == nil {
		m := doc.Object()
		if m == nil {
			return c, fmt.Errorf("%s: expected a JSON object", path)
		}
		c.meta(m)
		for _, msg := range m.Get("messages").Items() {
			if o := msg.Object(); o != nil {
				c.messages = append(c.messages, o)
			}
		}
		return c, nil
	}
	log := newMessageLog()
	decoded := 0
	var firstBad error
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
			b.run.Warn(toolcall.NotJSON(ln.No, t))
			continue
		}
		v, err := toolcall.DecodeAt(t, ln.No)
		if err != nil || v.Object() == nil {
			if err == nil {
				err = fmt.Errorf("%d: expected a JSON object", ln.No)
			}
			err = jsontree.At(path, err)
			if firstBad == nil {
				firstBad = err
			}
			b.run.Warn(fmt.Sprintf("line %d skipped: %v", ln.No, err))
			continue
		}
		decoded++
		m := v.Object()
		switch {
		case !m.Get("$rewindTo").IsNull():
			log.rewind(m.Get("$rewindTo").Text())
		case !m.Get("$set").IsNull():
			set := m.Get("$set").Object()
			c.meta(set)
			if msgs, ok := set.Lookup("messages"); ok && msgs.Is(jsontree.Array) {
				log = newMessageLog()
				for _, msg := range msgs.Items() {
					log.add(msg.Object())
				}
			}
		case m.Get("id").Text() != "" && !m.Get("type").IsNull():
			log.add(m)
		case m.Get("sessionId").Text() != "":
			c.meta(m)
			for _, msg := range m.Get("messages").Items() {
				log.add(msg.Object())
			}
		default:
			b.run.NoteUnread("record:" + recordShape(m))
		}
	}
	if decoded == 0 && firstBad != nil {
		return c, firstBad
	}
	for _, id := range log.order {
		c.messages = append(c.messages, log.byID[id].m)
	}
	return c, nil
}

// messageLog is a JSON-lines session's messages as its records leave
// them: in first-written order, each its latest record. A rewind finds its
// message by id at once and drops what follows: each message is dropped
// at most once, so rewinds cost what the messages do, not their square.
type messageLog struct {
	order []string
	byID  map[string]messageAt
}

type messageAt struct {
	m   *jsontree.Value
	pos int
}

func newMessageLog() *messageLog { return &messageLog{byID: map[string]messageAt{}} }

func (l *messageLog) add(m *jsontree.Value) {
	id := m.Get("id").Text()
	if m == nil || id == "" {
		return
	}
	at, ok := l.byID[id]
	if !ok {
		at.pos = len(l.order)
		l.order = append(l.order, id)
	}
	at.m = m
	l.byID[id] = at
}

// rewind drops message id and all after it (all of them when id is not
// there, as Gemini CLI does).
func (l *messageLog) rewind(id string) {
	cut := 0
	if at, ok := l.byID[id]; ok {
		cut = at.pos
	}
	for _, k := range l.order[cut:] {
		delete(l.byID, k)
	}
	l.order = l.order[:cut]
}

// recordShape names a record the reader does not know by its first key.
func recordShape(m *jsontree.Value) string {
	if ms := m.Members(); len(ms) > 0 {
		return ms[0].Key
	}
	return "{}"
}

func (c *conversation) meta(m *jsontree.Value) {
	if id := m.Get("sessionId").Text(); id != "" {
		c.sessionID = id
	}
	if k := m.Get("kind").Text(); k != "" {
		c.kind = k
	}
}

type builder struct {
	run      model.Run
	actions  []model.Action
	calls    []toolcall.Call
	obs      model.TextList
	thoughts model.TextList
	carry    model.Usage
	team     *toolcall.Team
	seenCall map[string]bool
	// agentCall maps a sub-agent's id to the call that ran it.
	agentCall map[string]int
}

// conversation adds a conversation's messages as agent's.
func (b *builder) conversation(c conversation, agent int32) {
	for _, m := range c.messages {
		ts := toolcall.ParseTime(m.Get("timestamp").Text())
		switch typ := m.Get("type").Text(); typ {
		case "user":
			if b.run.Task == "" && agent == 0 {
				text, _, _ := genai.Parts(m.Get("content"))
				b.run.Task = task.FromPrompt(strings.TrimSpace(text))
			}
		case "gemini":
			if b.run.Model == "" && agent == 0 {
				b.run.Model = m.Get("model").Text()
			}
			text, _, _ := genai.Parts(m.Get("content"))
			thought := text
			if thought == "" {
				thought = thoughtSummary(m.Get("thoughts"))
			}
			usage := b.carry.Plus(genai.Usage(m.Get("tokens")))
			b.carry = model.Usage{}
			first := true
			for _, tc := range m.Get("toolCalls").Items() {
				if !b.toolCall(tc.Object(), ts, agent, thought, usage, first) {
					continue
				}
				if first {
					first = false
				}
			}
			if first {
				b.carry = usage // no call: the tokens were spent before the next one
			}
		case "info", "error", "warning":
		default:
			b.run.NoteUnread("message:" + typ)
		}
	}
}

// thoughtSummary joins a message's thought summaries ("subject:
// description").
func thoughtSummary(v *jsontree.Value) string {
	var parts []string
	for _, t := range v.Items() {
		s := strings.TrimSpace(t.Get("subject").Text() + ": " + t.Get("description").Text())
		if s != ":" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}

// toolCall adds one tool call as an action of agent; false when it was
// seen already (the same call recorded twice).
func (b *builder) toolCall(tc *jsontree.Value, ts float64, agent int32, thought string, usage model.Usage, first bool) bool {
	if tc == nil {
		return false
	}
	id := tc.Get("id").Text()
	if id != "" {
		if b.seenCall[id] {
			return false
		}
		b.seenCall[id] = true
	}
	name := tc.Get("name").Text()
	sub := tc.Get("agentId").Text()
	if !toolcall.Known(name) && sub == "" {
		b.run.NoteUnread("tool:" + name)
	}
	c := toolcall.Call{Name: name, Input: jsontree.Compact(tc.Get("args").Object())}
	if r, ok := tc.Lookup("result"); ok && !r.IsNull() {
		_, _, out, isErr := genai.Response(r)
		c.Output, c.HasOutput, c.IsError = out, true, isErr
	} else if d, ok := tc.Get("resultDisplay").AsString(); ok {
		c.Output, c.HasOutput = d, true
	}
	switch tc.Get("status").Text() {
	case "error":
		c.IsError = true
	case "cancelled":
		c.NotRun = "cancelled"
	}
	if toolcall.KindIsShell(name) && c.HasOutput {
		c.Output, c.Exit, c.HasExit = shellOutput(c.Output)
	}
	if t := toolcall.ParseTime(tc.Get("timestamp").Text()); t > 0 && ts == 0 {
		ts = t
	}
	a := model.Action{Timestamp: ts, Agent: agent}
	if first {
		a.Usage = usage
	}
	toolcall.Apply(&a, c)
	if sub != "" {
		a.Category = model.CategoryOther // it ran a sub-agent
		b.agentCall[sub] = len(b.actions)
	}
	b.actions = append(b.actions, a)
	b.calls = append(b.calls, c)
	b.obs = append(b.obs, c.Output)
	th := ""
	if first {
		th = thought
	}
	b.thoughts = append(b.thoughts, th)
	return true
}

// shellOutput takes run_shell_command's result apart: "Command: …
// Directory: … Output: … Error: … Exit Code: N …": what the command
// printed and its exit status.
func shellOutput(s string) (string, int, bool) {
	exit, hasExit := 0, false
	if m := exitCodeRe().FindStringSubmatch(s); m != nil {
		exit, _ = strconv.Atoi(m[1])
		hasExit = true
	}
	i := strings.Index(s, "Output: ")
	if i < 0 || !strings.HasPrefix(s, "Command: ") {
		return s, exit, hasExit
	}
	body := s[i+len("Output: "):]
	for _, end := range []string{"\nError: ", "\nExit Code: ", "\nSignal: ", "\nBackground PIDs: "} {
		if j := strings.Index(body, end); j >= 0 {
			body = body[:j]
		}
	}
	if body == "(empty)" {
		body = ""
	}
	return body, exit, hasExit
}

// maxSubagentFiles bounds the sub-agent sessions one session reads.
const maxSubagentFiles = 1024

// subagents reads the sessions of the sub-agents the session ran:
// <dir>/<session id>/*.jsonl (and *.json), each as the agent its call
// named. Gemini CLI keeps every sub-agent of a session there, nested ones
// too, so each is tied to whichever call, in any of them, ran it.
func (b *builder) subagents(path, sessionID string) {
	if !safeIDRe().MatchString(sessionID) {
		return
	}
	dir := filepath.Join(filepath.Dir(path), sessionID)
	var files []string
	for _, pat := range []string{"*.jsonl", "*.json"} {
		m := inputfile.Glob(filepath.Join(dir, pat))
		files = append(files, m...)
	}
	sort.Strings(files)
	if len(files) > maxSubagentFiles {
		b.run.Warn(fmt.Sprintf("%s: %d sub-agent sessions; the first %d read", dir, len(files), maxSubagentFiles))
		files = files[:maxSubagentFiles]
	}
	type sub struct {
		agent int32
		conv  conversation
	}
	var subs []sub
	// Each once, never through a link, one budget for them all.
	refs := inputfile.NewRefs(model.MaxFileBytes)
	for _, f := range files {
		data, err := refs.Read(f)
		if err != nil {
			b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(f), err))
			continue
		}
		c, err := b.read(f, data)
		if err != nil {
			b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(f), err))
			continue
		}
		key := c.sessionID
		if key == "" {
			key = strings.TrimSuffix(filepath.Base(f), filepath.Ext(f))
		}
		subs = append(subs, sub{b.team.Add(key, model.Agent{Parent: 0, Call: -1}), c})
	}
	for _, s := range subs {
		b.conversation(s.conv, s.agent)
	}
}

func (b *builder) finish(path string, c conversation) model.Run {
	// Tie each sub-agent to the call that ran it (calls of the lead and of
	// sub-agents alike).
	for k := int32(1); int(k) < b.team.Len(); k++ {
		a := b.team.At(k)
		if i, ok := b.agentCall[a.ID]; ok {
			a.Call, a.Parent, a.Type = int32(i), b.actions[i].Agent, b.calls[i].Name
			if d := b.calls[i].Input.First("description", "objective", "task"); d != "" {
				a.Description = toolcall.AgentDescription(d)
			}
		}
	}
	order := toolcall.OrderByTime(b.actions)
	acts, texts := toolcall.Reorder(order, b.actions, b.obs, b.thoughts)
	run := b.run
	run.Actions, run.Observations, run.Thoughts = acts, texts[0], texts[1]
	run.RestUsage = b.carry // the final answer's, after the last call
	run.Agents = b.team.Agents(order)
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	run.Format, run.Agent, run.Path = Name, "gemini-cli", path
	run.InstanceID = c.sessionID
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return run
}
