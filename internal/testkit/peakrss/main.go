// Command peakrss runs a command under an address-space limit and prints its
// peak resident memory. Tests start it instead of the command itself: Linux
// reports a child's peak as at least the memory of the process that started
// it (the child begins as a vfork of its parent), and this process is small
// where a test process is not.
//
//	peakrss LIMIT_BYTES PEAK_FILE COMMAND [ARG ...]
//
// It exits with the command's exit code (128+N when signal N ended it) and
// writes the peak in bytes to PEAK_FILE.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: peakrss LIMIT_BYTES PEAK_FILE COMMAND [ARG ...]")
		os.Exit(2)
	}
	limit, err := strconv.ParseUint(os.Args[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peakrss: limit:", err)
		os.Exit(2)
	}
	// The child inherits the limit.
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss: setrlimit:", err)
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[3], os.Args[4:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	case err != nil:
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		// Linux reports KiB.
		os.WriteFile(os.Args[2], []byte(strconv.FormatInt(ru.Maxrss*1024, 10)), 0o644)
	}
	os.Exit(code)
}
