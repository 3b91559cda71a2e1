// Opening a run in full: analysed against its gold (or its own edits) and
// its repository, its story told, its row filled in.

package runset

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// GoldError is the gold set's answer for a run it has no gold for.
type GoldError struct{ Err error }

func (e *GoldError) Error() string { return e.Err.Error() }
func (e *GoldError) Unwrap() error { return e.Err }

// Open analyses the run at position pos in full, for the explorer, and
// gives the editor's path function of its repository (nil for none). When
// the gold has no entry for the run (a *GoldError), the run is analysed
// without it and returned with the error; a missing repository is not an
// error: the analysis reads what the run displayed (Analysis.Partial).
func (s *Set) Open(pos int) (*story.Story, func(string) string, error) {
	s.work.Lock()
	defer s.work.Unlock()
	st, local, err := s.open(pos)
	if st != nil {
		st = s.tell(st)
	}
	return st, local, s.error(err)
}

func (s *Set) open(pos int) (*story.Story, func(string) string, error) {
	i := pos - 1
	if i < 0 || i >= len(s.refs) {
		return nil, nil, fmt.Errorf("no run #%d", pos)
	}
	if r := s.refs[i]; r.index < 0 && !s.srcs[r.src].loaded {
		s.load(r.src) // a file not read yet: its first run
	}
	if r := s.refs[i]; r.index < 0 {
		if err := s.srcs[r.src].err; err != nil {
			return nil, nil, err
		}
		return nil, nil, fmt.Errorf("%s: no runs", s.rows[i].Path)
	}
	a, local, err := s.analyse(i)
	if a == nil {
		return nil, nil, fmt.Errorf("%s: the file changed since it was read", s.rows[i].Path)
	}
	return a, local, err
}

// Reread reads run pos's file again, whole, as it is now, and analyses the
// run again. What the set knows of the repository and its files is kept.
func (s *Set) Reread(pos int) (*story.Story, error) {
	s.work.Lock()
	defer s.work.Unlock()
	s.tail = nil
	return s.told(s.reread(pos, func(sr *src) ([]model.Run, error) { return sr.load(s.format) }))
}

// told is a reading's story and error as the set gives them out.
func (s *Set) told(st *story.Story, err error) (*story.Story, error) {
	if st != nil {
		st = s.tell(st)
	}
	return st, s.error(err)
}

// Follow reads run pos's file as an agent writes it (view --follow): only
// what was appended since the last Follow is decoded where the format
// allows (parsers.Tail), and the run is analysed again.
func (s *Set) Follow(pos int) (*story.Story, error) {
	s.work.Lock()
	defer s.work.Unlock()
	s.repos.remember() // read again and again: what each output showed is kept
	return s.told(s.reread(pos, func(sr *src) ([]model.Run, error) { return s.tailOf(sr.path) }))
}

// OpenFollowing opens run pos as Open does, for following its file as it
// grows: a long file's first few MB are read and analysed, and the
// Follows after read the rest (Behind), so its first screen does not wait
// for the whole file.
func (s *Set) OpenFollowing(pos int) (*story.Story, func(string) string, error) {
	s.work.Lock()
	defer s.work.Unlock()
	i := pos - 1
	if i >= 0 && i < len(s.refs) {
		if r := s.refs[i]; r.index < 0 && !s.srcs[r.src].loaded && r.src == s.nextLoad {
			s.repos.remember()
			runs, err := s.tailOf(s.srcs[r.src].path)
			s.loaded(r.src, runs, err)
		}
	}
	st, local, err := s.open(pos)
	if st != nil {
		st = s.tell(st)
	}
	return st, local, s.error(err)
}

// Behind reports whether the last reading of the followed file left part
// of it for the next (OpenFollowing's bounded start).
func (s *Set) Behind() bool {
	s.work.Lock()
	defer s.work.Unlock()
	return s.tail != nil && s.tail.t.Behind()
}

// firstBytes is what the first reading of a followed file decodes at most:
// a long session's start, on screen at once (a 98 MB session's first screen
// in 0.3 s, not 7); each reading after decodes four times as much as the
// one before until the file is read, so the readings of the rest cost
// about a third more than one whole reading.
const firstBytes = 512 << 10

// tailOf reads the growth of the followed file at path, starting a Tail
// for it when it is new to the set: the first reading bounded to
// firstBytes, four times as much at each reading while lines are left.
func (s *Set) tailOf(path string) ([]model.Run, error) {
	if s.tail == nil || s.tail.path != path {
		t, err := parsers.NewTail(path, s.format)
		if err != nil {
			return nil, err
		}
		s.tail = &followed{path: path, t: t, most: firstBytes}
		t.Bound(firstBytes)
	}
	runs, err := s.tail.t.Read()
	switch {
	case s.tail.t.Behind():
		s.tail.most *= 4
		s.tail.t.Bound(s.tail.most)
	case s.tail.most > 0:
		s.tail.most = 0
		s.tail.t.Bound(0)
	}
	return runs, err
}

// followed is the file Follow reads, how far, and how much its next
// reading decodes at most (0: all there is).
type followed struct {
	path string
	t    *parsers.Tail
	most int64
}

