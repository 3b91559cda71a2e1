// Following a session Codex is still writing: only what was appended to
// its rollout and its sub-agents' is decoded, and the run is put in the
// order a whole reading would give.

package codex

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/growing"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Tail reads a rollout as it grows, with the rollouts of the threads it
// spawned: each Read decodes only the whole lines appended to them since
// the last and gives the run ParseRuns would give of the files as they
// are then. A file truncated, rewritten or gone is read again from the
// start.
type Tail struct {
	path  string
	b     *builder
	grown map[string]*growing.File
	files map[string]*rolloutFile
	// heads holds what the first line of each rollout of the folders
	// said (nil: not a sub-agent's), read once it is whole.
	heads map[string]*thread
	// most bounds the bytes of the lead a Read decodes (Bound); behind
	// says the last left some.
	most   int64
	behind bool
}

// NewTail follows the rollout at path; nothing is read until Read.
func NewTail(path string) *Tail { return &Tail{path: path, heads: map[string]*thread{}} }

// Bound makes each Read decode about most bytes of the lead rollout at
// most (0: all there is); its sub-agents' rollouts are read once it is
// read to its end.
func (t *Tail) Bound(most int64) { t.most = most }

// Behind reports whether the last Read left whole lines for the next.
func (t *Tail) Behind() bool { return t.behind }

func (t *Tail) reset() {
	t.b, t.grown, t.files = newBuilder(), map[string]*growing.File{}, map[string]*rolloutFile{}
}

// Read reads what was appended since the last Read and returns the run.
func (t *Tail) Read() ([]model.Run, error) {
	if t.b == nil {
		t.reset()
	}
	run, again, err := t.read()
	if again {
		t.reset()
		run, again, err = t.read()
	}
	switch {
	case err != nil:
		return nil, err
	case again:
		return nil, fmt.Errorf("%s: its files changed while they were read", t.path)
	}
	return []model.Run{run}, nil
}

// read reads each file's growth; again is true when one was truncated,
// rewritten or is gone, and the reading must start over.
func (t *Tail) read() (run model.Run, again bool, err error) {
	b := t.b
	data, again, err := t.grow(t.path, t.most)
	if again || err != nil {
		return model.Run{}, again, err
	}
	t.behind = t.grown[t.path].Behind
	lead := t.files[t.path]
	if lead == nil {
		lead = b.open(t.path, 0)
		t.files[t.path] = lead
	}
	b.read(lead, data)
	if err := lead.err(); err != nil {
		return model.Run{}, false, err
	}
	var order []string
	if t.behind && len(t.files) == 1 {
		// The sub-agents' threads wait for the lead's end: a start of
		// the lead is what the screen shows first.
		return b.snapshot(order).finish(t.path), false, nil
	}
	b.eachThread(t.path, t.head, func(th thread, parent int32) (int32, bool) {
		order = append(order, th.path)
		f := t.files[th.path]
		data, gone, err := t.grow(th.path, 0)
		switch {
		case gone || (err != nil && f != nil):
			again = true // read before, not now: a whole reading would not
			return 0, false
		case err != nil:
			b.threadWarn(th.path, fmt.Sprintf("%s: not read: %v", filepath.Base(th.path), err))
			return 0, false
		}
		if f == nil {
			f = b.open(th.path, b.team.Add(th.id, model.Agent{Type: th.role, Parent: parent, Call: -1}))
			t.files[th.path] = f
			b.threadWarn(th.path, "") // read now, whatever stopped it before
		}
		b.read(f, data)
		return f.agent, true
	})
	if again || !t.allIn(order) {
		return model.Run{}, true, nil
	}
	return b.snapshot(order).finish(t.path), false, nil
}

// allIn reports whether every sub-agent rollout read so far is in order.
func (t *Tail) allIn(order []string) bool {
	taken := make(map[string]bool, len(order))
	for _, p := range order {
		taken[p] = true
	}
	for p := range t.files {
		if p != t.path && !taken[p] {
			return false
		}
	}
	return true
}

