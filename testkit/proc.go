package testkit

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
	"testing"
)

// Result is what one capped run did.
type Result struct {
	Stdout, Stderr string
	// Code is the exit code; 128+N when signal N ended the process.
	Code int
	// PeakRSS is the largest resident set the child had, in bytes.
	PeakRSS int64
}

// goCache is the go command's build cache as the test process started:
// tests point XDG_CACHE_HOME at empty directories (some in TestMain), and
// the go command's default cache lives under it, so a build that followed
// them would compile everything from scratch (~100 s) every time.
var goCache = func() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "go-build")
	}
	return ""
}()

var (
	buildOnce           sync.Once
	builtBin, builtPeak string
	buildErr            error
)

// Binary builds trajscope (and the small process that measures it) once per
// test process and returns the binary's path.
func Binary(t testing.TB) string {
	t.Helper()
	build(t)
	return builtBin
}

func build(t testing.TB) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("capped runs need Linux (RLIMIT_AS and rusage)")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trajscope-testkit-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin, builtPeak = filepath.Join(dir, "trajscope"), filepath.Join(dir, "peakrss")
		for out, pkg := range map[string]string{builtBin: "github.com/trajscope/trajscope", builtPeak: "github.com/trajscope/trajscope/testkit/peakrss"} {
			cmd := exec.Command("go", "build", "-o", out, pkg)
			if goCache != "" {
				cmd.Env = append(os.Environ(), "GOCACHE="+goCache)
			}
			if b, err := cmd.CombinedOutput(); err != nil {
				buildErr = fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
}

// RunCapped runs bin with args under an address-space limit of limit bytes, with
// env added to the test's environment, and returns its output, exit code
// and peak RSS. The Go runtime reserves address space lazily, so a limit a
// few hundred MiB above the expected peak leaves it room while still
// stopping a runaway allocation. The child is started by a small process
// of its own (peakrss), so its peak is its own and not the test's.
func RunCapped(t testing.TB, limit int64, env []string, bin string, args ...string) Result {
	t.Helper()
	build(t)
	peakFile := filepath.Join(t.TempDir(), "peak")
	cmd := exec.Command(builtPeak, append([]string{strconv.FormatInt(limit, 10), peakFile, bin}, args...)...)
	// glibc reserves a 64 MiB malloc arena per thread that touches malloc
	// (tree-sitter's cgo threads do), which counts against the cap without
	// being used; two arenas keep the cap about the Go heap.
	cmd.Env = append(append(os.Environ(), "MALLOC_ARENA_MAX=2"), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := Result{Stdout: out.String(), Stderr: errb.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("run %s: %v", bin, err)
		}
		r.Code = ee.ExitCode()
	}
	if b, err := os.ReadFile(peakFile); err == nil {
		r.PeakRSS, _ = strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	}
	return r
}