// reread reads run pos's file with read and analyses the run.
func (s *Set) reread(pos int, read func(*src) ([]model.Run, error)) (*story.Story, error) {
	i := pos - 1
	if i < 0 || i >= len(s.refs) || s.refs[i].index < 0 {
		return nil, fmt.Errorf("no run #%d", pos)
	}
	r := s.refs[i]
	path := s.srcs[r.src].path
	runs, rerr := read(s.srcs[r.src])
	for k := range runs {
		runs[k].Path = path
	}
	s.parsed.src, s.parsed.runs = r.src, runs
	delete(s.evaluated, r.src)
	if r.index >= len(runs) {
		if rerr != nil {
			return nil, rerr
		}
		return nil, fmt.Errorf("%s: no run #%d now", s.rows[i].Path, r.index+1)
	}
	st, _, err := s.analyse(i)
	if st == nil {
		return nil, fmt.Errorf("%s: no run #%d now", s.rows[i].Path, r.index+1)
	}
	return st, err
}

// analyse scores row i's run, tells its story and fills in the row; the
// error is a *GoldError when it was analysed without its gold.
func (s *Set) analyse(i int) (*story.Story, func(string) string, error) {
	r := s.refs[i]
	runs := s.runs(r.src)
	if r.index >= len(runs) {
		return nil, nil, nil // the file changed since it was listed
	}
	run := runs[r.index] // a copy: Analyze gives record runs their actions
	if preds := s.evaluatedPreds(r.src, run.Format); len(preds) == len(runs) {
		// The contextbench lens is what the evaluator scores, as in score;
		// its steps are not the run's own (scoring links them).
		run.Prediction = preds[r.index]
		run.Actions = slices.Clone(run.Actions)
		for k := range run.Actions {
			run.Actions[k].Steps = nil
		}
	}
	var notes []string
	g, note, byRecord, err := s.goldOf(&run)
	if note != "" {
		notes = append(notes, note)
		if err == nil {
			s.mu.Lock()
			s.idNotes[i] = note
			s.mu.Unlock()
		}
	}
	files, local, _ := s.tree(&run, g)
	a := scoring.Analyze(&run, g, files, s.o.Sem)
	switch {
	case err != nil:
		// Scored against empty gold, a run covers "everything": the
		// evaluator's row says missing_gold, and so does every surface.
		for _, l := range model.Lenses {
			a.Refuse(l, scoring.ErrMissingGold, err.Error())
		}
	case byRecord != "" && s.o.Sem == model.ContextBench:
		// The evaluator names the run by its file name and finds no gold
		// for it; the observed lens reads it against its recorded id's.
		a.Refuse(model.LensContextBench, scoring.ErrMissingGold, scoring.UnmatchedReason(termsafe.Line(run.InstanceID), termsafe.Line(run.RecordedID)))
	}
	if a.Partial != nil {
		notes = append(notes, "no repository: "+a.Partial.Reason())
	}
	st := Tell(a)
	s.mu.Lock()
	row := story.NewRow(&run)
	row.Pos, row.Path, row.Index, row.Note = s.rows[i].Pos, s.rows[i].Path, r.index, strings.Join(notes, "; ")
	row.Summarize(st)
	s.rows[i] = row
	s.mu.Unlock()
	return st, local, err
}

// evaluatedPreds is parsers.EvaluatedPredictions of source k, read once.
func (s *Set) evaluatedPreds(k int, format string) []model.Prediction {
	if preds, ok := s.evaluated[k]; ok {
		return preds
	}
	if s.srcs[k].runs != nil {
		return nil // read already (the demo's): its runs' own
	}
	preds, _ := parsers.EvaluatedPredictions(s.srcs[k].path, format, s.o.Sem)
	if s.evaluated == nil {
		s.evaluated = map[int][]model.Prediction{}
	}
	s.evaluated[k] = preds
	return preds
}

// Tell tells an analysed run's story: the one function every surface's
// story comes from (the set's runs, and score's rows when it explains them).
func Tell(a *scoring.Analysis) *story.Story { return story.Tell(a) }

// goldOf is the gold run is analysed against: its row of the set's gold,
// or its own edits without one. note says how it was matched when that
// needs saying (by the id the run records; a gold in the text form), or
// why there is none (err, a *GoldError: the run is analysed against an
// empty gold); byRecord is the note of a match by recorded id.
func (r *repos) goldOf(run *model.Run) (g *model.Gold, note, byRecord string, err error) {
	if r.o.Gold == nil {
		// No gold: the code the run changed is its target.
		g = model.EditsGold(run)
		g.Commit = r.o.BaseCommit
		return g, "", "", nil
	}
	found, note, gerr := r.o.Gold.FindRun(run, r.o.Sem, false)
	if gerr != nil {
		return &model.Gold{ID: run.InstanceID, InstID: run.InstanceID}, gerr.Error(), "", &GoldError{gerr}
	}
	byRecord = note
	if found.TextForm && r.o.Sem == model.ContextBench {
		note = strings.TrimPrefix(note+"; ", "; ") + fmt.Sprintf("the gold of %q is in the text form (context0：…), which the reference evaluator reads as empty; --semantics fixed reads it", termsafe.Line(found.ID))
	}
	return found, note, byRecord, nil
}
