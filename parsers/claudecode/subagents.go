// Sub-agents: which agent made each record, the transcripts Claude Code
// keeps beside a session, and each agent tied to the call that started it.

package claudecode

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// agentOf is the agent a user or assistant record belongs to: a
// sidechain record's (isSidechain with agentId, or stream-json's
// parent_tool_use_id naming the Task call), else the file's.
func (b *builder) agentOf(m *jsontree.Value, agent int32) int32 {
	if call := m.Get("parent_tool_use_id").Text(); call != "" {
		return b.subagent("call:"+call, call, agent)
	}
	if agent == 0 && m.Get("isSidechain").True() {
		key := m.Get("agentId").Text()
		if key == "" {
			key = "sidechain"
		}
		return b.subagent(key, "", 0)
	}
	return agent
}

// subagent is the agent known by key, made on first sight: started by the
// call callID (when known) of the agent that made that call, else by
// parent.
func (b *builder) subagent(key, callID string, parent int32) int32 {
	at := toolcall.Origin{File: b.cur, N: b.line}
	if i, ok := b.team.Lookup(key); ok {
		b.metAgain(b.sight[i].File)
		return i
	}
	a := model.Agent{ID: strings.TrimPrefix(key, "call:"), Parent: parent, Call: -1}
	if i, ok := b.byID[callID]; ok && callID != "" {
		b.describe(&a, i)
	}
	n := b.team.Len()
	i := b.team.Add(key, a)
	if b.team.Len() > n {
		b.sight = append(b.sight, at)
	}
	return i
}

// describe ties agent a to the call at action i that started it: its
// parent is the call's agent, its type and description the call's.
func (b *builder) describe(a *model.Agent, i int) {
	a.Call, a.Parent = int32(i), b.actions[i].Agent
	in := b.calls[i].Input
	if t := in.Get("subagent_type").Text(); t != "" {
		a.Type = t
	}
	if d := in.Get("description").Text(); d != "" {
		a.Description = d
	}
}

// subagentFiles reads the sub-agent transcripts Claude Code stores beside a
// session file, <dir>/<session-id>/subagents/agent-<id>.jsonl, each as its
// agent's (with the type its .meta.json names), tied to the call that
// started it. A file that cannot be read is left out with a warning.
func (b *builder) subagentFiles(path string) {
	found, warnings := b.listSubagents(path)
	for _, w := range warnings {
		b.run.Warn(w)
	}
	for _, f := range found {
		data, err := b.refs.Read(f.path)
		if err != nil {
			b.enter(filepath.Base(f.path))
			b.warn(fmt.Sprintf("%s: not read: %v", filepath.Base(f.path), err))
			continue
		}
		b.subagentFile(f, b.startSubagent(f), data, 0)
	}
}

// subFile is a sub-agent transcript beside a session: its path, and its
// agent's key (the id its name carries).
type subFile struct{ path, key string }

// listSubagents finds the sub-agent transcripts of the session file at
// path, in name order, and says what it leaves out: past maxSubagentFiles
// files or model.MaxFileBytes in all, or a file that is not regular.
func (b *builder) listSubagents(path string) (found []subFile, warnings []string) {
	id := b.run.InstanceID
	if !safeIDRe().MatchString(id) {
		return nil, nil // the id names a directory: keep it to one safe name
	}
	dir := filepath.Join(filepath.Dir(path), id, "subagents")
	// A workflow's agents sit in workflows/<run>/ beside its journal;
	// agent-acompact-* transcripts are compaction runs (the summary a
	// compaction wrote), no sub-agent's work.
	var matches []string
	for _, m := range append(inputfile.Glob(filepath.Join(dir, "agent-*.jsonl")), inputfile.Glob(filepath.Join(dir, "workflows", "*", "agent-*.jsonl"))...) {
		if strings.HasPrefix(filepath.Base(m), "agent-acompact") {
			b.run.NoteUnread("compaction run")
			continue
		}
		matches = append(matches, m)
	}
	sort.Strings(matches)
	if len(matches) > maxSubagentFiles {
		warnings = append(warnings, fmt.Sprintf("%s: %d sub-agent transcripts; the first %d read", dir, len(matches), maxSubagentFiles))
		matches = matches[:maxSubagentFiles]
	}
	total := int64(0)
	for _, f := range matches {
		key := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "agent-"), ".jsonl")
		// A link is not read: 64 links to one transcript would read it 64
		// times (Claude Code writes files, never links). What the files
		// hold in all counts as one input.
		st, err := inputfile.Lstat(f)
		switch {
		case err == nil && !st.Mode().IsRegular():
			warnings = append(warnings, fmt.Sprintf("%s: not a regular file (a link?), not read", filepath.Base(f)))
			continue
		case err == nil && total+st.Size() > model.MaxFileBytes:
			warnings = append(warnings, fmt.Sprintf("%s: the sub-agent transcripts pass %d bytes in all; the rest not read", dir, int64(model.MaxFileBytes)))
			return found, warnings
		case err == nil:
			total += st.Size()
		}
		found = append(found, subFile{f, key})
	}
	return found, warnings
}

