// Package loader is the one way a format's runs are read from disk: a
// size-limited read of the file, then the format's parser (or, for a format
// that has directories, its directory loader). The format table in package
// parsers and each format's tests go through it, so every format reads
// files the same way.
package loader

import (
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/textstore"
)

// Parser reads the runs in data, the content of the file at path.
type Parser func(path string, data []byte) ([]model.Run, error)

// DirLoader reads the runs of a directory.
type DirLoader func(path string) ([]model.Run, error)

// Load reads the runs at path. With dir set, a directory goes to dir (and a
// path that cannot be stat'ed is an error); a file is read and parsed. The
// runs' outputs and thoughts come back compressed (see package textstore).
func Load(path string, parse Parser, dir DirLoader) ([]model.Run, error) {
	return compress(load(path, parse, dir))
}

// Read is Load for runs a caller read itself (a followed file's): what
// Load refuses it refuses. Their texts are left as they are: the reader
// keeps them for its next reading, so a compressed copy would cost more
// memory, not less, and time at every reading.
func Read(path string, runs []model.Run, err error) ([]model.Run, error) {
	if err := tooLong(path, runs); err != nil {
		return nil, err
	}
	return runs, err
}

func compress(runs []model.Run, err error) ([]model.Run, error) {
	for i := range runs {
		r := &runs[i]
		r.Observations = textstore.Compress(r.Observations, len(r.Actions))
		r.Thoughts = textstore.Compress(r.Thoughts, len(r.Actions))
	}
	return runs, err
}

// tooLong refuses a run of more actions than trajscope reads.
func tooLong(path string, runs []model.Run) error {
	for i := range runs {
		if n := len(runs[i].Actions); n > model.MaxActions {
			return fmt.Errorf("%s: a run of %d actions; trajscope reads runs of at most %d", path, n, model.MaxActions)
		}
	}
	return nil
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
		st, err := inputfile.Stat(path)
		if err != nil {
			return nil, err
		}
		if st.IsDir() {
			return dir(path)
		}
	}
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	runs, err := parse(path, data)
	if err := tooLong(path, runs); err != nil {
		return nil, err
	}
	return runs, err
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
