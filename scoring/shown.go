package scoring

import (
	"sync"

	"github.com/trajscope/trajscope/model"
)

// Names is how an analysis shows the repository's files once its text is
// redacted (--redact): the names its fields now hold, and each file's
// content as the screens show it.
type Names interface {
	// Name is a repository path as shown.
	Name(path string) string
	// Original is the path a shown name stands for (the name itself when
	// nothing of it was redacted).
	Original(shown string) string
	// Shown is a file's content as shown; every line stays where it is
	// (the gutter marks count lines).
	Shown(content []byte) []byte
}

// shownFiles is what ShowAs sets: the names, and each file's shown content
// made once.
type shownFiles struct {
	names Names
	mu    sync.Mutex
	memo  map[string][]byte
}

// ShowAs makes the analysis's file reads (Source, LineCount, Resolve,
// GoldShown, Known) take and give the names n shows, once the story is told
// and its text redacted. Scoring is done by then: it read the files by
// their own names, through Files.
func (a *Analysis) ShowAs(n Names) { a.show = &shownFiles{names: n} }

// original is the repository path a name the surfaces hold stands for.
func (a *Analysis) original(name string) string {
	if a.show == nil {
		return name
	}
	return a.show.names.Original(name)
}

// HasRepo reports whether files are read from a repository or directory
// (not only rebuilt from what the run displayed, nor missing altogether).
func (a *Analysis) HasRepo() bool { return a.Files.Tree() != nil }

// Source is a file's content as the surfaces show it; ok is false when it
// cannot be read.
func (a *Analysis) Source(name string) ([]byte, bool) {
	path := a.original(name)
	content, ok := a.Files.Content(path)
	if !ok || a.show == nil {
		return content, ok
	}
	s := a.show
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, done := s.memo[path]; done {
		return b, true
	}
	if s.memo == nil {
		s.memo = map[string][]byte{}
	}
	b := s.names.Shown(content)
	s.memo[path] = b
	return b, true
}

// Readable reports whether a file (by its shown name) can be read.
func (a *Analysis) Readable(name string) bool {
	_, ok := a.Files.Content(a.original(name))
	return ok
}

// LineCount is Files.LineCount of a shown name.
func (a *Analysis) LineCount(name string) int { return a.Files.LineCount(a.original(name)) }

// Resolve is Files.Resolve of a shown name, as shown.
func (a *Analysis) Resolve(name string) string {
	r := a.Files.Resolve(a.original(name))
	if r == "" || a.show == nil {
		return r
	}
	return a.show.names.Name(r)
}

// Known is the lines of a file the run displayed, when the repository is
// missing and the tree is rebuilt from them (nil otherwise).
func (a *Analysis) Known(name string) []model.Interval {
	if a.Partial == nil {
		return nil
	}
	return a.Partial.Known(a.original(name))
}
