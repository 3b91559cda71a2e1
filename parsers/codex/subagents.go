// Sub-agents: the rollouts of the threads a session spawned.

package codex

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// maxNesting bounds how deep sub-agents' rollouts are followed, and
// maxRollouts how many rollouts beside the session are looked at.
const (
	maxNesting  = 5
	maxRollouts = 4096
)

// subagents reads the rollouts of the threads this session spawned, and
// theirs, each once, as the agent of its thread (see eachThread); it
// returns their paths in the order they were taken.
func (b *builder) subagents(path string) (order []string) {
	// Each rollout once, never through a link, one budget for them all.
	refs := inputfile.NewRefs(model.MaxFileBytes)
	b.eachThread(path, headThread, func(t thread, parent int32) (int32, bool) {
		order = append(order, t.path)
		data, err := refs.Read(t.path)
		if err != nil {
			b.threadWarn(t.path, fmt.Sprintf("%s: not read: %v", filepath.Base(t.path), err))
			return 0, false
		}
		ag := b.team.Add(t.id, model.Agent{Type: t.role, Parent: parent, Call: -1})
		b.read(b.open(t.path, ag), data)
		return ag, true
	})
	return order
}

// thread is a sub-agent's rollout: its thread's id, its file, its role,
// and the thread that spawned it.
type thread struct{ id, path, role, parent string }

// eachThread hands use the rollouts of the threads this session spawned,
// and theirs, breadth first: rollouts in the session's folder and, for the
// dated layout (sessions/YYYY/MM/DD), the days before and after, whose
// session_meta names a parent thread (source.subagent.thread_spawn); head
// reads that (nil: not a sub-agent's). use reads a thread's rollout as the
// agent of its thread and says which, or false when it could not: its
// threads are not looked for then.
func (b *builder) eachThread(path string, head func(f string) *thread, use func(t thread, parent int32) (int32, bool)) {
	if b.root == "" {
		return
	}
	dir := filepath.Dir(path)
	dirs := []string{dir}
	if m := dayDirRe().FindStringSubmatch(filepath.ToSlash(dir)); m != nil {
		if day, err := time.Parse("2006/01/02", m[1]+"/"+m[2]+"/"+m[3]); err == nil {
			base := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
			for _, d := range []int{-1, 1} {
				dirs = append(dirs, filepath.Join(base, filepath.FromSlash(day.AddDate(0, 0, d).Format("2006/01/02"))))
			}
		}
	}
	children := map[string][]thread{}
	seen := 0
	self := filepath.Clean(path)
	for _, d := range dirs {
		files := inputfile.Glob(filepath.Join(d, "rollout-*.jsonl"))
		sort.Strings(files)
		for _, f := range files {
			if seen++; seen > maxRollouts || filepath.Clean(f) == self {
				continue
			}
			if t := head(f); t != nil {
				children[t.parent] = append(children[t.parent], *t)
			}
		}
	}
	threads := map[string]int32{b.root: 0}
	queue := []string{b.root}
	for depth := 0; len(queue) > 0 && depth < maxNesting; depth++ {
		var next []string
		for _, parent := range queue {
			for _, c := range children[parent] {
				if _, done := threads[c.id]; done || c.id == "" {
					continue
				}
				if ag, ok := use(c, threads[parent]); ok {
					threads[c.id] = ag
					next = append(next, c.id)
				}
			}
		}
		queue = next
	}
}

// headThread reads the first line of the rollout f: a sub-agent's thread,
// or nil.
func headThread(f string) *thread {
	head, err := inputfile.HeadRegular(f, headBytes)
	if err != nil {
		return nil
	}
	return threadOf(f, head)
}

// headBytes is how much of a rollout is read for its session_meta line.
const headBytes = 64 << 10

// threadOf is the sub-agent's thread the first line of rollout f names,
// or nil.
func threadOf(f string, head []byte) *thread {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	v, err := toolcall.Decode(line)
	if err != nil || v.Get("type").Text() != "session_meta" {
		return nil
	}
	p := v.Get("payload")
	spawn := p.Path("source", "subagent", "thread_spawn")
	parent := spawn.Get("parent_thread_id").Text()
	if parent == "" {
		return nil
	}
	role := spawn.Get("agent_role").Text()
	if role == "" {
		role = spawn.Get("agent_nickname").Text()
	}
	return &thread{id: p.Get("id").Text(), path: f, role: role, parent: parent}
}

// threadWarn says why a sub-agent's rollout was not read; "" clears it.
func (b *builder) threadWarn(path, w string) {
	if b.unread == nil {
		b.unread = map[string]string{}
	}
	if w == "" {
		delete(b.unread, path)
	} else {
		b.unread[path] = w
	}
}
