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
//
// The limit is applied in a child, immediately before it replaces itself with
// COMMAND, never in this process: a Go process may already hold more address
// space than the limit (the runtime reserves by the core count), and once
// capped below its own reservation it cannot allocate again.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"unsafe"
)

// execMode is the first argument of the child that caps itself and execs.
const execMode = "--exec-capped"

func main() {
	if len(os.Args) >= 4 && os.Args[1] == execMode {
		execCapped(os.Args[2], os.Args[3:])
	}
	if len(os.Args) < 4 {
		fmt.Fprintln(os.Stderr, "usage: peakrss LIMIT_BYTES PEAK_FILE COMMAND [ARG ...]")
		os.Exit(2)
	}
	if _, err := strconv.ParseUint(os.Args[1], 10, 64); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss: limit:", err)
		os.Exit(2)
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	cmd := exec.Command(self, append([]string{execMode, os.Args[1]}, os.Args[3:]...)...)
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

// execCapped sets RLIMIT_AS and execs argv. Everything execve needs is built
// first; between the limit and the exec only raw system calls run, so
// nothing here allocates under a limit the runtime may already exceed.
func execCapped(limitArg string, argv []string) {
	limit, err := strconv.ParseUint(limitArg, 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, "peakrss: limit:", err)
		os.Exit(2)
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	pathp, err1 := syscall.BytePtrFromString(path)
	argvp, err2 := syscall.SlicePtrFromStrings(argv)
	envp, err3 := syscall.SlicePtrFromStrings(os.Environ())
	if err := errors.Join(err1, err2, err3); err != nil {
		fmt.Fprintln(os.Stderr, "peakrss:", err)
		os.Exit(127)
	}
	rl := syscall.Rlimit{Cur: limit, Max: limit}
	if _, _, e := syscall.RawSyscall(syscall.SYS_SETRLIMIT, syscall.RLIMIT_AS, uintptr(unsafe.Pointer(&rl)), 0); e != 0 {
		fmt.Fprintln(os.Stderr, "peakrss: setrlimit:", e)
		os.Exit(2)
	}
	syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(pathp)),
		uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	// Only reached when execve failed; exit as a shell would, without allocating.
	syscall.RawSyscall(syscall.SYS_EXIT_GROUP, 126, 0, 0)
}
