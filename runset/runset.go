// Package runset is the runs one `view` opens: the files and directories
// named on the command line, each file holding one run or many, loaded
// lazily. A list row for every run comes from a cheap first pass (the file
// names), then from reading each file, then from analysing each run with
// its gold and repository; opening a run analyses it in full. Gold is
// matched per run and repositories are shared by every run that reads them.
package runset

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/trajscope/trajscope/grep"
	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/redact"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// Options say how the runs are analysed.
type Options struct {
	// Gold is matched to each run by its instance id; nil for none.
	Gold *gold.Set
	Sem  model.Semantics
	// Checkouts opens each run's repository at its commit; nil for none.
	Checkouts scoring.Checkouts
	// Local gives, for a run's repository tree, the path of a repository
	// file the editor may open in place ("" for none); nil for none at all.
	Local func(model.Tree) func(string) string
	// Why says in one line why a repository could not be opened, from the
	// error Checkouts gave.
	Why func(error) string
	// ParseTimeout bounds each file's tree-sitter parse (0: the default).
	ParseTimeout time.Duration
	// Cache keeps file facts (line offsets, definitions) between
	// processes; nil for none.
	Cache model.FactStore
	// BaseCommit is the commit a run given no gold is read at when it
	// records none ("" for the repository's HEAD): for a session of one's
	// own repository, the commit it started from.
	BaseCommit string
}

// Reading says how a set's files are read.
type Reading struct {
	// Format forces every file's format ("" detects each one's).
	Format string
	// Redact: everything the set gives out is redacted (--redact): each
	// run's story, its row, the warnings and notes, errors naming a run,
	// Title and Text. Runs are analysed as they are, so the figures do
	// not change.
	Redact bool
}

// Set is the runs of one view.
type Set struct {
	format string
	repos
	// red redacts what the set gives out; nil for none.
	red *redact.Redactor
	// work serialises reading and analysing, which the background loader
	// and the run being opened share; mu guards what the list reads.
	work sync.Mutex
	mu   sync.Mutex

	srcs []*src
	rows []story.Row
	refs []ref // rows[i]'s source and place in it

	nextLoad, nextAnalyse int
	warnings              []string

	// parsed is the last file read: opening runs of one file in turn reads
	// it once.
	parsed struct {
		src  int
		runs []model.Run
	}
	// loadedRows counts the rows of the sources read so far.
	loadedRows int
	// idNotes says, by row, when a run's gold was matched by the id its
	// file records rather than the evaluator's file-name id.
	idNotes map[int]string
	// evaluated holds, by source, the predictions the evaluator scores
	// for a file it reads with another format than its runs' (nil: the
	// runs' own), read once.
	evaluated map[int][]model.Prediction
	// tail is the file Follow reads as it grows.
	tail *followed
	// title names what the set was opened on; single: one file, not a
	// folder or archive.
	title  string
	single bool
}

// src is one file (or format directory) of runs.
type src struct {
	path   string
	loaded bool
	err    error // reading it failed and gave no run
	// runs, when set, are the source's runs, read already (the demo's).
	runs []model.Run
}

// load reads the source's runs.
func (sr *src) load(format string) ([]model.Run, error) {
	if sr.runs != nil {
		return slices.Clone(sr.runs), nil
	}
	return parsers.Load(sr.path, format)
}

// ref places a row: its source, and its run's index there (-1 for the
// row that stands for a file not read yet, or one that could not be).
type ref struct{ src, index int }

// New finds the runs at paths: each file is a source of runs, each
// directory gives the files under it that a format claims. Nothing is read
// yet beyond directory listings and the first bytes of their files.
func New(paths []string, rd Reading) (*Set, error) {
	if format := rd.Format; format != "" && !parsers.Known(format) {
		return nil, fmt.Errorf("%w %q (known: %s)", parsers.ErrUnknownFormat, format, strings.Join(parsers.Formats(), ", "))
	}
	s := newSet(paths, rd)
	named := map[string]bool{}
	for _, p := range paths {
		named[filepath.Clean(p)] = true
	}
	for _, p := range paths {
		if _, err := inputfile.Stat(p); err != nil {
			return nil, err
		}
		if main := parsers.Continues(p); main != "" && named[filepath.Clean(main)] {
			// Named beside the file it continues, whose run reads it.
			continue
		}
		if !parsers.IsCollection(p) {
			s.add(p)
			continue
		}
		found, errs := parsers.Walk(p, true)
		for _, e := range errs {
			s.warnings = append(s.warnings, e.Error())
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s: no run files found (the folder holds no file a format recognises)", p)
		}
		s.srcs = slices.Grow(s.srcs, len(found))
		s.refs = slices.Grow(s.refs, len(found))
		s.rows = slices.Grow(s.rows, len(found))
		for _, f := range found {
			s.add(f)
		}
	}
	if len(s.srcs) == 0 {
		return nil, errors.New("no runs given")
	}
	return s, nil
}

