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
	matches := inputfile.Glob(filepath.Join(dir, "agent-*.jsonl"))
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
	if err == nil {
		if v, err := toolcall.Decode(meta); err == nil {
			if t := v.Get("agentType").Text(); t != "" && b.team.At(agent).Type == "" {
				b.team.At(agent).Type = t
			}
			if d := v.Get("description").Text(); d != "" && b.team.At(agent).Description == "" {
				b.team.At(agent).Description = d
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
	var launches []int // the calls that start agents, in order
	for i := range b.actions {
		if toolcall.LaunchesAgent(b.calls[i].Name) {
			launches = append(launches, i)
		}
	}
	for k := int32(1); int(k) < b.team.Len(); k++ {
		a := b.team.At(k)
		if a.Call >= 0 {
			continue
		}
		if i, ok := b.launched[a.ID]; ok {
			b.describe(a, i)
			taken[int32(i)] = true
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
