package inputfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// Refs reads the files one run's file refers to (its sub-agents'
// transcripts and metas, the rollouts of threads it spawned, a
// conversation's events, sub-agents' chats) under one budget for the run:
// each file is read at most once, whatever names it goes by; never through
// a symbolic link (agents write files, not links, and a link could read
// one file many times or lead out of the run's folder); and what they hold
// in all is at most the budget. A run of a thousand links to one large
// file costs one read of it, or none.
type Refs struct {
	left int64
	seen map[any]bool
}

// NewRefs is a reader of referenced files holding at most budget bytes in
// all.
func NewRefs(budget int64) *Refs { return &Refs{left: budget, seen: map[any]bool{}} }

// The kinds of refusal, behind Read's errors.
var (
	ErrLink      = errors.New("a symbolic link or another kind of file, not read")
	ErrReadAgain = errors.New("the same file as one read already")
	ErrBudget    = errors.New("past what the files a run refers to may hold in all")
)

// Read reads a referenced file, or says why it is not read (an error
// wrapping ErrLink, ErrReadAgain or ErrBudget, or the file's own).
func (r *Refs) Read(path string) ([]byte, error) {
	st, err := Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w", path, ErrLink)
	}
	key := any(path) // a mounted (archive) member: its name
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		key = [2]uint64{uint64(sys.Dev), sys.Ino}
	}
	if r.seen[key] {
		return nil, fmt.Errorf("%s: %w", path, ErrReadAgain)
	}
	if st.Size() > r.left {
		r.left = 0 // what comes after is past it too
		return nil, fmt.Errorf("%s: %w (%d bytes)", path, ErrBudget, st.Size())
	}
	r.seen[key] = true
	data, err := Read(path)
	if err != nil {
		return nil, err
	}
	r.left -= int64(len(data))
	return data, nil
}

// OpenRegular opens path for reading when it is a regular file, and never
// waits on what is not one: a FIFO (or a device) placed where a file is
// expected is opened without blocking, seen for what it is and refused.
func OpenRegular(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = NotRegular(path, st.Mode())
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