// startSubagent makes the agent of a sub-agent transcript read for the
// first time, with the type and description its .meta.json names.
func (b *builder) startSubagent(f subFile) int32 {
	b.enter(filepath.Base(f.path))
	b.line = 0
	agent := b.subagent(f.key, "", 0)
	meta, err := b.refs.Read(strings.TrimSuffix(f.path, ".jsonl") + ".meta.json")
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		b.warn(fmt.Sprintf("%s.meta.json: not read: %v", strings.TrimSuffix(filepath.Base(f.path), ".jsonl"), err))
	}
	if wf := filepath.Base(filepath.Dir(f.path)); filepath.Base(filepath.Dir(filepath.Dir(f.path))) == "workflows" {
		// A workflow's agent: its script started it, no Agent call.
		if b.flows == nil {
			b.flows = map[int32]string{}
		}
		b.flows[agent] = wf
		if b.team.At(agent).Description == "" {
			b.team.At(agent).Description = "workflow " + wf
		}
	}
	if err == nil {
		if v, err := toolcall.Decode(meta); err == nil {
			if t := v.Get("agentType").Text(); t != "" && b.team.At(agent).Type == "" {
				b.team.At(agent).Type = t
			}
			if d := v.Get("description").Text(); d != "" && b.team.At(agent).Description == "" {
				b.team.At(agent).Description = d
			}
			// Claude Code 2.1.154+: the call that started it, and the
			// agent that did (nested agents share one flat folder).
			if c := v.Get("toolUseId").Text(); c != "" {
				if b.metaCall == nil {
					b.metaCall = map[int32]string{}
				}
				b.metaCall[agent] = c
			}
			if p := v.Get("parentAgentId").Text(); p != "" {
				if b.metaParent == nil {
					b.metaParent = map[int32]string{}
				}
				b.metaParent[agent] = p
			}
		}
	}
	return agent
}

// subagentFile reads lines of a sub-agent transcript as agent's; from is
// the number of its lines read before.
func (b *builder) subagentFile(f subFile, agent int32, data []byte, from int) {
	b.enter(filepath.Base(f.path))
	if err := b.file(f.path, data, agent, from); err != nil {
		b.warn(fmt.Sprintf("%s: not read: %v", filepath.Base(f.path), err))
	}
}

// enter makes the file named key (see builder.files) the one being read.
func (b *builder) enter(key string) {
	if i := slices.Index(b.files, key); i >= 0 {
		b.cur = int32(i)
		return
	}
	b.files = append(b.files, key)
	b.fileActs = append(b.fileActs, 0)
	b.warns = append(b.warns, nil)
	b.cur = int32(len(b.files) - 1)
}

// maxSubagentFiles bounds the sub-agent transcripts one session reads.
const maxSubagentFiles = 1024

