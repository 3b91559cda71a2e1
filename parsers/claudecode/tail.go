// Following a session an agent is still writing: only what was appended
// is decoded, and the run is put in the order a whole reading would give.

package claudecode

import (
	"bytes"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/growing"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Tail reads a session file as it grows, with the sub-agent transcripts
// beside it: each Read decodes only the whole lines appended to them since
// the last and gives the run that ParseRuns would give of the files as
// they are then. A file truncated or rewritten is read again from the
// start, and so is the session when a record met in a sub-agent's
// transcript turns up in one read before it (metAgain). A session written
// as one JSON array is read whole each time.
type Tail struct {
	path  string
	b     *builder
	files map[string]*tailFile // by builder.files key: "" the session
	// warned holds the warnings about the sub-agent files given so far:
	// each is given once, not at every reading.
	warned map[string]bool
	whole  bool // a JSON array, not lines
	// most, when above 0, bounds the bytes one Read decodes, over all the
	// files (Bound); behind says the last Read left lines for the next.
	most   int64
	behind bool
	// memo keeps what the last reading's actions showed (its lens).
	memo *observed.Memo
}

// Bound makes each Read decode about most bytes at most (0: all there
// is), the files taken in a whole reading's order: a long session's start
// is read, shown, and the rest read after.
func (t *Tail) Bound(most int64) { t.most = most }

// Behind reports whether the last Read left whole lines for the next.
func (t *Tail) Behind() bool { return t.behind }

// tailFile is how far one file was read, and a sub-agent transcript's
// agent, made when it was first found.
type tailFile struct {
	growing.File
	agent   int32
	started bool
}

// NewTail follows the session file at path; nothing is read until Read.
func NewTail(path string) *Tail { return &Tail{path: path} }

func (t *Tail) reset() {
	t.b, t.files, t.warned, t.memo = newBuilder(), map[string]*tailFile{}, map[string]bool{}, observed.NewMemo(nil)
}

// Read reads what was appended since the last Read and returns the run.
func (t *Tail) Read() ([]model.Run, error) {
	if t.b == nil {
		t.reset()
	}
	if t.whole {
		data, err := inputfile.ReadRegular(t.path) // a FIFO put in its place is not waited on
		if err != nil {
			return nil, err
		}
		return ParseRuns(t.path, data)
	}
	runs, again, err := t.read()
	if again {
		t.reset()
		runs, again, err = t.read()
	}
	if again && err == nil {
		return nil, fmt.Errorf("%s: its files changed while they were read", t.path)
	}
	return runs, err
}

// read reads the growth of each file; again is true when a file was
// truncated or rewritten, and the builder must start over.
func (t *Tail) read() (runs []model.Run, again bool, err error) {
	b := t.b
	t.behind = false
	left := t.most // of the bytes one read may decode, when bounded
	data, again, err := t.grow("", t.path, left)
	if again || err != nil {
		return nil, again, err
	}
	before := t.files[""].Lines - bytes.Count(data, []byte("\n")) // lines read before data
	if head := bytes.TrimLeft(data, " \t\r\n\ufeff"); before == 0 && len(head) > 0 && head[0] == '[' {
		t.whole = true
		return nil, true, nil
	}
	b.enter("")
	if err := b.file(t.path, data, 0, before); err != nil {
		return nil, false, err
	}
	if b.recognised == 0 {
		if b.firstBad != nil {
			return nil, false, b.firstBad
		}
		return nil, false, fmt.Errorf("%s: no Claude Code records yet", t.path)
	}
	found, warnings := b.listSubagents(t.path)
	listed := make(map[string]bool, len(found))
	for _, f := range found {
		listed[filepath.Base(f.path)] = true
	}
	for key := range t.files {
		// A transcript read before and not found now (removed, or past a
		// bound): a whole reading would not have it.
		if key != "" && !listed[key] {
			return nil, true, nil
		}
	}
	for _, w := range warnings {
		if !t.warned[w] {
			t.warned[w] = true
			b.run.Warn(w)
		}
	}
	for _, f := range found {
		key := filepath.Base(f.path)
		if t.most > 0 {
			// The files are read in a whole reading's order, each to its
			// end before the next is begun: a bounded read is a start of
			// that order, and nothing is met out of it.
			if left -= int64(len(data)); t.behind || left <= 0 {
				t.behind = true
				break
			}
		}
		data, again, err = t.grow(key, f.path, left)
		switch {
		case again:
			return nil, true, nil
		case err != nil:
			if w := fmt.Sprintf("%s: not read: %v", key, err); !t.warned[w] {
				t.warned[w] = true
				b.enter(key)
				b.warn(w)
			}
			continue
		}
		tf := t.files[key]
		if !tf.started {
			tf.agent, tf.started = b.startSubagent(f), true
		}
		b.subagentFile(f, tf.agent, data, tf.Lines-bytes.Count(data, []byte("\n")))
	}
	if b.reorder {
		return nil, true, nil
	}
	run := b.snapshot().finish()
	finish(&run, t.path, t.memo)
	return []model.Run{run}, false, nil
}

// grow reads the whole lines the file named key gained, about most bytes
// of them when most > 0.
func (t *Tail) grow(key, path string, most int64) (data []byte, again bool, err error) {
	tf := t.files[key]
	if tf == nil {
		tf = &tailFile{}
		t.files[key] = tf
	}
	tf.Most = most
	data, again, err = tf.Grow(path)
	t.behind = t.behind || tf.Behind
	return data, again, err
}

// snapshot is a copy of what the builder has read, for finish, in the
// order a whole reading of the files as they are now meets things: the
// session's lines, then each sub-agent transcript's, by name. A followed
// session's files are read as they grow, in turn; the actions, the agents
// and where a message's usage goes are put back in that order (for a whole
// reading, the order they are in). The actions are applied (applyCalls);
// what finish changes is copied. A whole reading goes through here too.
func (b *builder) snapshot() *builder {
	byName := make([]int, len(b.files))
	for i := range byName {
		byName[i] = i
	}
	slices.SortStableFunc(byName, func(x, y int) int { return strings.Compare(b.files[x], b.files[y]) })
	rank := make([]int, len(b.files))
	for r, f := range byName {
		rank[f] = r
	}
	at, start := toolcall.WholeOrder(b.origin, rank, b.fileActs)
	agents := make([]int32, b.team.Len())
	for k := range agents {
		agents[k] = int32(k)
	}
	slices.SortStableFunc(agents[1:], func(x, y int32) int {
		sx, sy := b.sight[x], b.sight[y]
		if c := rank[sx.File] - rank[sy.File]; c != 0 {
			return c
		}
		return int(sx.N - sy.N)
	})
	agentAt := make([]int32, len(agents))
	for k, i := range agents {
		agentAt[i] = int32(k)
	}

	applied := b.applyCalls()
	w := *b
	w.actions = slices.Clone(applied) // finish changes them
	n := len(b.actions)
	inPlace := true // every action where it was read (one file, or files read in turn)
	for i := range at {
		inPlace = inPlace && int(at[i]) == i
	}
	if inPlace {
		// Read, not changed, by finish; the builder only appends to them.
		w.calls, w.thoughts, w.sharedThoughts = b.calls[:n:n], b.thoughts[:n:n], true
	} else {
		w.calls, w.thoughts = slices.Clone(b.calls), slices.Clone(b.thoughts)
	}
	for i := range b.actions {
		k := at[i]
		if !inPlace {
			w.actions[k], w.calls[k], w.thoughts[k] = applied[i], b.calls[i], b.thoughts[i]
		}
		w.actions[k].Agent = agentAt[b.actions[i].Agent]
	}
	w.team = b.team.Reordered(agents)
	for k := 0; k < w.team.Len(); k++ {
		if a := w.team.At(int32(k)); a.Call >= 0 && int(a.Call) < len(at) {
			a.Call = at[a.Call]
		}
	}
	// The maps by call id, agent id and message stay as read, in the
	// order read: finish reads them through place and start, and copying
	// them cost a followed reading what the whole session holds.
	w.at, w.start = at, start
	w.metaCall, w.metaParent, w.flows = reindex(b.metaCall, agentAt), reindex(b.metaParent, agentAt), reindex(b.flows, agentAt)
	w.run.Unread = maps.Clone(b.run.Unread)
	// The warnings in a whole reading's order: the session's lines, what
	// the sub-agents' folder held, then each transcript's.
	w.run.Warnings, w.run.MoreWarnings = nil, 0
	for _, f := range byName[:1] {
		for _, m := range b.warns[f] {
			w.run.Warn(m)
		}
	}
	for _, m := range b.run.Warnings {
		w.run.Warn(m)
	}
	w.run.MoreWarnings += b.run.MoreWarnings
	for _, f := range byName[1:] {
		for _, m := range b.warns[f] {
			w.run.Warn(m)
		}
	}
	return &w
}

// reindex is a map by agent with the agents renumbered (at[old] = new).
func reindex(m map[int32]string, at []int32) map[int32]string {
	if m == nil {
		return nil
	}
	out := make(map[int32]string, len(m))
	for k, v := range m {
		if int(k) < len(at) {
			out[at[k]] = v
		}
	}
	return out
}
