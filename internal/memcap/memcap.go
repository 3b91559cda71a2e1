// Package memcap runs the trajscope binary in a child process under an
// address-space limit and reports its peak resident memory, for tests of
// hostile and huge inputs: a regression then fails the test (the child dies
// or its peak exceeds the bound) instead of taking the machine.
package memcap

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// Result is what one capped run did.
type Result struct {
	Stdout, Stderr string
	// Code is the exit code; -1 when a signal ended the process.
	Code int
	// PeakRSS is the largest resident set the child had, in bytes.
	PeakRSS int64
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// Binary builds trajscope once per test process and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("memcap needs Linux (ulimit -v and rusage)")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trajscope-memcap-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "trajscope")
		out, err := exec.Command("go", "build", "-o", built, "github.com/trajscope/trajscope").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return built
}

// Run runs bin with args under an address-space limit of limit bytes (the
// child gets ulimit -v), with env added to the test's environment, and
// returns its output, exit code and peak RSS. The Go runtime reserves
// address space lazily, so a limit a few hundred MiB above the expected
// peak leaves it room while still stopping a runaway allocation.
func Run(t testing.TB, limit int64, env []string, bin string, args ...string) Result {
	t.Helper()
	sh := fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, limit/1024)
	cmd := exec.Command("/bin/sh", append([]string{"-c", sh, bin}, args...)...)
	// glibc reserves a 64 MiB malloc arena per thread that touches malloc
	// (tree-sitter's cgo threads do), which counts against the cap without
	// being used; two arenas keep the cap about the Go heap.
	cmd.Env = append(append(os.Environ(), "MALLOC_ARENA_MAX=2"), env...)
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd.Env = append(cmd.Env, peakEnv+"="+peakFile)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String(), Code: 0}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %s: %v", bin, err)
		}
		r.Code = ee.ExitCode()
	}
	if b, err := os.ReadFile(peakFile); err == nil {
		r.PeakRSS, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	} else if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// The child died before reporting: rusage is the best left, and it
		// overstates (a child started by vfork inherits the test process's
		// high-water mark at exec).
		r.PeakRSS = ru.Maxrss * 1024 // Linux reports KiB
	}
	return r
}

// peakEnv names the file ReportPeak writes to.
const peakEnv = "TRAJSCOPE_PEAK_FILE"

// ReportPeak writes the process's peak resident memory in bytes (VmHWM,
// which starts afresh at exec, unlike getrusage's maxrss) to the file
// TRAJSCOPE_PEAK_FILE names, when it is set. main calls it on the way out,
// so Run measures the binary itself and not the test process that started
// it.
func ReportPeak() {
	path := os.Getenv(peakEnv)
	if path == "" {
		return
	}
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err == nil {
				os.WriteFile(path, []byte(strconv.FormatInt(kb*1024, 10)), 0o644)
			}
			return
		}
	}
}
