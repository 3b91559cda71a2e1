// Package runfile is the one way a format's runs are read from disk: a
// size-limited read of the file, then the format's parser (or, for a format
// that has directories, its directory loader). The format table in package
// parsers and each format's tests go through it, so every format reads
// files the same way.
package runfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/trajscope/trajscope/parsers/internal/jsontree"

	"github.com/trajscope/trajscope/internal/textstore"
	"github.com/trajscope/trajscope/model"
)

// MaxSize is the largest run file read. Every parser holds the whole file
// and its decoded form in memory; past this size a file is not a run but an
// accident, and saying so beats exhausting memory.
const MaxSize int64 = 4 << 30

// Parser reads the runs in data, the content of the file at path.
type Parser func(path string, data []byte) ([]model.Run, error)

// DirLoader reads the runs of a directory.
type DirLoader func(path string) ([]model.Run, error)

// Load reads the runs at path. With dir set, a directory goes to dir (and a
// path that cannot be stat'ed is an error); a file is read and parsed. The
// runs' outputs and thoughts come back compressed (see package textstore).
func Load(path string, parse Parser, dir DirLoader) ([]model.Run, error) {
	runs, err := load(path, parse, dir)
	for i := range runs {
		r := &runs[i]
		r.Observations = textstore.Compress(r.Observations, len(r.Actions))
		r.Thoughts = textstore.Compress(r.Thoughts, len(r.Actions))
	}
	return runs, err
}

// LoadPredictions is Load for a caller that reads only the runs'
// predictions (a scorer): their outputs and thoughts are dropped.
func LoadPredictions(path string, parse Parser, dir DirLoader) ([]model.Run, error) {
	runs, err := load(path, parse, dir)
	for i := range runs {
		runs[i].Observations, runs[i].Thoughts = nil, nil
	}
	return runs, err
}

func load(path string, parse Parser, dir DirLoader) ([]model.Run, error) {
	if dir != nil {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			return dir(path)
		}
	}
	data, err := Read(path)
	if err != nil {
		return nil, err
	}
	return parse(path, data)
}

// Read reads a whole file of at most MaxSize bytes. Its errors are those of
// os.ReadFile, plus one for a file that is too large.
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
	if size > MaxSize {
		return nil, tooLarge(path)
	}
	buf := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	if _, err := buf.ReadFrom(io.LimitReader(f, MaxSize+1)); err != nil {
		return nil, err
	}
	if int64(buf.Len()) > MaxSize {
		return nil, tooLarge(path)
	}
	return buf.Bytes(), nil
}

func tooLarge(path string) error {
	return fmt.Errorf("%s: larger than %d GiB, too large for a run file", path, MaxSize>>30)
}

// Named adapts the parser of a one-run format whose instance id comes from
// the file's base name: its errors are placed at the file, and the run
// records its path.
func Named(parse func(name string, data []byte) (*model.Run, error)) Parser {
	return func(path string, data []byte) ([]model.Run, error) {
		run, err := parse(filepath.Base(path), data)
		if err != nil {
			return nil, jsontree.At(path, err)
		}
		run.Path = path
		return []model.Run{*run}, nil
	}
}

// InvalidUTF8 returns the offset of the first byte of b that is not valid
// UTF-8, or len(b): where the reference evaluator, which reads trajectory
// files as strict UTF-8, fails.
func InvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(b)
}
