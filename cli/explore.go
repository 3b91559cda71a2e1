package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
	"github.com/trajscope/trajscope/ui/runlist"
)

// explore shows an analysed run: the explorer on a terminal, otherwise the
// plain (or JSON) summary.
func explore(env *Env, o *viewOptions, st *story.Story, lens model.Lens, local func(string) string) error {
	a := st.A
	if o.redact {
		// The run is scored: what it shows is redacted, nothing it was
		// scored from; the story is told again from the redacted run (it
		// holds the agents' descriptions).
		r := &redact.Redactor{}
		r.Run(a.Run)
		a.Files.SetShown(r.Shown) // the repository's files the screens show
		st = story.Tell(a)
		defer fmt.Fprintf(env.Stderr, "trajscope: %s\n", r.Summary())
	}
	if o.export != nil {
		if len(a.Run.Actions) == 0 {
			return fmt.Errorf("%s: instance %q: %s", safe(a.Run.Path), safe(a.Run.InstanceID), noActions(a.Run))
		}
		return o.export(st, lens)
	}
	if len(a.Run.Actions) == 0 && !o.json {
		// Nothing to step through: the summary says what there is, and
		// why the run is empty.
		fmt.Fprintf(env.Stderr, "trajscope: %s: %s\n", safe(a.Run.Path), noActions(a.Run))
		return report.WriteRunSummary(env.Stdout, st, lens)
	}
	if o.json {
		return report.WriteRunJSON(env.Stdout, st)
	}
	if !isTerminal(env.Stdout) {
		return report.WriteRunSummary(env.Stdout, st, lens)
	}
	m, err := ui.New(st, ui.Options{
		Theme: o.theme, NoColor: noColor(o), Dark: true, Lens: lens, Step: o.step,
		LocalPath: local, Editor: editor(), Autoplay: o.autoplay, Speed: o.speed, Live: o.follow,
	})
	if err != nil {
		return usageError{err}
	}
	return program(env, o, m)
}

// explorer reports whether a run opened with o is shown in the explorer
// (not exported, not printed).
func (o *viewOptions) explorer(env *Env) bool {
	return o.export == nil && !o.json && isTerminal(env.Stdout)
}

// browse shows the run list on the terminal.
func browse(env *Env, o *viewOptions, set *runset.Set, lens model.Lens, title string) error {
	var runs runlist.Runs = set
	open := ui.Opener(set.Open)
	if o.redact {
		r := &redact.Redactor{}
		defer func() { fmt.Fprintf(env.Stderr, "trajscope: %s\n", r.Summary()) }()
		runs, open = redactedList(set, r)
	}
	b, err := ui.Browse(runs, open, title, ui.Options{
		Theme: o.theme, NoColor: noColor(o), Dark: true, Lens: lens, Editor: editor(),
	})
	if err != nil {
		return usageError{err}
	}
	return program(env, o, b)
}

// redactedList is the run list and its opener with --redact: the rows as
// the list shows them, and each run opened, redacted as explore redacts
// one run.
func redactedList(set *runset.Set, r *redact.Redactor) (runlist.Runs, ui.Opener) {
	return redactedRuns{set, r}, func(pos int) (*story.Story, func(string) string, error) {
		st, local, err := set.Open(pos)
		if st != nil {
			r.Run(st.A.Run)
			st.A.Files.SetShown(r.Shown)
			st = story.Tell(st.A)
		}
		return st, local, err
	}
}

// redactedRuns is a run list whose rows and notes are redacted (--redact).
type redactedRuns struct {
	*runset.Set
	r *redact.Redactor
}

func (x redactedRuns) Rows() []story.Row {
	rows := x.Set.Rows()
	for i := range rows {
		// What the list shows of a run: its id, file, agent, model,
		// outcome and notes.
		row, t := &rows[i], x.r.Text
		row.ID, row.Path, row.Agent, row.Model = t(row.ID), t(row.Path), t(row.Agent), t(row.Model)
		row.ExitStatus, row.Note, row.NoRepo = t(row.ExitStatus), t(row.Note), t(row.NoRepo)
	}
	return rows
}

func (x redactedRuns) Warnings() []string {
	ws := x.Set.Warnings()
	for i := range ws {
		ws[i] = x.r.Text(ws[i])
	}
	return ws
}

func noColor(o *viewOptions) bool { return o.noColor || envSet("NO_COLOR") }

func editor() string {
	if e := os.Getenv("VISUAL"); e != "" {
		return e
	}
	return os.Getenv("EDITOR")
}

// program runs a model on the terminal. The colour profile is found
// without starting a process (tmux is asked in the background), so nothing
// stands between start-up and the first frame.
func program(env *Env, o *viewOptions, m tea.Model) error {
	opts := []tea.ProgramOption{tea.WithOutput(env.Stdout)}
	if env.Stdin != nil {
		opts = append(opts, tea.WithInput(env.Stdin))
	}
	environ := os.Environ()
	profile := ui.Profile(environ)
	var later tea.Cmd
	if noColor(o) {
		// colorprofile only honours NO_COLOR values ParseBool accepts; any
		// non-empty value must drop colour (no-color.org).
		profile = colorprofile.ASCII
	} else {
		later = ui.TmuxProfile(environ, profile)
	}
	// Bubble Tea writes frames on a ticker: at its 60 a second the first
	// frame waits up to 17 ms after it is drawn, at 120 up to 8 ms (the
	// idle cost: BENCHMARKS.md, "Start-up").
	opts = append(opts, tea.WithColorProfile(profile), tea.WithFPS(120))
	p := ui.Program(m, opts...)
	if later != nil {
		go p.Send(later())
	}
	stop := quitOnHangup(p)
	defer stop()
	if o.live != nil {
		defer o.live(p.Send)()
	}
	_, err := p.Run()
	return err
}

// quitOnHangup ends the program as q does when its terminal goes away
// (SIGHUP: a closed window, a killed tmux pane), so the caller's deferred
// work still runs: what the run taught the parse cache is written. Bubble
// Tea handles only SIGINT and SIGTERM, and Go's default for SIGHUP exits
// at once.
func quitOnHangup(p *tea.Program) (stop func()) {
	hup := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(hup, syscall.SIGHUP)
	go func() {
		select {
		case <-hup:
			p.Quit()
		case <-done:
		}
	}()
	return func() {
		signal.Stop(hup)
		close(done)
	}
}

// envSet reports whether an environment variable is set and non-empty.
func envSet(name string) bool {
	v, ok := os.LookupEnv(name)
	return ok && v != ""
}

func runViewDemo(env *Env, o *viewOptions) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.gold != "" || o.repo != "" || o.cache != "" || o.instance != "" || o.inputFormat != "" {
		return usagef("--gold, --repo, --cache, --instance and --input-format need a RUN")
	}
	t, err := demo.Load(env.Demo)
	if err != nil {
		return err
	}
	if o.explorer(env) {
		ui.Prewarm(t.Run)
	}
	o.openFacts(env)
	a := t.Analyze(sem, o.facts.scoring())
	defer func() {
		a.Files.Flush() // what it parsed, for the next start
		o.facts.close()
	}()
	if o.step > len(a.Run.Actions) {
		return usagef("--step %d: the demo has %d actions", o.step, len(a.Run.Actions))
	}
	return explore(env, o, story.Tell(a), lens, nil)
}

// noActions words an empty run: how it ended, when the format says.
func noActions(run *model.Run) string {
	if run.ExitStatus != "" {
		return fmt.Sprintf("the run has no actions (it ended with %q): nothing to step through", safe(run.ExitStatus))
	}
	return "the run has no actions: nothing to step through"
}
