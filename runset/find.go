package runset

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/parsers"
)

// Finding the run a command opens: --instance by id or position, the one
// run of a single file, and the warnings about ids several runs share.

// checkIDs warns about runs without ids and ids several runs hold.
func (s *Set) checkIDs() {
	var refs []parsers.RunRef
	for i, r := range s.rows {
		if s.refs[i].index >= 0 {
			refs = append(refs, parsers.RunRef{Path: r.Path, Pos: r.Pos, ID: r.ID})
		}
	}
	for _, w := range parsers.IDWarnings(refs) {
		s.warnings = append(s.warnings, string(w)+" (--instance N picks one by position)")
	}
}

// Find resolves --instance: an instance id, or a 1-based position N or #N
// in the list. Every file is read first. When several runs hold the id,
// the first is taken and warning names the others.
func (s *Set) Find(id string) (pos int, warning string, err error) {
	pos, warning, err = s.find(id)
	return pos, s.Text(warning), s.error(err)
}

func (s *Set) find(id string) (pos int, warning string, err error) {
	s.LoadAll()
	s.mu.Lock()
	defer s.mu.Unlock()
	var hits []int
	for i, r := range s.rows {
		if s.refs[i].index >= 0 && r.ID == id {
			hits = append(hits, r.Pos)
		}
	}
	if len(hits) > 0 {
		if len(hits) > 1 {
			var others []string
			for _, p := range hits[1:] {
				others = append(others, fmt.Sprintf("#%d %s", p, termsafe.Line(s.rows[p-1].Path)))
			}
			warning = fmt.Sprintf("%d runs are instance %q: showing #%d (%s); the others: %s; pick one with --instance N",
				len(hits), termsafe.Line(id), hits[0], termsafe.Line(s.rows[hits[0]-1].Path), strings.Join(others, ", "))
		}
		return hits[0], warning, nil
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(id, "#")); err == nil && n >= 1 && n <= len(s.rows) {
		return n, "", nil
	}
	return 0, "", fmt.Errorf("no instance %q among %d runs", termsafe.Line(id), len(s.rows))
}

// IDNote says how the run at position pos was matched to its gold when it
// was by the id its file records ("" otherwise); valid once it is opened.
func (s *Set) IDNote(pos int) string {
	s.mu.Lock()
	note := s.idNotes[pos-1]
	s.mu.Unlock()
	return s.Text(note)
}

// Choose picks the run a command opens: the one instance names (an id, or
// a position N or #N; see Find), else the one run of a single file; 0 when
// the set holds several and none is named (the run list).
func (s *Set) Choose(instance string) (pos int, warning string, err error) {
	if instance != "" {
		pos, warning, err = s.Find(instance)
		if err != nil {
			err = fmt.Errorf("%s: %w", s.Title(), err)
		}
		return pos, warning, err
	}
	if s.single {
		s.LoadAll() // one file: one run opens at once
		if s.Len() == 1 {
			return 1, "", nil
		}
	}
	return 0, "", nil
}
