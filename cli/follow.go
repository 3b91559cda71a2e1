package cli

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/live"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/runset"
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
	if o.instance == "" && parsers.SessionStore(paths[0], o.inputFormat) {
		return usagef("--follow %s: it holds all of an agent's sessions; name one with --instance ID (view %s lists them)", safe(paths[0]), safe(paths[0]))
	}
	if !o.explorer(env) {
		return usagef("--follow needs a terminal (without one, view prints the run as it is now)")
	}
	return nil
}

// liveFeed starts sending the explorer new readings of its run and returns
// the function that stops it.
type liveFeed func(send func(tea.Msg)) (stop func())

// followed feeds the explorer each new reading of run pos (runset.Watch),
// holding memory to the promise for the session's size as it grows.
func followed(set *runset.Set, pos int) liveFeed {
	return func(send func(tea.Msg)) func() {
		return set.Watch(pos, followIdle, func(u runset.Update) {
			limitMemoryTo(u.Size)
			send(ui.LiveMsg{St: u.St, Note: safe(u.Note), Ended: u.Ended})
		})
	}
}

// awaitActions shows a waiting screen until the followed file holds a run
// with an action: a session followed from the agent's first second is
// empty (no format yet) or holds the prompt alone. ok is false when the
// user quit first. A file that is not there is left to the reading that
// follows, which says so.
func (o *viewOptions) awaitActions(env *Env, path string) (ok bool, err error) {
	ready := func() bool {
		// Read from the start until an action comes: a long session is
		// not read whole just to learn it has begun.
		t, err := parsers.NewTail(path, o.inputFormat)
		if err != nil {
			return false
		}
		t.Bound(1 << 20)
		for {
			runs, _ := t.Read() // a file of many runs gives the good ones with an error naming the bad
			for i := range runs {
				// The run followed: the one --instance names in a file of
				// many (a session of Goose's database), else the first.
				if (o.instance == "" && i == 0 || runs[i].InstanceID == o.instance) && len(runs[i].Actions) > 0 {
					return true
				}
			}
			if !t.Behind() {
				return false
			}
		}
	}
	if _, err := os.Stat(path); err != nil || ready() {
		return true, nil
	}
	f, err := live.Follow(path, live.Options{Idle: 24 * time.Hour})
	if err != nil {
		return false, err
	}
	defer f.Close()
	if ready() { // written while the watch began
		return true, nil
	}
	w, err := ui.NewWaiting(path, ui.Options{Theme: o.theme, NoColor: noColor(o.noColor), Dark: true})
	if err != nil {
		return false, usageError{err}
	}
	feed := func(send func(tea.Msg)) func() {
		done := make(chan struct{})
		go func() {
			for {
				select {
				case <-done:
					return
				case _, open := <-f.C:
					if !open {
						return
					}
					if ready() {
						send(ui.WaitDoneMsg{})
						return
					}
				}
			}
		}()
		return func() { close(done) }
	}
	if err := program(env, o.noColor, w, feed); err != nil {
		return false, err
	}
	return w.Ready(), nil
}
