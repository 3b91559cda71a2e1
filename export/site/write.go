package site

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/trajscope/trajscope/export/html"
	"github.com/trajscope/trajscope/internal/atomicfile"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// Options say how the site's pages are drawn.
type Options struct {
	Theme string
	Lens  model.Lens
}

// Site is a site being written into a directory: each run is added in list
// order (its page written at once), then Finish groups the runs by task,
// writes a compare page per task of several runs, and the index.
type Site struct {
	dir  string
	o    Options
	runs []Run
	// Pages counts the run pages written; Compares the compare pages.
	Pages, Compares int
}

// Create starts a site in dir, made when missing. A directory that holds
// files but no index trajscope wrote is refused: the site would mix with
// (and overwrite) what is there. Nothing is written yet.
func Create(dir string, o Options) (*Site, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	if len(entries) > 0 && !ours(filepath.Join(dir, "index.html")) {
		return nil, fmt.Errorf("%s holds files and no index.html trajscope wrote: write the site into an empty or new directory", termsafe.Line(dir))
	}
	return &Site{dir: dir, o: o}, nil
}

// ours reports whether path is a regular file whose head names trajscope
// as its generator (an index this package wrote).
func ours(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 2048)
	n, _ := io.ReadFull(f, head)
	return bytes.Contains(head[:n], []byte(`<meta name="generator" content="trajscope">`))
}

// Add adds the next run of the list: its story (nil for a run that could
// not be read or analysed) and its row. It gets a page, run-N.html (N its
// position), unless it has no actions or is past what a page shows; skipped
// says why it has none ("" when it has one).
func (s *Site) Add(st *story.Story, row story.Row) (skipped string, err error) {
	pos := len(s.runs) + 1
	if st == nil {
		s.runs = append(s.runs, Run{Row: row, Task: row.ID})
		return "", nil
	}
	page := ""
	switch {
	case len(st.A.Run.Actions) == 0:
		skipped = "the run has no actions"
	default:
		if err := st.Fits("export site"); err != nil {
			skipped = err.Error()
			break
		}
		page = fmt.Sprintf("run-%d.html", pos)
		if err := s.write(page, func(w io.Writer) error {
			return html.Write(w, st, html.Options{Theme: s.o.Theme, Lens: s.o.Lens, Up: "index.html"})
		}); err != nil {
			return "", err
		}
		s.Pages++
	}
	r := Describe(st, page, s.o.Lens)
	r.Row = row
	s.runs = append(s.runs, r)
	return skipped, nil
}

// Finish writes a compare page for each task of several runs and the
// index, titled title. rows are the runs' rows as the list now shows them
// (analysed), in the order they were added; it returns the index's path.
func (s *Site) Finish(rows []story.Row, title string) (string, error) {
	if len(rows) != len(s.runs) {
		return "", fmt.Errorf("site: %d rows for %d runs", len(rows), len(s.runs))
	}
	byTask := map[string][]int{}
	var tasks []string
	for i := range s.runs {
		r := &s.runs[i]
		r.Row = rows[i]
		if r.Task == "" {
			r.Task = rows[i].ID
		}
		key := r.taskKey()
		if _, ok := byTask[key]; !ok {
			tasks = append(tasks, key)
		}
		byTask[key] = append(byTask[key], i)
	}
	compare := map[string]string{}
	for k, key := range tasks {
		idx := byTask[key]
		if len(idx) < 2 {
			continue
		}
		task := s.runs[idx[0]].Task
		name := ComparePage(task, k+1)
		compare[key] = name
		group := make([]Run, len(idx))
		for j, i := range idx {
			group[j] = s.runs[i]
		}
		if err := s.write(name, func(w io.Writer) error { return WriteCompare(w, task, group, s.o.Lens) }); err != nil {
			return "", err
		}
		s.Compares++
	}
	index := filepath.Join(s.dir, "index.html")
	return index, s.write("index.html", func(w io.Writer) error {
		return WriteIndex(w, s.runs, s.o.Lens, title, compare)
	})
}

// write writes one file of the site whole or not at all. A name trajscope
// chooses is never followed out of the directory: a link, a FIFO or a
// device found there is refused, not written through.
func (s *Site) write(name string, render func(io.Writer) error) error {
	path := filepath.Join(s.dir, name)
	if fi, err := os.Lstat(path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %s, not a file trajscope wrote: not written through (remove it, or write the site into a new directory)", termsafe.Line(path), kind(fi.Mode()))
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := render(f); err != nil {
		return fmt.Errorf("%s: %w", termsafe.Line(path), err)
	}
	return f.Commit()
}

// kind names what a file that is not a regular one is.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m.IsDir():
		return "a directory"
	case m&(fs.ModeDevice|fs.ModeCharDevice) != 0:
		return "a device"
	}
	return "not a regular file"
}
