package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui"
)

// explore shows an analysed run: the explorer on a terminal (fed live
// readings when following), otherwise the plain (or JSON) summary.
func explore(env *Env, o *viewOptions, st *story.Story, lens model.Lens, local func(string) string, live liveFeed) error {
	a := st.A
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
		Theme: o.theme, NoColor: noColor(o.noColor), Dark: true, Lens: lens, Step: o.step,
		LocalPath: local, Editor: editor(), Autoplay: o.autoplay, Speed: o.speed, Live: o.follow, Status: o.status,
	})
	if err != nil {
		return usageError{err}
	}
	return program(env, o.noColor, m, live)
}

// browse shows the run list on the terminal.
func browse(env *Env, o *viewOptions, set *runset.Set, lens model.Lens) error {
	b, err := ui.Browse(set, set.Open, set.Title(), ui.Options{
		Theme: o.theme, NoColor: noColor(o.noColor), Dark: true, Lens: lens, Editor: editor(),
	})
	if err != nil {
		return usageError{err}
	}
	return program(env, o.noColor, b, nil)
}

// noColor: --no-color, or NO_COLOR set.
func noColor(flag bool) bool { return flag || envSet("NO_COLOR") }

func editor() string {
	if e := os.Getenv("VISUAL"); e != "" {
		return e
	}
	return os.Getenv("EDITOR")
}

// program runs a model on the terminal. The colour profile is found
// without starting a process (tmux is asked in the background), so nothing
// stands between start-up and the first frame.
func program(env *Env, noColorFlag bool, m tea.Model, live liveFeed) error {
	opts := []tea.ProgramOption{tea.WithOutput(env.Stdout)}
	if env.Stdin != nil {
		opts = append(opts, tea.WithInput(env.Stdin))
	}
	environ := os.Environ()
	profile := ui.Profile(environ)
	var later tea.Cmd
	if noColor(noColorFlag) {
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
	if live != nil {
		defer live(p.Send)()
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

// noActions words an empty run: how it ended, when the format says.
func noActions(run *model.Run) string {
	if run.ExitStatus != "" {
		return fmt.Sprintf("the run has no actions (it ended with %q): nothing to step through", safe(run.ExitStatus))
	}
	return "the run has no actions: nothing to step through"
}
