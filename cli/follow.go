package cli

import (
	"os"
	"time"

	tea "charm.land/bubbletea/v2"

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
