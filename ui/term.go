package ui

import (
	"path"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/trajscope/trajscope/highlight"
	"github.com/trajscope/trajscope/model"
)

// Profile is the terminal's colour profile as far as the environment and
// the terminfo database tell (the output is a terminal). It is what
// colorprofile.Detect finds without its `tmux info` probe, which starts a
// process before the first frame can be drawn; TmuxProfile runs that probe
// in the background instead.
func Profile(environ []string) colorprofile.Profile {
	p := colorprofile.Env(environ)
	if term := lookup(environ, "TERM"); term != "" && term != "dumb" {
		p = max(p, colorprofile.Terminfo(term))
	}
	return p
}

// TmuxProfile asks tmux, in the background, whether it passes true colour
// through, and upgrades the profile and repaints when it does. Outside tmux
// (or when the profile is already true colour) it does nothing.
func TmuxProfile(environ []string, p colorprofile.Profile) tea.Cmd {
	if p >= colorprofile.TrueColor || lookup(environ, "TMUX") == "" {
		return nil
	}
	return func() tea.Msg {
		if t := colorprofile.Tmux(environ); t > p {
			return tea.BatchMsg{
				func() tea.Msg { return tea.ColorProfileMsg{Profile: t} },
				tea.ClearScreen, // cells drawn in fewer colours are redrawn
			}
		}
		return nil
	}
}

func lookup(environ []string, name string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := cut(environ[i]); ok && k == name {
			return v
		}
	}
	return ""
}

func cut(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], true
		}
	}
	return "", "", false
}

// firstFrameHook wraps the program's model; only a timing build sets it
// (firstframe.go).
var firstFrameHook func(tea.Model) tea.Model

// Program is the explorer's program for m with opts.
func Program(m tea.Model, opts ...tea.ProgramOption) *tea.Program {
	if firstFrameHook != nil {
		m = firstFrameHook(m)
	}
	return tea.NewProgram(m, opts...)
}

// Prewarm starts, in the background, what the explorer's first frame of run
// will need and can have before the run is analysed: the syntax lexers of
// the files it reads and edits (chroma compiles a lexer's rules on first
// use: BENCHMARKS.md, "Start-up"). Callers that will show the explorer call
// it as soon as the run is read.
func Prewarm(run *model.Run) {
	if run == nil {
		return
	}
	highlight.Prewarm(prewarmPaths(run))
}

// prewarmLexers is how many kinds of file Prewarm readies: the first frame
// shows one file, and a run naming thousands of extensions must not keep a
// core busy matching them.
const prewarmLexers = 8

// prewarmPaths is one file read for each of the first few extensions the
// run reads, in the order it reads them.
func prewarmPaths(run *model.Run) []string {
	var paths []string
	seen := map[string]bool{}
	for i := range run.Actions {
		for _, r := range run.Actions[i].Reads {
			if ext := path.Ext(r.File); !seen[ext] {
				seen[ext] = true
				if paths = append(paths, r.File); len(paths) == prewarmLexers {
					return paths
				}
			}
		}
	}
	return paths
}
