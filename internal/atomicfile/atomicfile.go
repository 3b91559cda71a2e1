// Package atomicfile writes a file so that readers see either the old file
// or the complete new one: the data goes to a temporary file beside the
// target, which is renamed over it only once everything was written. A
// failed or interrupted run never leaves a truncated file behind.
package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// File is a pending write to Path.
type File struct {
	*os.File
	path string
	done bool
}

// Create opens a temporary file in path's directory. Creating it first is
// also the cheapest honest check that the target is writable: callers do it
// before long work so a bad path fails early.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{File: f, path: path}, nil
}

// Commit flushes the data to disk and renames the temporary file over the
// target.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: already committed or aborted")
	}
	f.done = true
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file 0600; a result file is as readable as
		// any file the user creates.
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// Abort removes the temporary file; the target is untouched. It is a no-op
// after Commit and on a nil File, so callers may defer it.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	f.Close()
	os.Remove(f.Name())
}

// SameFile reports whether path names an existing file that is also one of
// others (following symlinks and hard links), so a command can refuse to
// overwrite its own input.
func SameFile(path string, others ...string) (string, bool) {
	st, err := os.Stat(path)
	if err != nil {
		return "", false
	}
	for _, o := range others {
		if o == "" {
			continue
		}
		if ost, err := os.Stat(o); err == nil && os.SameFile(st, ost) {
			return o, true
		}
	}
	return "", false
}

// WriteFile writes data to path through a temporary file and a rename, so a
// reader never sees a partial file. It does not wait for the disk (no
// fsync): it is for caches, whose entries are checked when read; results a
// user keeps go through Create and Commit.
func WriteFile(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err = errors.Join(err, tmp.Close()); err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// IsTemp reports whether a file name is one of this package's temporary
// files, which a crash may leave behind for a cleaner to remove.
func IsTemp(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}