// grow reads the whole lines the file at path gained, about most bytes of
// them when most > 0.
func (t *Tail) grow(path string, most int64) (data []byte, again bool, err error) {
	g := t.grown[path]
	if g == nil {
		g = &growing.File{}
		t.grown[path] = g
	}
	g.Most = most
	return g.Grow(path)
}

// head is headThread, read once a rollout's first line is whole.
func (t *Tail) head(f string) *thread {
	if th, ok := t.heads[f]; ok {
		return th
	}
	head, err := inputfile.HeadRegular(f, headBytes)
	if err != nil {
		return nil
	}
	th := threadOf(f, head)
	if th != nil || len(head) == headBytes || slices.Contains(head, '\n') {
		t.heads[f] = th
	}
	return th
}

// snapshot is a copy of what the builder has read, for finish, in the
// order a whole reading of the files as they are now meets things: the
// session's lines, then each sub-agent rollout's, in order (the order
// eachThread took them). A followed session's rollouts are read as they
// grow, in turn; the actions and agents are put back in that order (for a
// whole reading, the order they are in), and the warnings gathered in it.
// The actions are applied (applyCalls); what finish changes is copied.
func (b *builder) snapshot(order []string) *builder {
	applied := b.applyCalls()
	place := map[string]int{b.files[0].path: 0}
	for i, p := range order {
		place[p] = i + 1
	}
	rank := make([]int, len(b.files))
	counts := make([]int32, len(b.files))
	byRank := slices.Clone(b.files)
	slices.SortStableFunc(byRank, func(x, y *rolloutFile) int { return place[x.path] - place[y.path] })
	for r, f := range byRank {
		rank[f.index], counts[f.index] = r, f.actions
	}
	at, _ := toolcall.WholeOrder(b.origin, rank, counts)
	// The agents in their rollouts' order (the lead's first), then any
	// other (past toolcall.MaxAgents rollouts share the last agent).
	agents := make([]int32, 0, b.team.Len())
	taken := make([]bool, b.team.Len())
	add := func(k int32) {
		if !taken[k] {
			taken[k] = true
			agents = append(agents, k)
		}
	}
	add(0)
	for _, f := range byRank {
		add(f.agent)
	}
	for k := range int32(b.team.Len()) {
		add(k)
	}
	agentAt := make([]int32, len(agents))
	for k, i := range agents {
		agentAt[i] = int32(k)
	}

	w := *b
	w.actions, w.calls, w.parsed = slices.Clone(applied), slices.Clone(b.calls), slices.Clone(b.parsed)
	w.obs, w.thoughts = slices.Clone(b.obs), slices.Clone(b.thoughts)
	for i := range b.actions {
		k := at[i]
		a := applied[i]
		a.Timestamp, a.Usage, a.Agent = b.actions[i].Timestamp, b.actions[i].Usage, agentAt[b.actions[i].Agent]
		w.actions[k], w.calls[k], w.parsed[k] = a, b.calls[i], b.parsed[i]
		w.obs[k], w.thoughts[k] = b.obs[i], b.thoughts[i]
	}
	w.team = b.team.Reordered(agents)
	w.spawned = make(map[string]int, len(b.spawned))
	for id, i := range b.spawned {
		w.spawned[id] = int(at[i])
	}
	w.run.Unread = maps.Clone(b.run.Unread)
	w.run.Warnings = slices.Clone(b.run.Warnings)
	byPath := make(map[string]*rolloutFile, len(b.files))
	for _, f := range b.files {
		byPath[f.path] = f
	}
	for i, p := range append([]string{b.files[0].path}, order...) {
		f := byPath[p]
		if f == nil {
			if why, ok := b.unread[p]; ok {
				w.run.Warn(why)
			}
			continue
		}
		for _, m := range f.warnings {
			w.run.Warn(m)
		}
		if err := f.err(); err != nil && i > 0 {
			w.run.Warn(fmt.Sprintf("%s: not read: %v", filepath.Base(p), err))
		}
	}
	return &w
}
