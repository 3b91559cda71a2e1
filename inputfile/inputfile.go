// Package inputfile reads the files trajscope is given, bounded: no input
// is read past model.MaxFileBytes, whatever kind of file it is, so a huge
// file, /dev/zero or a FIFO that never ends costs at most the bound and one
// clear line, never the machine's memory.
//
// A file that is not regular (a FIFO such as <(zcat runs.jsonl.gz),
// /dev/stdin, a device) can be read only once, yet a name is read more than
// once (detection reads its head, the parser all of it): its bytes are read
// on first use and every later read of that name gets the same bytes.
package inputfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/trajscope/trajscope/model"
)

var (
	onceMu sync.Mutex
	once   = map[string]readOnce{} // non-regular files read so far, by name
)

type readOnce struct {
	data []byte
	err  error
}

// Read reads the whole file at path. A regular file larger than
// model.MaxFileBytes is refused before anything is read; anything else a
// user can name is read (once) up to the bound and refused past it.
func Read(path string) ([]byte, error) {
	if b, ok := mounted(path); ok {
		return b, nil
	}
	st, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return readSpecial(path)
	}
	if st.Size() > maxBytes {
		return nil, tooLarge(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(path, f, st.Size())
}

// stat is os.Stat for a file to read: a directory is an error.
func stat(path string) (os.FileInfo, error) {
	st, err := os.Stat(path)
	if err == nil && st.IsDir() {
		return nil, fmt.Errorf("%s: is a directory", path)
	}
	return st, err
}

// readSpecial reads a non-regular file the first time it is asked for and
// hands out the same bytes (or error) after that.
func readSpecial(path string) ([]byte, error) {
	onceMu.Lock()
	defer onceMu.Unlock()
	if r, ok := once[path]; ok {
		return r.data, r.err
	}
	var r readOnce
	f, err := os.Open(path)
	if err != nil {
		r.err = err
	} else {
		r.data, r.err = readBounded(path, f, 0)
		f.Close()
	}
	once[path] = r
	return r.data, r.err
}

func readBounded(path string, r io.Reader, size int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(r, maxBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if int64(buf.Len()) > maxBytes {
		return nil, tooLarge(path)
	}
	return buf.Bytes(), nil
}

// Head returns up to the first n bytes of the file at path, for sniffing its
// format. A non-regular file is read whole (once) and its head returned, so
// the parser that follows still gets every byte.
func Head(path string, n int) ([]byte, error) {
	if b, ok := mounted(path); ok {
		return b[:min(n, len(b))], nil
	}
	st, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		data, err := readSpecial(path)
		if len(data) > n {
			data = data[:n]
		}
		return data, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return buf[:k], nil
}

// File is an input opened for reading at any offset, bounded in size.
type File interface {
	io.Reader
	io.ReaderAt
	io.Closer
	Size() int64
}

// Open opens the file at path for a reader that needs random access (a
// parquet footer) or streams it (the first line of a large JSONL file). A
// regular file larger than the bound is refused; a non-regular one is read
// (once) into memory.
func Open(path string) (File, error) {
	if b, ok := mounted(path); ok {
		return memFile{bytes.NewReader(b)}, nil
	}
	st, err := stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		data, err := readSpecial(path)
		if err != nil {
			return nil, err
		}
		return memFile{bytes.NewReader(data)}, nil
	}
	if st.Size() > maxBytes {
		return nil, tooLarge(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &osFile{File: f, size: st.Size(), r: io.LimitReader(f, st.Size())}, nil
}

type memFile struct{ *bytes.Reader }

func (memFile) Close() error { return nil }

// osFile reads a regular file no further than the size it had when opened
// (a file still growing is read as it was).
type osFile struct {
	*os.File
	size int64
	r    io.Reader
}

func (f *osFile) Read(p []byte) (int, error) { return f.r.Read(p) }
func (f *osFile) Size() int64                { return f.size }

// ReadRegular is Read for a file found inside a folder rather than named
// by the user: only a regular file is read (a FIFO there would block, a
// link to a device never end), after following symbolic links.
func ReadRegular(path string) ([]byte, error) {
	st, err := Stat(path)
	if err != nil {
		return nil, inFolder(path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, NotRegular(path, st.Mode())
	}
	return Read(path)
}

// HeadRegular is Head for a file found inside a folder: only a regular
// file (after following symbolic links) is read.
func HeadRegular(path string, n int) ([]byte, error) {
	st, err := Stat(path)
	if err != nil {
		return nil, inFolder(path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, NotRegular(path, st.Mode())
	}
	return Head(path, n)
}

// ErrNotRegular is behind the error for a file inside a folder that is
// skipped because it is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// NotRegular is the error for a file inside a folder that is skipped
// because it is not a regular file.
func NotRegular(path string, m os.FileMode) error {
	return fmt.Errorf("%s: %w (%s), skipped", path, ErrNotRegular, kind(m))
}

// inFolder words a file in a folder that cannot be looked at: a link to
// nothing is skipped like any file that is not regular.
func inFolder(path string, err error) error {
	if l, lerr := os.Lstat(path); lerr == nil && l.Mode()&os.ModeSymlink != 0 && errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w (a link to nothing), skipped", path, ErrNotRegular)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", path, err)
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// maxBytes is model.MaxFileBytes; a test lowers it to try the bound
// without reading hundreds of megabytes.
var maxBytes int64 = model.MaxFileBytes

func tooLarge(path string) error {
	return fmt.Errorf("%s: larger than %d MiB, the most trajscope reads from one file", path, maxBytes>>20)
}
