package parsers

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/loader"
)

// Tail reads a run file an agent is still writing (view --follow). Where the
// format is read a line at a time (Claude Code sessions and their
// sub-agents' transcripts, Codex rollouts and their sub-agents'), each Read
// decodes only the whole lines appended since the last, and gives what Load
// would give of the file as it is then; another format's file is read whole
// each time (Gemini CLI, for one, rewrites its whole chat file).
type Tail struct {
	path string
	f    *format
	r    follower // nil: read whole each time
}

// follower is a format's reader of a file as it grows.
type follower interface {
	Read() ([]model.Run, error)
	Bound(most int64)
	Behind() bool
}

// NewTail follows the file at path, in format ("" detects it).
func NewTail(path, format string) (*Tail, error) {
	f, err := formatOf(path, format)
	if err != nil {
		return nil, err
	}
	t := &Tail{path: path, f: f}
	if f.tail != nil {
		t.r = f.tail(path)
	}
	return t, nil
}

// Bound makes each Read decode about most bytes at most (0: all there is)
// where the format is read a line at a time: a long session's start shows
// while the rest is read by the Reads after (Behind).
func (t *Tail) Bound(most int64) {
	if t.r != nil {
		t.r.Bound(most)
	}
}

// Behind reports whether the last Read left whole lines for the next.
func (t *Tail) Behind() bool { return t.r != nil && t.r.Behind() }

// Read reads the file's runs as they are now.
func (t *Tail) Read() ([]model.Run, error) {
	if t.r == nil {
		return t.f.load(t.path)
	}
	runs, err := t.r.Read()
	return marked(loader.Read(t.path, runs, err))
}
