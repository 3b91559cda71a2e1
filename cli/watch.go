package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"text/tabwriter"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/sessions"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

func newWatchCmd(env *Env) *cobra.Command {
	var o viewOptions
	var list bool
	cmd := &cobra.Command{
		Use:   "watch [DIR] [--list]",
		Short: "Follow the newest agent session of a directory",
		Long: `watch finds the newest session an agent keeps of DIR (default: the current
directory): Claude Code's (~/.claude/projects/<DIR, escaped>/*.jsonl, or
$CLAUDE_CONFIG_DIR), Codex's (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl
whose recorded working directory is DIR, or $CODEX_HOME), Gemini CLI's
(~/.gemini/tmp/<project>/chats), Qwen Code's (~/.qwen/projects/*/chats
whose records name DIR), Goose's (the sessions of
~/.local/share/goose/sessions/sessions.db, or $XDG_DATA_HOME/goose, whose
working directory is DIR) and OpenCode's (those of
~/.local/share/opencode/opencode.db its user started in DIR). It opens it as view --follow does, the
repository being DIR's git repository read at the commit it had checked out
when the session started (the session's own record, else the HEAD reflog),
so line numbers mean what they meant to the agent. Without --gold, the code
the session changed is the target. When a newer session of DIR starts,
watch follows it and says so (backspace goes back to the one before);
started before any session, it waits for the first.

On a stdout that is not a terminal it prints the session's summary as it is
now. --list shows the sessions found, newest first.`,
		Example: `  trajscope watch                 # beside an agent working in this directory
  trajscope watch ~/src/app --list`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			return runWatch(env, &o, dir, list)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&list, "list", false, "list the sessions found, newest first, instead of opening one")
	f.StringVar(&o.gold, "gold", "", "gold context, or a reference patch (PATCH.diff) as the target")
	f.StringVar(&o.theme, "theme", "auto", "auto, dark, light or contrast")
	f.BoolVar(&o.noColor, "no-color", false, "no colour (also when NO_COLOR is set)")
	f.BoolVar(&o.redact, "redact", false, "replace API keys and tokens, e-mail addresses and home-directory user names in what is shown")
	// The default every command has, view --follow's included: one file
	// shows one headline number whichever command follows it.
	f.StringVar(&o.lens, "lens", "contextbench", "contextbench (the evaluator's steps) or observed (what each action displayed)")
	return cmd
}

// watchPoll is how often watch looks for a newer session of its
// directory (only files written since it last looked are read).
var watchPoll = 2 * time.Second

func runWatch(env *Env, o *viewOptions, dir string, list bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return usagef("watch %s: not a directory", safe(dir))
	}
	home, _ := os.UserHomeDir()
	homes := sessions.DefaultHomes(os.Getenv, home)
	found := sessions.Find(abs, homes)
	if list {
		return listSessions(env, abs, found)
	}
	if len(found) == 0 {
		if !isTerminal(env.Stdout) {
			return fmt.Errorf("watch %s: no Claude Code, Codex, Gemini CLI, Qwen Code, Goose or OpenCode session of this directory found (trajscope watch --list says where it looked)", safe(abs))
		}
		// Started before the agent: wait on screen for its session.
		s, ok, err := awaitSession(env, o, abs, homes)
		if err != nil || !ok {
			return err
		}
		found = []sessions.Session{s}
	}
	s := found[0]
	o.semantics, o.parseTimeout = "contextbench", scoring.DefaultParseTimeout
	var how string
	o.baseCommit, how = sessionCommit(abs, s)
	if source.WorkTree(abs) != "" {
		o.repo = source.WorkTree(abs)
	}
	o.found = fmt.Sprintf("%s session %s%s", s.Agent, sessionName(s), startedWords(s, o.baseCommit, how))
	o.instance = s.Instance // a session of a file of many (Goose's database)
	o.follow = isTerminal(env.Stdout)
	if o.follow {
		known := map[string]bool{}
		for _, f := range found {
			known[f.Key()] = true
		}
		o.feed = func(set *runset.Set, pos int) liveFeed {
			return (&sessionWatch{o: o, dir: abs, homes: homes, cur: s, known: known, since: time.Now()}).feed(set, pos)
		}
	}
	return runView(env, o, []string{s.Path})
}

// sessionName is a session as watch names it: its file, and the session
// within a file of many ("sessions.db#20261207_3").
func sessionName(s sessions.Session) string {
	if s.Instance != "" {
		return s.Path + "#" + s.Instance
	}
	return s.Path
}

// sessionCommit is the commit a session of dir is read at, and how it was
// chosen: the one the session records, else the HEAD of dir's repository
// when it started, else its HEAD now ("" commit).
func sessionCommit(dir string, s sessions.Session) (commit, how string) {
	wt := source.WorkTree(dir)
	if wt == "" {
		return "", ""
	}
	if s.Commit != "" {
		return s.Commit, "the commit the session records"
	}
	if !s.Started.IsZero() {
		if c := source.HeadAt(wt, s.Started); c != "" {
			return c, "the repository's HEAD when the session started"
		}
	}
	return "", "the repository's HEAD now"
}

// sessionWatch follows the newest session of a directory: when a newer
// one starts it follows that instead and says so; the back key returns to
// the one before.
type sessionWatch struct {
	o     *viewOptions
	dir   string
	homes sessions.Homes
	send  func(tea.Msg)

	mu        sync.Mutex
	cur, prev sessions.Session
	stop      func()          // the current session's following
	sets      []*runset.Set   // the switched-to sessions' sets, closed at the end
	known     map[string]bool // sessions seen: only a new one is switched to
	since     time.Time       // files written before it are not looked at
}