func newSet(paths []string, rd Reading) *Set {
	s := &Set{format: rd.Format, idNotes: map[int]string{}, title: title(paths),
		single: len(paths) == 1 && !parsers.IsCollection(paths[0])}
	if rd.Redact {
		s.red = &redact.Redactor{}
	}
	s.parsed.src = -1
	return s
}

func (s *Set) add(path string) { s.addSrc(&src{path: path}) }

func (s *Set) addSrc(sr *src) {
	s.srcs = append(s.srcs, sr)
	s.refs = append(s.refs, ref{len(s.srcs) - 1, -1})
	s.rows = append(s.rows, story.Row{Path: sr.path, ID: filepath.Base(sr.path), Pos: len(s.rows) + 1})
}

// renumber sets the positions of the rows from the one at index from on.
func (s *Set) renumber(from int) {
	for i := from; i < len(s.rows); i++ {
		s.rows[i].Pos = i + 1
	}
}

// Prepare says how the runs are analysed, before the first is: the
// repositories to open depend on how many runs will be shown, which is
// known once the files are read.
func (s *Set) Prepare(o Options) {
	s.work.Lock()
	defer s.work.Unlock()
	s.o = o
}

// Rows returns a copy of the list's rows, in list order.
func (s *Set) Rows() []story.Row {
	s.mu.Lock()
	rows := append([]story.Row(nil), s.rows...)
	s.mu.Unlock()
	return shown(s.red, rows)
}

// Progress says how far the background work is: files read of all files,
// runs analysed of all rows.
func (s *Set) Progress() (read, files, analysed, rows int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.nextLoad, len(s.srcs), s.nextAnalyse, len(s.rows)
}

// Warnings are what the user should know about the runs once every file is
// read: files that could not be listed or read, runs without an instance
// id, ids that several runs hold.
func (s *Set) Warnings() []string {
	s.mu.Lock()
	ws := append([]string(nil), s.warnings...)
	s.mu.Unlock()
	return shown(s.red, ws)
}

// Step does one piece of the background work: reads the next file, or once
// all are read, analyses the next run for its row. It reports whether there
// was anything left to do.
func (s *Set) Step() bool {
	s.work.Lock()
	defer s.work.Unlock()
	if s.nextLoad < len(s.srcs) {
		s.load(s.nextLoad)
		return true
	}
	for {
		s.mu.Lock()
		i, n := s.nextAnalyse, len(s.rows)
		if i < n {
			s.nextAnalyse++
		}
		s.mu.Unlock()
		if i >= n {
			return false
		}
		s.mu.Lock()
		done := s.rows[i].Analysed
		s.mu.Unlock()
		if s.refs[i].index >= 0 && !done {
			s.analyse(i)
			return true
		}
	}
}

// LoadAll reads every file (no analysis).
func (s *Set) LoadAll() {
	s.work.Lock()
	defer s.work.Unlock()
	for s.nextLoad < len(s.srcs) {
		s.load(s.nextLoad)
	}
}

// Len is the number of rows: runs, and files that could not be read.
func (s *Set) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.rows)
}

// load reads source k (any earlier ones first, so rows stay in order) and
// puts its runs' rows in place of the row that stood for it.
func (s *Set) load(k int) {
	for s.nextLoad <= k {
		s.loadOne(s.nextLoad)
	}
}

func (s *Set) loadOne(k int) {
	runs, err := s.srcs[k].load(s.format)
	s.loaded(k, runs, err)
}

