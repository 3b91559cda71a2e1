package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/colorprofile"
	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/ui"
)

// explore shows an analysed run: the explorer on a terminal, otherwise the
// plain (or JSON) summary.
func explore(env *Env, o *viewOptions, a *scoring.Analysis, lens model.Lens, local func(string) string) error {
	// Every view indexes the last action; an empty run has nothing to show.
	if len(a.Run.Actions) == 0 {
		return fmt.Errorf("%s: instance %q: the run has no actions to show", a.Run.Path, safe(a.Run.InstanceID))
	}
	if o.export != nil {
		return o.export(a, lens)
	}
	if o.json {
		return report.WriteRunJSON(env.Stdout, a)
	}
	if !isTerminal(env.Stdout) {
		return report.WriteRunSummary(env.Stdout, a, lens)
	}
	noColor := o.noColor || envSet("NO_COLOR")
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	m, err := ui.New(a, ui.Options{
		Theme: o.theme, NoColor: noColor, Dark: true, Lens: lens, Step: o.step,
		LocalPath: local, Editor: editor, Autoplay: o.autoplay, Speed: o.speed,
	})
	if err != nil {
		return usageError{err}
	}
	opts := []tea.ProgramOption{tea.WithOutput(env.Stdout)}
	if env.Stdin != nil {
		opts = append(opts, tea.WithInput(env.Stdin))
	}
	if noColor {
		// colorprofile only honours NO_COLOR values ParseBool accepts; any
		// non-empty value must drop colour (no-color.org).
		opts = append(opts, tea.WithColorProfile(colorprofile.ASCII))
	}
	_, err = tea.NewProgram(m, opts...).Run()
	return err
}

// envSet reports whether an environment variable is set and non-empty.
func envSet(name string) bool {
	v, ok := os.LookupEnv(name)
	return ok && v != ""
}

// loadRuns reads a run file in any supported format. Bad records among good
// ones are reported as warnings: the run to show may be a good one.
func loadRuns(path, format string, stderr io.Writer) ([]model.Run, error) {
	runs, err := parsers.Load(path, format)
	switch {
	case err == nil:
		return runs, nil
	case errors.Is(err, parsers.ErrUnknownFormat):
		return nil, usageError{err}
	case len(runs) > 0:
		printError(stderr, "warning: ", err)
		return runs, nil
	}
	return nil, err
}

func runViewDemo(env *Env, o *viewOptions) error {
	lens, sem, err := o.check()
	if err != nil {
		return err
	}
	if o.gold != "" || o.repo != "" || o.cache != "" || o.instance != "" || o.inputFormat != "" {
		return usagef("--gold, --repo, --cache, --instance and --input-format need a RUN")
	}
	a, err := demo.Analyze(env.Demo, sem)
	if err != nil {
		return err
	}
	if o.step > len(a.Run.Actions) {
		return usagef("--step %d: the demo has %d actions", o.step, len(a.Run.Actions))
	}
	return explore(env, o, a, lens, nil)
}