// feed follows the session watch opened (run pos of set), and looks for a
// newer one every watchPoll.
func (w *sessionWatch) feed(set *runset.Set, pos int) liveFeed {
	return func(send func(tea.Msg)) func() {
		w.send = send
		w.stop = followed(set, pos)(send)
		stop := every(watchPoll, func() bool { w.look(); return true })
		return func() {
			stop()
			w.mu.Lock()
			defer w.mu.Unlock()
			w.stop()
			for _, s := range w.sets {
				s.Close()
			}
		}
	}
}

// look switches to a session of the directory not seen before.
func (w *sessionWatch) look() {
	now := time.Now()
	for _, s := range sessions.FindSince(w.dir, w.homes, w.since) {
		if !w.known[s.Key()] {
			w.known[s.Key()] = true
			w.switchTo(s, "a newer session started")
			break
		}
	}
	w.since = now.Add(-watchPoll) // a write racing the look is seen next time
}

// back returns to the session before the last switch.
func (w *sessionWatch) back() {
	w.mu.Lock()
	prev := w.prev
	w.mu.Unlock()
	if prev.Path != "" {
		w.switchTo(prev, "back")
	}
}

// switchTo follows s: it is read as watch reads a session (its own commit,
// the same gold, lens and redaction), the explorer is sent its story, and
// its following replaces the current one's.
func (w *sessionWatch) switchTo(s sessions.Session, why string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	set, err := w.o.open([]string{s.Path})
	var st *story.Story
	pos := 1
	if err == nil {
		opts := *w.o.sources
		opts.BaseCommit, _ = sessionCommit(w.dir, s)
		set.Prepare(opts)
		if s.Instance != "" {
			pos, _, err = set.Find(s.Instance)
		}
		if err == nil {
			st, _, err = set.OpenFollowing(pos) // its start first, as view --follow opens one
		}
	}
	name := s.Path
	if set != nil {
		name = set.Text(name)
	}
	if err != nil {
		w.send(ui.LiveMsg{Note: fmt.Sprintf("%s: %s session %s cannot be read (%s); still following this one", why, s.Agent, safe(name), safe(err.Error()))})
		return
	}
	w.stop()
	w.sets = append(w.sets, set)
	w.prev, w.cur = w.cur, s
	w.send(ui.LiveMsg{St: st, Switched: true, Back: w.back,
		Note: fmt.Sprintf("%s: following the %s session %s (⌫ goes back)", why, s.Agent, safe(sessionName(sessions.Session{Path: filepath.Base(name), Instance: s.Instance})))})
	w.stop = followed(set, pos)(w.send)
}

// awaitSession shows a waiting screen until an agent's session of dir
// appears; ok is false when the user quit first.
func awaitSession(env *Env, o *viewOptions, dir string, homes sessions.Homes) (s sessions.Session, ok bool, err error) {
	w, err := ui.NewWaitingFor("an agent's session of "+dir,
		"watch opens the first Claude Code, Codex, Gemini CLI, Qwen Code, Goose or OpenCode session started here", ui.Options{Theme: o.theme, NoColor: noColor(o.noColor), Dark: true})
	if err != nil {
		return s, false, usageError{err}
	}
	var mu sync.Mutex
	feed := func(send func(tea.Msg)) func() {
		return every(watchPoll/2, func() bool {
			found := sessions.Find(dir, homes)
			if len(found) == 0 {
				return true
			}
			mu.Lock()
			s = found[0]
			mu.Unlock()
			send(ui.WaitDoneMsg{})
			return false
		})
	}
	if err := program(env, o.noColor, w, feed); err != nil {
		return s, false, err
	}
	mu.Lock()
	defer mu.Unlock()
	return s, w.Ready(), nil
}

// startedWords says when the session started, the commit it is read at
// and how that was chosen.
func startedWords(s sessions.Session, commit, how string) string {
	out := ""
	if !s.Started.IsZero() {
		out += ", started " + s.Started.Local().Format(time.DateTime)
	}
	switch {
	case commit != "":
		out += ", read at " + commit[:min(len(commit), 12)] + " (" + how + ")"
	case how != "":
		out += ", read at " + how
	}
	return out
}

// listSessions prints the sessions found of dir, newest first, and where
// they were looked for when none was.
func listSessions(env *Env, dir string, found []sessions.Session) error {
	if len(found) == 0 {
		home, _ := os.UserHomeDir()
		h := sessions.DefaultHomes(os.Getenv, home)
		fmt.Fprintf(env.Stdout, "no session of %s in %s/projects, %s/sessions, %s/tmp, %s/projects, %s/sessions/sessions.db or %s/opencode*.db\n", safe(dir), safe(h.Claude), safe(h.Codex), safe(h.Gemini), safe(h.Qwen), safe(h.Goose), safe(h.OpenCode))
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\tstarted\twritten\tsession")
	for _, s := range found {
		started := "-"
		if !s.Started.IsZero() {
			started = s.Started.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Agent, started, s.Modified.Local().Format(time.DateTime), safe(sessionName(s)))
	}
	return tw.Flush()
}

// every calls fn every d, in its own goroutine, until fn returns false or
// the returned stop is called (stop waits for a call in progress).
func every(d time.Duration, fn func() bool) (stop func()) {
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(d)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !fn() {
					return
				}
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-finished
	}
}
