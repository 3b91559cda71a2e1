// Following a run file while an agent writes it: each change read (its
// appended lines where the format allows) and analysed again.

package runset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajscope/trajscope/live"
	"github.com/trajscope/trajscope/story"
)

// Update is one new reading of a followed run.
type Update struct {
	// St is the run's story as its files now are; nil when they could not
	// be read (Note says why).
	St *story.Story
	// Note says what happened to the file ("the file was truncated: read
	// again from the start"), "" when it only grew.
	Note string
	// Ended: the agent recorded its end, or nothing was written for a
	// while.
	Ended bool
	// Size is the bytes of the session's files as read: what the memory
	// promise is of, which grows as they do.
	Size int64
}

// Watch follows run pos's file: update gets a new reading whenever it grows
// by whole lines, is truncated or replaced, or a sub-agent's transcript
// beside it appears or grows, and one when it has been quiet for idle
// (read whole then, a last line without its newline included, so the
// figures are view's of the finished file). stop ends the following and
// waits for the last update.
func (s *Set) Watch(pos int, idle time.Duration, update func(Update)) (stop func()) {
	s.mu.Lock()
	path, format := "", ""
	if i := pos - 1; i >= 0 && i < len(s.rows) {
		path, format = s.rows[i].Path, s.rows[i].Format
	}
	s.mu.Unlock()
	opts := live.Options{Idle: idle}
	switch format {
	case "codex":
		// Codex writes a sub-agent's thread as another rollout of the
		// day's folder.
		opts.Siblings = func(name string) bool {
			return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
		}
	case "goose-db", "opencode-db":
		// A database takes its writes in its write-ahead log (or a
		// rollback journal) beside it first.
		base := filepath.Base(path)
		opts.Siblings = func(name string) bool { return name == base+"-wal" || name == base+"-journal" }
	}
	f, err := live.Follow(path, opts)
	if err != nil {
		go update(Update{Note: "not following: " + s.Text(err.Error()), Ended: true})
		return func() {}
	}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		stale := false
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) >= idle {
			// A session last written long ago is not live from the start
			// (said before any reading, in the one goroutine that sends).
			stale = true
			update(Update{Note: "nothing written for " + age(time.Since(fi.ModTime())) + ": the session looks ended", Ended: true})
		}
		// The rest of a long file OpenFollowing began: read at once, not
		// when the agent next writes.
		catchUp := func() {
			for s.Behind() {
				select {
				case <-stopped:
					return
				default:
				}
				u := s.reading(pos, path, idle, live.Event{Kind: live.Grew})
				u.Ended = u.Ended || stale
				update(u)
			}
		}
		catchUp()
		for ev := range f.C {
			u := s.reading(pos, path, idle, latest(ev, f.C))
			stale = stale && ev.Kind != live.Grew
			update(u)
			catchUp()
		}
	}()
	return func() {
		close(stopped)
		f.Close()
		<-done
	}
}

// reading is one change of the followed file, read.
func (s *Set) reading(pos int, path string, idle time.Duration, ev live.Event) Update {
	u := Update{Size: sessionSize(path)}
	read := s.Follow // what was appended
	switch ev.Kind {
	case live.Idle:
		read = s.Reread
		u.Note = fmt.Sprintf("nothing written for %s: the session looks ended", idle)
	case live.Truncated:
		u.Note = "the file was truncated: read again from the start"
	case live.Replaced:
		u.Note = "the file was replaced: the new one is read"
	case live.Deleted:
		u.Note = "the file was deleted: the run as last read stays on screen (following goes on)"
		return u
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		// Replaced by a FIFO or a device: reading it could wait forever.
		u.Note = "the file is no longer a regular file: not read (following goes on)"
		return u
	}
	st, err := read(pos)
	if st == nil {
		u.Note = "cannot read the file now: " + s.Text(err.Error())
		return u
	}
	u.St = st
	u.Ended = ev.Kind == live.Idle || st.A.Run.ExitStatus != ""
	if s.Behind() && u.Note == "" {
		u.Note = fmt.Sprintf("reading the rest of the session (%s)…", megabytes(u.Size))
	}
	return u
}

// megabytes says a size in MB, to one decimal under 10.
func megabytes(n int64) string {
	if mb := float64(n) / (1 << 20); mb < 10 {
		return fmt.Sprintf("%.1f MB", mb)
	}
	return fmt.Sprintf("%d MB", n>>20)
}

// sessionSize is the bytes of a session file and the sub-agent transcripts
// Claude Code keeps beside it (<session>/subagents/*.jsonl).
func sessionSize(path string) int64 {
	total := regularSize(path)
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(path, filepath.Ext(path)), "subagents", "*.jsonl"))
	for _, sub := range subs {
		total += regularSize(sub)
	}
	return total
}

// regularSize is a regular file's size, 0 for anything else.
func regularSize(p string) int64 {
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return st.Size()
	}
	return 0
}

// latest gathers the events that came while the last reading was made:
// one reading covers them all (a long session takes longer to read than
// an agent takes to write a line). A truncation or replacement among them
// is what the reading says; silence counts only when it came last.
func latest(ev live.Event, more <-chan live.Event) live.Event {
	for {
		select {
		case next, ok := <-more:
			if !ok {
				return ev
			}
			if ev.Kind == live.Grew || ev.Kind == live.Idle || next.Kind == live.Idle {
				ev = next
			}
		default:
			return ev
		}
	}
}

// age says how long ago in the largest whole unit: "3 days", "5 hours",
// "12 minutes".
func age(d time.Duration) string {
	unit := func(n int, w string) string {
		if n != 1 {
			w += "s"
		}
		return fmt.Sprintf("%d %s", n, w)
	}
	switch {
	case d >= 48*time.Hour:
		return unit(int(d/(24*time.Hour)), "day")
	case d >= 2*time.Hour:
		return unit(int(d/time.Hour), "hour")
	}
	return unit(int(d/time.Minute), "minute")
}
