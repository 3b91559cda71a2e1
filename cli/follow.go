package cli

import (
	"fmt"
	"os"
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
func followRun(o *viewOptions, set *runset.Set, pos int, path string) func(send func(tea.Msg)) func() {
	return func(send func(tea.Msg)) func() {
		f, err := live.Follow(path, live.Options{Idle: followIdle})
		if err != nil {
			go send(ui.LiveMsg{Note: "not following: " + safe(err.Error()), Ended: true})
			return func() {}
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			for ev := range f.C {
				send(reading(o, set, pos, ev))
			}
		}()
		return func() {
			f.Close()
			<-done
		}
	}
}

// reading is what the explorer is told of one change of the followed file.
func reading(o *viewOptions, set *runset.Set, pos int, ev live.Event) ui.LiveMsg {
	if ev.Kind == live.Idle {
		return ui.LiveMsg{Ended: true, Note: fmt.Sprintf("nothing written for %s: the session looks ended", followIdle)}
	}
	msg := ui.LiveMsg{}
	switch ev.Kind {
	case live.Truncated:
		msg.Note = "the file was truncated: read again from the start"
	case live.Replaced:
		msg.Note = "the file was replaced: the new one is read"
	}
	st, err := set.Reread(pos)
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
	msg.Ended = st.A.Run.ExitStatus != ""
	return msg
}
