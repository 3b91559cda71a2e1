// Package atomicfile writes a file so that readers see either the old file
// or the complete new one: the data goes to a temporary file beside the
// target, which is renamed over it only once everything was written. A
// failed or interrupted run never leaves a truncated file behind.
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// File is a pending write to a path.
type File struct {
	w    io.Writer
	f    *os.File // the temporary file, or the special file written in place
	path string   // what the temporary file is renamed over; "" in place
	done bool
	sync bool // flush a file written in place to disk on Commit (Append)
}

// Create opens the write of path. A regular file (or a new name) is
// written to a temporary file beside it, renamed over it on Commit:
// readers see the old file or the whole new one. A symbolic link is
// followed and its target written that way, the link left as it is. Any
// other existing file (a device such as /dev/null, a FIFO, a terminal) is
// opened and written in place: replacing it by a regular file would break
// whatever else uses it. Creating it first is also the cheapest honest
// check that the target is writable: callers do it before long work so a
// bad path fails early.
func Create(path string) (*File, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(target); err == nil && !st.Mode().IsRegular() {
		if st.IsDir() {
			return nil, fmt.Errorf("%s: is a directory", path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &File{w: f, f: f}, nil
	}
	dir, base := filepath.Split(target)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return nil, err
	}
	return &File{w: f, f: f, path: target}, nil
}

// Writer is a File that writes to w (standard output, for "-"): Commit
// and Abort only end it.
func Writer(w io.Writer) *File { return &File{w: w} }

// resolve follows path's symbolic links to the file they name, existing or
// not (at most 40 hops, as the kernel allows).
func resolve(path string) (string, error) {
	for range 40 {
		st, err := os.Lstat(path)
		if err != nil || st.Mode()&os.ModeSymlink == 0 {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// Write writes to the pending file.
func (f *File) Write(p []byte) (int, error) { return f.w.Write(p) }

// WriteString writes s to the pending file.
func (f *File) WriteString(s string) (int, error) { return io.WriteString(f.w, s) }

// Commit finishes the write: a temporary file is flushed to disk and
// renamed over the target; a file written in place is closed.
func (f *File) Commit() error {
	if f.done {
		return errors.New("atomicfile: already committed or aborted")
	}
	f.done = true
	if f.f == nil {
		return nil
	}
	if f.path == "" {
		var err error
		if f.sync {
			err = f.f.Sync()
		}
		return errors.Join(err, f.f.Close())
	}
	err := f.f.Sync()
	if cerr := f.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// CreateTemp makes the file 0600; a result file is as readable as
		// any file the user creates.
		err = os.Chmod(f.f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.f.Name())
	}
	return err
}

// Abort removes the temporary file; the target is untouched (a file
// written in place keeps what was written). It is a no-op after Commit and
// on a nil File, so callers may defer it.
func (f *File) Abort() {
	if f == nil || f.done {
		return
	}
	f.done = true
	if f.f == nil {
		return
	}
	f.f.Close()
	if f.path != "" {
		os.Remove(f.f.Name())
	}
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

// Append opens path to be continued in place (score --resume): a regular
// file (a symbolic link is followed) is cut to its first keep bytes and
// written after them; a new name is created. Unlike Create it writes the
// file itself, as it goes, so an interrupted run leaves what it wrote;
// Commit flushes it to disk and closes it, Abort closes it.
func Append(path string, keep int64) (*File, error) {
	target, err := resolve(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(target); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file: --resume continues a results file", path)
	}
	f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := f.Truncate(keep); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(keep, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &File{w: f, f: f, sync: true}, nil
}
