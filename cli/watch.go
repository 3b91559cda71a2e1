package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/sessions"
	"github.com/trajscope/trajscope/source"
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
whose recorded working directory is DIR, or $CODEX_HOME) and Gemini CLI's
(~/.gemini/tmp/<project>/chats). It opens it as view --follow does, the
repository being DIR's git repository read at the commit it had checked out
when the session started (the session's own record, else the HEAD reflog),
so line numbers mean what they meant to the agent. Without --gold, the code
the session changed is the target.

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

func runWatch(env *Env, o *viewOptions, dir string, list bool) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return usagef("watch %s: not a directory", safe(dir))
	}
	home, _ := os.UserHomeDir()
	found := sessions.Find(abs, sessions.DefaultHomes(os.Getenv, home))
	if list {
		return listSessions(env, abs, found)
	}
	if len(found) == 0 {
		return fmt.Errorf("watch %s: no Claude Code, Codex or Gemini CLI session of this directory found (trajscope watch --list says where it looked)", safe(abs))
	}
	s := found[0]
	o.semantics, o.parseTimeout = "contextbench", scoring.DefaultParseTimeout
	how := ""
	if wt := source.WorkTree(abs); wt != "" {
		o.repo = wt
		o.baseCommit, how = s.Commit, "the commit the session records"
		if o.baseCommit == "" && !s.Started.IsZero() {
			o.baseCommit, how = source.HeadAt(wt, s.Started), "the repository's HEAD when the session started"
		}
		if o.baseCommit == "" {
			how = "the repository's HEAD now"
		}
	}
	o.found = fmt.Sprintf("%s session %s%s", s.Agent, s.Path, startedWords(s, o.baseCommit, how))
	o.follow = isTerminal(env.Stdout)
	return runView(env, o, []string{s.Path})
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
		fmt.Fprintf(env.Stdout, "no session of %s in %s/projects, %s/sessions or %s/tmp\n", safe(dir), safe(h.Claude), safe(h.Codex), safe(h.Gemini))
		return nil
	}
	tw := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "agent\tstarted\twritten\tsession")
	for _, s := range found {
		started := "-"
		if !s.Started.IsZero() {
			started = s.Started.Local().Format(time.DateTime)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", s.Agent, started, s.Modified.Local().Format(time.DateTime), safe(s.Path))
	}
	return tw.Flush()
}
