//go:build linux

package cli

import (
	"bytes"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
	"golang.org/x/sys/unix"

	"github.com/trajscope/trajscope/internal/filefacts"
)

// openPTY opens a pseudo-terminal: the explorer runs only on a terminal.
func openPTY(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	if err := unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 40, Col: 120}); err != nil {
		t.Fatal(err)
	}
	return master, tty
}

// onTerminal is the binary running on a pseudo-terminal, with what it has
// written so far.
type onTerminal struct {
	cmd    *osexec.Cmd
	master *os.File
	mu     sync.Mutex
	screen bytes.Buffer
}

// hangGuard is how long a test waits for the explorer before calling it
// hung: a guard, not a speed requirement.
const hangGuard = 60 * time.Second

// explorer starts the binary with args on a pseudo-terminal and waits for
// its first frame (the timeline's title).
func explorer(t *testing.T, args ...string) *onTerminal {
	t.Helper()
	return onPTY(t, "Timeline", args...)
}

// onPTY starts the binary with args on a pseudo-terminal and waits for
// first to show.
func onPTY(t *testing.T, first string, args ...string) *onTerminal {
	t.Helper()
	return onPTYIn(t, "", first, args...)
}

// onPTYIn is onPTY run in dir ("" for the test's own).
func onPTYIn(t *testing.T, dir, first string, args ...string) *onTerminal {
	t.Helper()
	master, tty := openPTY(t)
	o := &onTerminal{cmd: asMain(args...), master: master}
	o.cmd.Dir = dir
	o.cmd.Env = append(o.cmd.Env, "TERM=xterm-256color")
	o.cmd.Stdin, o.cmd.Stdout, o.cmd.Stderr = tty, tty, tty
	o.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := o.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go o.pump()
	if !o.await(first, hangGuard) {
		o.cmd.Process.Kill()
		t.Fatalf("the binary showed no %q in %v:\n%s", first, hangGuard, o.output())
	}
	t.Cleanup(func() { o.cmd.Process.Kill(); o.cmd.Wait() })
	return o
}

// output is everything written so far.
// pump keeps what the terminal shows until it closes.
func (o *onTerminal) pump() {
	b := make([]byte, 4096)
	for {
		n, err := o.master.Read(b)
		o.mu.Lock()
		o.screen.Write(b[:n])
		o.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (o *onTerminal) output() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.screen.String()
}

// await reports whether s shows within d.
func (o *onTerminal) await(s string, d time.Duration) bool {
	for deadline := time.Now().Add(d); !strings.Contains(o.output(), s); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			return false
		}
	}
	return true
}

// Closing the terminal (SIGHUP) ends the explorer as q does: what the run
// taught the parse cache is written, instead of the process dying with it.
func TestHangupKeepsTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	cacheDir := useCache(t)
	repo, gold := gitVectorRepo(t)
	o := explorer(t, "view", exPreds, "--gold", gold, "--repo", repo, "--instance", "owner__repo-1")
	cmd := o.cmd
	if _, n, _ := filefacts.Usage(cacheDir); n != 0 {
		t.Fatalf("the cache holds %d entries before the explorer ends", n)
	}

	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("the explorer died of %v: %v", ws.Signal(), err)
		}
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatalf("the explorer did not end within %v of SIGHUP", hangGuard)
	}
	if _, n, _ := filefacts.Usage(cacheDir); n != 2 {
		t.Errorf("after SIGHUP the cache holds %d entries, want 2 (the commit's paths and its files' facts)", n)
	}
}

// The gold's problems are said when the explorer ends, after its screen,
// not before it (where the screen would hide them and reading every row to
// find them would hold up the first frame).
func TestGoldProblemsAfterTheExplorer(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	useCache(t)
	repo, _ := gitVectorRepo(t)
	type row struct {
		InstanceID  *string `parquet:"instance_id,optional"`
		GoldContext *string `parquet:"gold_context,optional"`
	}
	s := func(v string) *string { return &v }
	goldFile := filepath.Join(t.TempDir(), "gold.parquet")
	if err := parquet.WriteFile(goldFile, []row{
		{InstanceID: s("owner__repo-1"), GoldContext: s(`[{"file": "pkg/mod.py", "start_line": 1, "end_line": 3}]`)},
		{InstanceID: s("broken-1"), GoldContext: s(`[{"file": "a.py", "start_line": "x"}]`)},
	}); err != nil {
		t.Fatal(err)
	}
	o := explorer(t, "view", exPreds, "--gold", goldFile, "--repo", repo, "--instance", "owner__repo-1")
	o.master.Write([]byte("q"))
	if err := o.cmd.Wait(); err != nil {
		t.Fatalf("the explorer: %v", err)
	}
	o.await("broken-1", hangGuard)
	out := o.output()
	warning := strings.Index(out, "row 2 (broken-1): gold_context[0].start_line: expected an integer")
	timeline := strings.Index(out, "Timeline")
	if warning < 0 || timeline < 0 || warning < timeline {
		t.Errorf("the warning at %d, the explorer's first frame at %d: want the warning after the explorer", warning, timeline)
	}
}

// Following from the agent's first second: an empty file, then the prompt
// alone, show the waiting screen; the first tool call opens the explorer
// on the run, live (issue 46 #1). The session file is named bare, from its
// folder.
func TestFollowFromAnEmptyFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	useCache(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	appendLine := func(line string) {
		f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(line + "\n")
		f.Close()
	}
	o := onPTYIn(t, dir, "waiting for the first action of s.jsonl", "view", "--follow", "s.jsonl")
	appendLine(`{"type":"user","uuid":"u0","sessionId":"s","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"fix the cache"}}`)
	time.Sleep(300 * time.Millisecond) // the prompt alone: still waiting
	if strings.Contains(o.output(), "Timeline") || o.cmd.ProcessState != nil {
		t.Fatalf("opened on the prompt alone:\n%s", o.output())
	}
	appendLine(`{"type":"assistant","uuid":"a1","sessionId":"s","timestamp":"2026-01-01T00:00:01Z","message":{"role":"assistant","id":"m1","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`)
	if !o.await("Timeline", hangGuard) || !o.await("live", hangGuard) {
		t.Fatalf("no explorer after the first action:\n%s", o.output())
	}
}
