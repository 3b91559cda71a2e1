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
// theirs: rollouts in the session's folder and, for the dated layout
// (sessions/YYYY/MM/DD), the days before and after, whose session_meta
// names a parent thread (source.subagent.thread_spawn). Each is read once,
// as the agent of its thread.
func (b *builder) subagents(path string) {
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
	type child struct{ id, path, role string }
	children := map[string][]child{}
	seen := 0
	self := filepath.Clean(path)
	for _, d := range dirs {
		files := inputfile.Glob(filepath.Join(d, "rollout-*.jsonl"))
		sort.Strings(files)
		for _, f := range files {
			if seen++; seen > maxRollouts || filepath.Clean(f) == self {
				continue
			}
			head, err := inputfile.HeadRegular(f, 64<<10)
			if err != nil {
				continue
			}
			line, _, _ := bytes.Cut(head, []byte("\n"))
			v, err := toolcall.Decode(line)
			if err != nil || v.Get("type").Text() != "session_meta" {
				continue
			}
			p := v.Get("payload")
			spawn := p.Path("source", "subagent", "thread_spawn")
			parent := spawn.Get("parent_thread_id").Text()
			if parent == "" {
				continue
			}
			role := spawn.Get("agent_role").Text()
			if role == "" {
				role = spawn.Get("agent_nickname").Text()
			}
			children[parent] = append(children[parent], child{p.Get("id").Text(), f, role})
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
				data, err := inputfile.ReadRegular(c.path)
				if err != nil {
					b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(c.path), err))
					continue
				}
				ag := b.team.Add(c.id, model.Agent{Type: c.role, Parent: threads[parent], Call: -1})
				threads[c.id] = ag
				if err := b.file(c.path, data, ag); err != nil {
					b.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(c.path), err))
				}
				next = append(next, c.id)
			}
		}
		queue = next
	}
	b.agent = 0
}
