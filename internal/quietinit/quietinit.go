// Package quietinit keeps package initialisation from starting processes.
//
// lipgloss sets its package-level Writer from colorprofile.Detect on
// standard output, and inside tmux that runs `tmux info`: a process, 5–10
// ms, started before main in every trajscope process (score and --version
// too), for a colour profile trajscope never reads (the explorer finds its
// own, and asks tmux in the background: ui.Profile, ui.TmuxProfile).
//
// This package hides TMUX from the environment while packages initialise
// and Restore puts it back. It must initialise before lipgloss: it imports
// only os, so Go's initialisation order (by import path among packages
// whose imports are ready, specified since Go 1.21) runs it before
// lipgloss's golang.org/x/sys dependency, which sorts after it.
// TestNoProcessAtStart checks the order on the built binary.
package quietinit

import "os"

var tmux, hidden = os.LookupEnv("TMUX")

func init() {
	if hidden {
		os.Unsetenv("TMUX")
	}
}

// Restore puts TMUX back as it was; main calls it first.
func Restore() {
	if hidden {
		os.Setenv("TMUX", tmux)
		hidden = false
	}
}
