package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/live"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

// followIdle is how long a followed session may stay silent before the
// header says it has ended.
var followIdle = 2 * time.Minute

// checkFollow refuses what --follow cannot do: it follows one file, on a
// terminal.
func (o *viewOptions) checkFollow(env *Env, paths []string) error {
	if len(paths) != 1 {
		return usagef("--follow follows one session file; %d given", len(paths))
	}
	if st, err := os.Stat(paths[0]); err == nil && !st.Mode().IsRegular() {
		return usagef("--follow follows a session file: %s is not a regular file", safe(paths[0]))
	}
	if o.export != nil || o.json || !isTerminal(env.Stdout) {
		return usagef("--follow needs a terminal (without one, view prints the run as it is now)")
	}
	return nil
}

// followRun feeds the explorer a new reading of run pos whenever its file
// grows by whole lines, is truncated or replaced, or a sub-agent
// transcript beside it appears or grows; and says when it has gone quiet.
func followRun(o *viewOptions, set *runset.Set, pos int, path, format string) func(send func(tea.Msg)) func() {
	return func(send func(tea.Msg)) func() {
		opts := live.Options{Idle: followIdle}
		if format == "codex" {
			// Codex writes a sub-agent's thread as another rollout of
			// the day's folder.
			opts.Siblings = func(name string) bool {
				return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl")
			}
		}
		f, err := live.Follow(path, opts)
		if err != nil {
			go send(ui.LiveMsg{Note: "not following: " + safe(err.Error()), Ended: true})
			return func() {}
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range f.C {
				send(reading(o, set, pos, path, latest(ev, f.C)))
			}
		}()
		return func() {
			f.Close()
			<-done
		}
	}
}

// reading is what the explorer is told of one change of the followed file.
func reading(o *viewOptions, set *runset.Set, pos int, path string, ev live.Event) ui.LiveMsg {
	msg := ui.LiveMsg{}
	read := set.Follow // what was appended
	switch ev.Kind {
	case live.Idle:
		// Gone quiet: read whole once, a last line without its newline
		// included, so the numbers are view's of the finished file.
		read = set.Reread
		msg.Note = fmt.Sprintf("nothing written for %s: the session looks ended", followIdle)
	case live.Truncated:
		msg.Note = "the file was truncated: read again from the start"
	case live.Replaced:
		msg.Note = "the file was replaced: the new one is read"
	}
	// The session's sub-agent transcripts are read with it: the promise is
	// of them all, and grows as they do.
	total := regularSize(path)
	subs, _ := filepath.Glob(filepath.Join(strings.TrimSuffix(path, filepath.Ext(path)), "subagents", "*.jsonl"))
	for _, s := range subs {
		total += regularSize(s)
	}
	limitMemoryTo(total)
	st, err := read(pos)
	if st == nil {
		msg.Note = "cannot read the file now: " + safe(err.Error())
		return msg
	}
	if o.redact {
		r := &redact.Redactor{}
		r.Run(st.A.Run)
		st.A.Files.SetShown(r.Shown)
		st = story.Tell(st.A)
	}
	msg.St = st
	msg.Ended = ev.Kind == live.Idle || st.A.Run.ExitStatus != ""
	return msg
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