// loaded lists source k's runs as read (runs, err).
func (s *Set) loaded(k int, runs []model.Run, err error) {
	sr := s.srcs[k]
	var rows []story.Row
	var refs []ref
	for i := range runs {
		runs[i].Path = sr.path
		row := story.NewRow(&runs[i])
		row.Index = i
		rows = append(rows, row)
		refs = append(refs, ref{k, i})
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		msg := termsafe.Line(err.Error())
		if len(runs) > 0 {
			// Some records were bad; the others load.
			s.warnings = append(s.warnings, msg)
		} else {
			sr.err = err
			rows = []story.Row{{Path: sr.path, ID: filepath.Base(sr.path), Loaded: true, Note: msg}}
			refs = []ref{{k, -1}}
		}
	}
	sr.loaded = true
	s.parsed.src, s.parsed.runs = k, runs
	// Files are read in order: source k's row follows the rows of the
	// sources before it. One run takes its row's place; more shift the
	// rows after them once (a folder of n files costs n, not n²).
	at := s.loadedRows
	if len(rows) == 1 {
		s.rows[at], s.refs[at] = rows[0], refs[0]
		s.rows[at].Pos = at + 1
	} else {
		s.rows = slices.Insert(slices.Delete(s.rows, at, at+1), at, rows...)
		s.refs = slices.Insert(slices.Delete(s.refs, at, at+1), at, refs...)
		s.renumber(at)
	}
	s.loadedRows += len(rows)
	s.nextLoad = k + 1
	if s.nextLoad == len(s.srcs) {
		s.checkIDs()
	}
}

// Loaded returns run pos as read, before it is analysed, or nil when its
// file has not been read or has no run there: for work that can start
// while the run is analysed. Its file stays the one Open reads next.
func (s *Set) Loaded(pos int) *model.Run {
	s.work.Lock()
	defer s.work.Unlock()
	i := pos - 1
	if i < 0 || i >= len(s.refs) || s.refs[i].index < 0 {
		return nil
	}
	runs := s.runs(s.refs[i].src)
	if s.refs[i].index >= len(runs) {
		return nil
	}
	return &runs[s.refs[i].index]
}

// runs returns the runs of source k, reading it again if it is not the
// last one read.
func (s *Set) runs(k int) []model.Run {
	if s.parsed.src != k {
		runs, _ := s.srcs[k].load(s.format)
		for i := range runs {
			runs[i].Path = s.srcs[k].path
		}
		s.parsed.src, s.parsed.runs = k, runs
	}
	return s.parsed.runs
}

// Grep reports the rows whose runs hold q (ignoring case) in a command, a
// thought, an output or the task, by row index: what the run list's filter
// finds inside the runs. It reads each file again, one at a time.
func (s *Set) Grep(q string) map[int]bool {
	out := map[int]bool{}
	m, err := grep.New(regexp.QuoteMeta(q), grep.Options{IgnoreCase: true, FilesOnly: true})
	if q == "" || err != nil {
		return out
	}
	s.work.Lock()
	defer s.work.Unlock()
	s.mu.Lock()
	refs := append([]ref(nil), s.refs...)
	s.mu.Unlock()
	for k, sr := range s.srcs {
		if !sr.loaded || sr.err != nil {
			continue
		}
		runs, err := sr.load(s.format)
		if err != nil && len(runs) == 0 {
			continue
		}
		for row, r := range refs {
			if r.src == k && r.index >= 0 && r.index < len(runs) {
				if n, _ := m.Run(io.Discard, &runs[r.index], ""); n > 0 {
					out[row] = true
				}
			}
		}
	}
	return out
}

// ParseTimeout is the bound on one file's tree-sitter parse the runs are
// analysed with (0: the default).
func (s *Set) ParseTimeout() time.Duration {
	s.work.Lock()
	defer s.work.Unlock()
	return s.o.ParseTimeout
}

// Row is the row of the run at position pos (1-based), as Rows gives it.
func (s *Set) Row(pos int) story.Row {
	s.mu.Lock()
	var row story.Row
	if pos >= 1 && pos <= len(s.rows) {
		row = s.rows[pos-1]
	}
	s.mu.Unlock()
	return shown(s.red, row)
}

// Each reads the set's files one at a time, in list order, and calls f
// with each run (redacted with --redact) and its label: its file, or
// "FILE#N" for the N-th run of a file of several. A file that gave no run
// comes with the error that kept it from being read (and a nil run); one
// that gave some runs and bad records, with its runs and then the error.
// The runs are not kept: memory holds one file's at a time. Each stops at
// f's first error and returns it.
func (s *Set) Each(f func(label string, run *model.Run, err error) error) error {
	for _, sr := range s.srcs {
		runs, err := sr.load(s.format)
		for i := range runs {
			runs[i].Path = sr.path
			label := sr.path
			if len(runs) > 1 {
				label = fmt.Sprintf("%s#%d", sr.path, i+1)
			}
			if ferr := f(s.Text(label), shown(s.red, &runs[i]), nil); ferr != nil {
				return ferr
			}
		}
		if err != nil {
			if ferr := f(s.Text(sr.path), nil, s.error(err)); ferr != nil {
				return ferr
			}
		}
	}
	return nil
}
