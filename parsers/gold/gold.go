// Package gold loads ContextBench gold context (the gold_ctx rows the
// evaluator scores against) from the hub parquet export, JSONL, JSON (a
// list of rows or one row) or a directory tree of annot.json files, into
// model.Gold values indexed by instance id.
//
// It follows upstream's GoldLoader and Gold with these decisions:
//   - A parquet without a repo_url column loads with RepoURL "" (upstream
//     crashes there).
//   - A gold_context in the text form ("context0：\nfile: …") is parsed and
//     the Gold gets TextForm; upstream silently read it as empty gold, and
//     the scorer decides which to honour. A gold_ctx string in a JSON row is
//     parsed the same way (JSON or text form) and also gets TextForm, since
//     upstream ignores any gold_ctx that is not a list.
//   - Context items whose file is falsy (missing, null, "") are left out of
//     Init and Add: every upstream computation skips them. They still count
//     for the "init_ctx and add_ctx both empty" test that picks gold_ctx.
//   - start_line and end_line default to 1 when missing, as upstream's
//     item.get('start_line', 1); they are otherwise kept raw (no clamp, no
//     swap), which is what line_spans_init uses.
//   - Where upstream would crash on a row (a non-integer line, an item that
//     is not an object, a truthy non-list init_ctx) the row is skipped and
//     reported in Problems; the other rows load.
package gold

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Set is the loaded gold, indexed by both instance ids of every row.
type Set struct {
	golds    []*model.Gold
	byID     map[string]*model.Gold
	problems []error
	// unlisted counts problems past maxProblems, and skipped the rows among
	// them that were not loaded.
	unlisted, unlistedSkipped int

	normOnce sync.Once
	norm     map[string][]*model.Gold

	// lazy, for a parquet gold, holds rows not yet read (lazy.go); the
	// fields above are complete once lazy.built is set.
	lazy *lazyRows

	// patch, for a reference patch given as the gold, is every run's
	// target (patch.go).
	patch *model.Gold
}

// Problem is a row that was skipped, or loaded with something lost.
type Problem struct {
	File string
	// Line is the 1-based line where the row starts; 0 when not known.
	Line int
	// Where is the place inside the file: "row 12 (id)" for parquet, a JSON
	// path inside the row ("init_ctx[3].start_line") for JSON.
	Where string
	Msg   string
	// Skipped is true when the row was not loaded at all.
	Skipped bool
}

func (p *Problem) Error() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		b.WriteString(":" + strconv.Itoa(p.Line))
	}
	if p.Where != "" {
		b.WriteString(": " + p.Where)
	}
	b.WriteString(": " + p.Msg)
	if p.Skipped {
		b.WriteString(" (row skipped)")
	}
	return b.String()
}

// Get returns the gold whose inst_id or original_inst_id is exactly id. When
// rows share an id, the later row wins, as in upstream's dict.
func (s *Set) Get(id string) (*model.Gold, bool) {
	if s == nil || id == "" {
		return nil, false
	}
	if s.patch != nil {
		return s.patchFor(id), true
	}
	if s.lazy != nil && !s.lazy.built.Load() {
		if g, ok, built := s.lazy.get(id); !built {
			return g, ok
		}
	}
	g, ok := s.byID[id]
	return g, ok
}

// Len is the number of rows loaded.
func (s *Set) Len() int {
	if s == nil {
		return 0
	}
	s.build()
	if s.patch != nil {
		return 1
	}
	return len(s.golds)
}

// All returns the loaded rows in file order.
func (s *Set) All() []*model.Gold {
	if s == nil {
		return nil
	}
	s.build()
	if s.patch != nil {
		return []*model.Gold{s.patch}
	}
	return s.golds
}

// maxProblems is how many problems a Set lists one by one: a broken or
// hostile file can have one per row (a million repeated ids), and a million
// warning lines help nobody.
const maxProblems = 100

// Problems lists rows that were skipped or partly lost, in file order, the
// first maxProblems of them; a last one counts the rest. Each error is a
// *Problem.
func (s *Set) Problems() []error {
	if s == nil {
		return nil
	}
	s.build()
	if s.unlisted == 0 {
		return s.problems
	}
	last := s.problems[len(s.problems)-1].(*Problem)
	more := &Problem{File: last.File, Msg: fmt.Sprintf("%d more problems not listed (%d of those rows skipped)", s.unlisted, s.unlistedSkipped)}
	return append(s.problems[:len(s.problems):len(s.problems)], more)
}

func newSet() *Set {
	return &Set{byID: make(map[string]*model.Gold)}
}

func (s *Set) problem(p *Problem) {
	if len(s.problems) < maxProblems {
		s.problems = append(s.problems, p)
		return
	}
	s.unlisted++
	if p.Skipped {
		s.unlistedSkipped++
	}
}

