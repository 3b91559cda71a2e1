package quietinit_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"

	"github.com/trajscope/trajscope/testkit"
)

// fakeTmux puts a `tmux` first on PATH that records each call in the
// returned file.
func fakeTmux(t *testing.T) (dir, calls string) {
	t.Helper()
	dir = t.TempDir()
	calls = filepath.Join(dir, "calls")
	script := "#!/bin/sh\necho \"$@\" >> " + calls + "\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, calls
}

// Inside tmux, starting trajscope runs no process: lipgloss's package
// Writer would run `tmux info`. The control shows the fake sees that probe
// when colorprofile runs with TMUX set.
func TestNoProcessAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir, calls := fakeTmux(t)
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	env := []string{"TMUX=/tmp/tmux-0/default,1,0", "TTY_FORCE=1", "TERM=xterm-256color"}

	// Control: the probe runs, and the fake records it.
	colorprofile.Detect(os.Stdout, append(os.Environ(), env...))
	if b, _ := os.ReadFile(calls); !strings.Contains(string(b), "info") {
		t.Fatalf("control: colorprofile did not run the fake tmux (calls: %q)", b)
	}
	os.Remove(calls)

	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "trajscope ") {
		t.Fatalf("--version: %v %q", err, out)
	}
	if b, err := os.ReadFile(calls); err == nil {
		t.Errorf("starting trajscope ran tmux: %q", b)
	}
}
