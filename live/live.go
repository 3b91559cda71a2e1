// Package live follows a run file while an agent writes it (view
// --follow): it says when the file grew by whole lines, was truncated or
// replaced, when a sub-agent transcript appeared or grew beside it, and
// when nothing has been written for a while. It waits on the file system's
// notifications (fsnotify), never polls, so following costs nothing while
// the agent is quiet.
package live

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/trajscope/trajscope/inputfile"
)

// Kind is what happened to the followed file.
type Kind uint8

const (
	// Grew: the file (or a sub-agent transcript beside it) has more whole
	// lines than when it was last read.
	Grew Kind = iota
	// Truncated: the file is shorter than it was; it is read again from
	// the start.
	Truncated
	// Replaced: another file now has the name (written elsewhere and
	// moved in place, or deleted and created again).
	Replaced
	// Idle: nothing was written for Options.Idle.
	Idle
	// Deleted: the file is gone (following goes on: one made again under
	// the name is Replaced).
	Deleted
)

// Event is one change of the followed file.
type Event struct{ Kind Kind }

// Options tune a Follower.
type Options struct {
	// Idle is how long nothing must be written for an Idle event (0: 2
	// minutes).
	Idle time.Duration
	// Settle is how long events are gathered before the file is looked
	// at (0: 10 ms): an agent writes a record in a few writes.
	Settle time.Duration
	// Siblings, when set, names the files beside the followed one that
	// may be its sub-agents' (Codex keeps them as other rollouts of the
	// same folder): one written there is a change of the session.
	Siblings func(name string) bool
}

// Follower watches one file.
type Follower struct {
	// C delivers the events, in order; it is closed by Close.
	C <-chan Event

	path string
	w    *fsnotify.Watcher
	opts Options
	out  chan Event
	done chan struct{}
	once sync.Once

	last os.FileInfo // the file when it was last reported
	size int64       // its size then (whole lines only)
	gone bool        // Deleted was reported and no file has the name since
}

// Follow starts following path, as it is now: only what changes later is
// reported. It watches path's directory (to see the file replaced) and the
// folder a Claude Code session keeps its sub-agents in
// (<session>/subagents), once it exists.
func Follow(path string, opts Options) (*Follower, error) {
	if opts.Idle <= 0 {
		opts.Idle = 2 * time.Minute
	}
	if opts.Settle <= 0 {
		opts.Settle = 10 * time.Millisecond
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	// Events name files by the folder watched: an absolute one, so a bare
	// name ("s.jsonl", its folder ".") is matched as any other path.
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	if err := w.Add(filepath.Dir(path)); err != nil {
		w.Close()
		return nil, err
	}
	f := &Follower{path: path, w: w, opts: opts, out: make(chan Event, 16), done: make(chan struct{}), last: st, size: st.Size()}
	f.C = f.out
	f.watchSide()
	go f.loop()
	return f, nil
}

// Close stops following and closes C.
func (f *Follower) Close() {
	f.once.Do(func() {
		close(f.done)
		f.w.Close()
	})
}

// side is the folder beside the session that holds its sub-agents'
// transcripts, and the one that holds that.
func (f *Follower) side() (session, subagents string) {
	session = strings.TrimSuffix(f.path, filepath.Ext(f.path))
	return session, filepath.Join(session, "subagents")
}

// watchSide watches the sub-agents' folder, and the session's folder
// until that holds it, as far as they exist.
func (f *Follower) watchSide() {
	session, sub := f.side()
	if f.w.Add(sub) != nil {
		f.w.Add(session) // its subagents folder may come later
	}
}

func (f *Follower) loop() {
	defer close(f.out)
	idle := time.NewTimer(f.opts.Idle)
	defer idle.Stop()
	var settle <-chan time.Time
	side := false // a sub-agent file changed since the last look
	for {
		select {
		case <-f.done:
			return
		case ev, ok := <-f.w.Events:
			if !ok {
				return
			}
			switch {
			case ev.Name == f.path:
			case f.opts.Siblings != nil && filepath.Dir(ev.Name) == filepath.Dir(f.path) && f.opts.Siblings(filepath.Base(ev.Name)):
				side = true // another agent's transcript of the session, or the file's journal
			case strings.HasPrefix(ev.Name, strings.TrimSuffix(f.path, filepath.Ext(f.path))):
				if ev.Has(fsnotify.Create) {
					// A folder made now may hold a transcript already,
					// written before it was watched: read it anyway.
					f.watchSide()
					side = true
				}
				side = side || strings.HasSuffix(ev.Name, ".jsonl")
			default:
				continue
			}
			if settle == nil {
				settle = time.After(f.opts.Settle)
			}
		case <-f.w.Errors:
		case <-settle:
			settle = nil
			k, ok := f.look()
			if !ok && side {
				k, ok = Grew, true
			}
			side = false
			if !ok {
				continue
			}
			if !idle.Stop() {
				select {
				case <-idle.C:
				default:
				}
			}
			idle.Reset(f.opts.Idle)
			if !f.send(Event{Kind: k}) {
				return
			}
		case <-idle.C:
			if !f.send(Event{Kind: Idle}) {
				return
			}
		}
	}
}

func (f *Follower) send(ev Event) bool {
	select {
	case f.out <- ev:
		return true
	case <-f.done:
		return false
	}
}

// look compares the file with what was last reported: ok is false when
// there is nothing to report (no change, a half-written last line, or the
// file gone for the moment while it is replaced).
func (f *Follower) look() (Kind, bool) {
	st, err := os.Stat(f.path)
	if err != nil {
		// Gone, and not for the moment of a replace (the events of one
		// are gathered before the file is looked at): said once.
		if errors.Is(err, fs.ErrNotExist) && !f.gone {
			f.gone = true
			return Deleted, true
		}
		return 0, false
	}
	if f.gone {
		// Made again after it was gone (its inode may well be the old
		// one's): another file, read from the start.
		f.gone = false
		f.last, f.size = st, st.Size()
		return Replaced, true
	}
	switch {
	case !os.SameFile(st, f.last):
		f.last, f.size = st, st.Size()
		return Replaced, true
	case st.Size() < f.size:
		f.last, f.size = st, st.Size()
		return Truncated, true
	case st.Size() == f.size:
		return 0, false
	}
	size := st.Size()
	if strings.HasSuffix(f.path, ".jsonl") {
		// Whole lines only: a write that ends halfway through a line
		// reports the lines before it now, the rest with its newline.
		end := lineEnd(f.path, f.size, size)
		if end <= f.size {
			return 0, false
		}
		size = end
	}
	f.last, f.size = st, size
	return Grew, true
}

// lineEnd is the end of the last whole line among the file's bytes
// [from, to): just past its last newline there, from when there is none.
func lineEnd(path string, from, to int64) int64 {
	fh, err := inputfile.OpenRegular(path) // a FIFO in its place is not waited on
	if err != nil {
		return from
	}
	defer fh.Close()
	buf := make([]byte, 64<<10)
	for hi := to; hi > from; {
		lo := max(from, hi-int64(len(buf)))
		b := buf[:hi-lo]
		if _, err := fh.ReadAt(b, lo); err != nil {
			return from
		}
		if i := bytes.LastIndexByte(b, '\n'); i >= 0 {
			return lo + int64(i) + 1
		}
		hi = lo
	}
	return from
}