// add indexes g under both ids, later rows replacing earlier ones. A gold
// past model.MaxGoldSpans is refused: the row is skipped and said so.
func (s *Set) add(g *model.Gold, file string, line int, where string) {
	if n := len(g.Init) + len(g.Add) + len(g.Files); n > model.MaxGoldSpans {
		s.problem(&Problem{File: file, Line: line, Where: where, Skipped: true,
			Msg: fmt.Sprintf("%d gold spans and files; trajscope reads at most %d per instance", n, model.MaxGoldSpans)})
		return
	}
	s.golds = append(s.golds, g)
	for _, key := range [2]string{g.InstID, g.OriginalInstID} {
		if key == "" {
			continue
		}
		if old, ok := s.byID[key]; ok && old != g {
			s.problem(&Problem{File: file, Line: line, Where: where,
				Msg: fmt.Sprintf("id %q already named an earlier row; this row replaces it", key)})
		}
		s.byID[key] = g
	}
}

// Load reads gold from path: a directory (every annot.json below it), a
// parquet file (by extension or by its PAR1 magic), a .jsonl file, or any
// other file as JSON. Content decides between JSON and JSONL for files that
// are not named .jsonl: a first line holding a whole object means JSONL.
//
// The error is for input that gave no gold at all (unreadable, not JSON, no
// rows); the Set is still returned when there is one, so its Problems can be
// shown.
func Load(path string) (*Set, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var set *Set
	if st.IsDir() {
		set, err = loadDir(path)
		if err == nil && set.Len() == 0 {
			if gt, ok, gerr := loadGroundTruth(path, true); ok {
				set, err = gt, gerr
			}
		}
	} else if gt, ok, gerr := loadGroundTruth(path, false); ok {
		set, err = gt, gerr
	} else {
		set, err = loadFile(path)
	}
	if err != nil {
		return set, err
	}
	if set.lazy != nil && set.lazy.any() {
		return set, nil // rows are kept: the set is built when needed
	}
	if set.Len() == 0 {
		if len(set.problems) > 0 {
			return set, fmt.Errorf("%s: no gold rows loaded; first problem: %v", path, set.problems[0])
		}
		if st.IsDir() {
			return set, fmt.Errorf("%s: no annot.json files found", path)
		}
		return set, fmt.Errorf("%s: no gold rows (expected JSONL rows, a JSON list of rows or one row object, each with inst_id or original_inst_id)", path)
	}
	return set, nil
}

func loadFile(path string) (*Set, error) {
	if strings.HasSuffix(path, ".parquet") || hasParquetMagic(path) {
		return loadParquet(path)
	}
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if IsPatch(path, data) {
		return loadPatch(path, data)
	}
	set := newSet()
	if strings.HasSuffix(path, ".jsonl") || jsontree.FirstLineIsObject(data) {
		loadLines(set, data, path)
		return set, nil
	}
	v, err := jsontree.Parse(data)
	if err != nil {
		return set, jsontree.At(path, err)
	}
	switch v.Kind {
	case jsontree.Array:
		for i, row := range v.Arr {
			loadRow(set, row, path, jsontree.LineAt(data, row.Off), "["+strconv.Itoa(i)+"]")
		}
	case jsontree.Object:
		loadRow(set, v, path, jsontree.LineAt(data, v.Off), "")
	default:
		return set, fmt.Errorf("%s: expected a JSON list of rows or one row object, found %s", path, v.Describe())
	}
	return set, nil
}

// syntaxProblem is a row lost to invalid JSON in file, at its line and
// column.
func syntaxProblem(file string, err error) *Problem {
	var se *jsontree.SyntaxError
	if errors.As(err, &se) {
		return &Problem{File: file, Line: se.Line, Skipped: true, Msg: fmt.Sprintf("invalid JSON at column %d: %s", se.Col, se.Msg)}
	}
	return &Problem{File: file, Skipped: true, Msg: err.Error()}
}

// hasParquetMagic reports a file that starts as parquet does.
func hasParquetMagic(path string) bool {
	magic, err := inputfile.Head(path, 4)
	return err == nil && string(magic) == "PAR1"
}

// loadLines loads JSONL: one row a line, blank lines skipped, a bad line
// reported and the rest loaded.
func loadLines(set *Set, data []byte, path string) {
	lineNo := 0
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		lineNo++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		row, err := jsontree.ParseAt(line, lineNo)
		if err != nil {
			set.problem(syntaxProblem(path, err))
			continue
		}
		loadRow(set, row, path, lineNo, "")
	}
}

// loadDir loads every annot.json below dir, in lexical walk order (upstream's
// os.walk order is the file system's, so repeated ids had no defined winner).
func loadDir(dir string) (*Set, error) {
	set := newSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			set.problem(&Problem{File: p, Msg: "cannot read: " + err.Error()})
			if d != nil && d.IsDir() && p != dir {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || d.Name() != "annot.json" {
			return nil
		}
		data, err := inputfile.ReadRegular(p)
		if err != nil {
			set.problem(&Problem{File: p, Msg: strings.TrimPrefix(err.Error(), p+": "), Skipped: true})
			return nil
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		row, err := jsontree.Parse(data)
		if err != nil {
			set.problem(syntaxProblem(p, err))
			return nil
		}
		loadRow(set, row, p, jsontree.LineAt(data, row.Off), "")
		return nil
	})
	return set, err
}
