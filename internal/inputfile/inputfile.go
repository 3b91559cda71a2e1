// Package inputfile reads the files trajscope is given, bounded: no input
// is read past model.MaxFileBytes, whatever kind of file it is, so a huge
// file, /dev/zero or a FIFO that never ends costs at most the bound and one
// clear line, never the machine's memory.
package inputfile

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"github.com/trajscope/trajscope/model"
)

// Read reads the whole file at path. A regular file larger than
// model.MaxFileBytes is refused before anything is read; anything else a
// user can name (a FIFO such as <(zcat runs.jsonl.gz), /dev/stdin) is read
// up to the bound and refused past it.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := int64(0)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	if size > model.MaxFileBytes {
		return nil, tooLarge(path)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, model.MaxFileBytes+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if buf.Len() > model.MaxFileBytes {
		return nil, tooLarge(path)
	}
	return buf.Bytes(), nil
}

// ReadRegular is Read for a file found inside a folder rather than named
// by the user: only a regular file is read (a FIFO there would block, a
// link to a device never end), after following symbolic links.
func ReadRegular(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s), skipped", path, kind(st.Mode()))
	}
	return Read(path)
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

func tooLarge(path string) error {
	return fmt.Errorf("%s: larger than %d MiB, the most trajscope reads from one file", path, model.MaxFileBytes>>20)
}