// tieAgents gives each sub-agent whose call is not known yet the call that
// started it: the Task call whose result names it, else the one Task call
// of its parent still running when its first action came (when exactly one
// fits, preferring one of its type).
func (b *builder) tieAgents() {
	untied := false
	for k := int32(1); int(k) < b.team.Len(); k++ {
		untied = untied || b.team.At(k).Call < 0
	}
	if !untied {
		return // every agent's call known: a followed reading looks at no action
	}
	// Each agent's first action, and the calls already tied, found once:
	// a session of thousands of untied agents is not cubic in them (issue
	// 48 #7).
	first := make([]int, b.team.Len())
	for k := range first {
		first[k] = -1
	}
	for i := len(b.actions) - 1; i >= 0; i-- {
		if k := b.actions[i].Agent; int(k) < len(first) {
			first[k] = i
		}
	}
	taken := map[int32]bool{}
	for k := int32(1); int(k) < b.team.Len(); k++ {
		if c := b.team.At(k).Call; c >= 0 {
			taken[c] = true
		}
	}
	// The calls that start agents, in order: known as they were read (a
	// followed reading with an agent still running looks at no other call).
	launches := make([]int, len(b.launches))
	for k, i := range b.launches {
		launches[k] = b.place(i)
	}
	slices.Sort(launches)
	for k := int32(1); int(k) < b.team.Len(); k++ {
		a := b.team.At(k)
		if a.Call >= 0 {
			continue
		}
		if i, ok := b.byID[b.metaCall[k]]; ok && b.metaCall[k] != "" {
			i = b.place(i)
			b.describe(a, i)
			taken[int32(i)] = true
			continue
		}
		if i, ok := b.launched[a.ID]; ok {
			i = b.place(i)
			b.describe(a, i)
			taken[int32(i)] = true
			continue
		}
		if p, ok := b.team.Lookup(b.metaParent[k]); ok && b.metaParent[k] != "" {
			a.Parent = p // the call is not known, its agent is
		}
		if run, ok := b.flows[k]; ok {
			// Started by its workflow's script: under the Workflow call
			// whose result names the run, never an Agent call's.
			if i, ok := b.workflows[run]; ok {
				i = b.place(i)
				a.Call, a.Parent = int32(i), b.actions[i].Agent
			}
			continue
		}
		if first[k] < 0 {
			continue
		}
		t := b.actions[first[k]].Timestamp
		fit, fits := -1, 0
		for _, i := range launches {
			if b.actions[i].Timestamp > t {
				continue // started after the agent's first action
			}
			if taken[int32(i)] || a.Type != "" && b.calls[i].Input.Get("subagent_type").Text() != a.Type {
				continue
			}
			if fit, fits = i, fits+1; fits > 1 {
				break
			}
		}
		if fits == 1 {
			b.describe(a, fit)
			taken[int32(fit)] = true
		}
	}
}

// warn records a warning about the file being read.
func (b *builder) warn(msg string) {
	b.warns[b.cur] = append(b.warns[b.cur], msg)
}

// agentTotals reads the totals an Agent call's result records
// (totalToolUseCount, toolStats, totalTokens); ok is false when it records
// none (an async launch, an error).
func agentTotals(meta *jsontree.Value) (t model.AgentTotals, ok bool) {
	n, ok := meta.Get("totalToolUseCount").AnyInt()
	if !ok {
		return t, false
	}
	st := meta.Get("toolStats")
	count := func(k string) int { v, _ := st.Get(k).AnyInt(); return max(v, 0) }
	tokens, _ := meta.Get("totalTokens").AnyInt()
	return model.AgentTotals{ToolUses: max(n, 0), Reads: count("readCount"), Searches: count("searchCount"),
		Commands: count("bashCount"), Edits: count("editFileCount"), Tokens: max(tokens, 0)}, true
}

// recordedAgents adds, for each Agent call whose result records its work
// but whose agent the run does not hold (no transcript beside the
// session), that agent with the work recorded: 21 sub-agents' 455 tool
// calls are shown as work not in the file, not as nothing.
func (b *builder) recordedAgents() {
	if len(b.recorded) == 0 {
		return
	}
	acts := make([]int, b.team.Len())
	for i := range b.actions {
		if k := int(b.actions[i].Agent); k < len(acts) {
			acts[k]++
		}
	}
	tied := map[int32]bool{}
	for k := 1; k < b.team.Len(); k++ {
		if a := b.team.At(int32(k)); a.Call >= 0 && acts[k] > 0 {
			tied[a.Call] = true
		}
	}
	// The maps hold calls as read (read), the run's order is where they
	// are placed (b.place).
	read := make(map[int]int, len(b.recorded))
	calls := make([]int, 0, len(b.recorded))
	for i := range b.recorded {
		read[b.place(i)] = i
		calls = append(calls, b.place(i))
	}
	sort.Ints(calls)
	keys := map[int]string{} // each call's agent, by call as read: the id its result names, else its own
	for id, i := range b.byID {
		if _, ok := b.recorded[i]; ok && keys[i] == "" {
			keys[i] = "call:" + id
		}
	}
	for id, i := range b.launched {
		if _, ok := b.recorded[i]; ok {
			keys[i] = id
		}
	}
	for _, i := range calls {
		if tied[int32(i)] || i >= len(b.actions) || keys[read[i]] == "" {
			continue
		}
		key := keys[read[i]]
		k := b.team.Add(key, model.Agent{ID: strings.TrimPrefix(key, "call:"), Call: -1})
		if int(k) < len(acts) && acts[k] > 0 {
			continue // its transcript is read after all
		}
		a := b.team.At(k)
		b.describe(a, i)
		t := b.recorded[read[i]]
		a.Recorded = &t
	}
}
