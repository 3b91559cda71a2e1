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
	"github.com/trajscope/trajscope/internal/testkit"
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

// Closing the terminal (SIGHUP) ends the explorer as q does: what the run
// taught the parse cache is written, instead of the process dying with it.
func TestHangupKeepsTheCache(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary on a pseudo-terminal")
	}
	bin := testkit.Binary(t)
	cacheDir := useCache(t)
	repo, gold := gitVectorRepo(t)
	master, tty := openPTY(t)

	cmd := osexec.Command(bin, "view", exPreds, "--gold", gold, "--repo", repo, "--instance", "owner__repo-1")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			mu.Lock()
			screen.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	drawn := func() bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(screen.String(), "Timeline")
	}
	for deadline := time.Now().Add(20 * time.Second); !drawn(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the explorer drew no timeline in 20 s")
		}
	}
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
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the explorer did not end within 20 s of SIGHUP")
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
	bin := testkit.Binary(t)
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
	master, tty := openPTY(t)
	cmd := osexec.Command(bin, "view", exPreds, "--gold", goldFile, "--repo", repo, "--instance", "owner__repo-1")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := master.Read(b)
			mu.Lock()
			screen.Write(b[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	shows := func(s string) bool {
		mu.Lock()
		defer mu.Unlock()
		return strings.Contains(screen.String(), s)
	}
	for deadline := time.Now().Add(20 * time.Second); !shows("Timeline"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the explorer drew no timeline in 20 s")
		}
	}
	master.Write([]byte("q"))
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the explorer: %v", err)
	}
	for deadline := time.Now().Add(5 * time.Second); !shows("broken-1"); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	out := screen.String()
	mu.Unlock()
	warning := strings.Index(out, "row 2 (broken-1): gold_context[0].start_line: expected an integer")
	timeline := strings.Index(out, "Timeline")
	if warning < 0 || timeline < 0 || warning < timeline {
		t.Errorf("the warning at %d, the explorer's first frame at %d: want the warning after the explorer", warning, timeline)
	}
}
