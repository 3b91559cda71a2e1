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
	read func() ([]model.Run, error)
}

// NewTail follows the file at path, in format ("" detects it).
func NewTail(path, format string) (*Tail, error) {
	f, err := formatOf(path, format)
	if err != nil {
		return nil, err
	}
	t := &Tail{path: path, f: f}
	if f.tail != nil {
		t.read = f.tail(path)
	}
	return t, nil
}

// Read reads the file's runs as they are now.
func (t *Tail) Read() ([]model.Run, error) {
	if t.read == nil {
		return t.f.load(t.path)
	}
	runs, err := t.read()
	return marked(loader.Read(t.path, runs, err))
}
