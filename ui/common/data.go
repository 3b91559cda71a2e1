package common

import (
	"fmt"
	"math"
	"path"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// Never is the first-read action of a line no action read.
const Never = math.MaxInt32

// Data is everything the panes show, computed once when a run is opened so
// that stepping only indexes arrays.
type Data struct {
	A   *scoring.Analysis
	Run *model.Run
	// N is the number of actions.
	N    int
	Lens [2]LensData
	// Files holds every gold file and every file a step read, by repo path.
	Files map[string]*FileData
	// Order is the file picker's order: gold files, then other read files in
	// first-read order.
	Order []string
	// Gold lists every gold span (or whole gold file), sorted by file and
	// line, with its diagnosis under each lens.
	Gold []GoldSpan
	// Diag is the end-of-run diagnosis under each lens, computed once here:
	// it depends only on the run, so stepping never recomputes it.
	Diag [2]*diagnose.Diagnosis
	// Final is the run's final context, resolved to repository files.
	Final map[string][]model.Interval
	// Short is each action's command on one safe line.
	Short []string
	// Categories lists the categories present, in timeline glyph order.
	Categories []string
	search     []string
}

// LensData is one lens's per-action numbers.
type LensData struct {
	Lens model.Lens
	// Reads are the lines each action put in view under this lens.
	Reads [][]scoring.FileLines
	// NewGold counts gold lines first read by the action.
	NewGold []int
	// ReadLines and Reread count lines read and lines read before.
	ReadLines, Reread []int
	// Pure marks an action that only re-read known lines.
	Pure []bool
	// CumRead and CumReread are the redundancy counter up to the action.
	CumRead, CumReread []int
	// Cov[g][i] is the cumulative coverage at granularity g after action i.
	Cov [4][]float64
	// StepsDone[i] is how many of the lens's steps action i completed.
	StepsDone []int
	NumSteps  int
	Result    *model.Result
	// Focus is the file and line each action is about, for the source pane.
	Focus []Target
}

// Target is a place in a file.
type Target struct {
	File string
	Line int
}

// FileData is one repository file's per-line marks.
type FileData struct {
	Path  string
	Lines int
	OK    bool
	// Gold are the file's gold line intervals, clamped to the file.
	Gold []model.Interval
	// GoldLines counts gold lines inside the file.
	GoldLines int
	gold      []bool
	// First[lens][line] is the first action that read the line (1-based
	// line index; index 0 unused), or Never.
	First [2][]int32
}

// IsGold reports whether a line (1-based) is gold.
func (f *FileData) IsGold(line int) bool { return line > 0 && line < len(f.gold) && f.gold[line] }

// FirstRead returns the first action that read a line under a lens.
func (f *FileData) FirstRead(l model.Lens, line int) int {
	if line <= 0 || line >= len(f.First[l]) {
		return Never
	}
	return int(f.First[l][line])
}

// GoldSpan is one merged gold interval (or a whole file when the gold names
// no lines): when it was read under each lens, for the per-step display, and
// what became of it by the end of the run (package diagnose).
type GoldSpan struct {
	File string
	// Start, End are the gold lines as the gold gives them (the line metric
	// does not clamp them); 0,0 for a file-level entry.
	Start, End int
	FileLevel  bool
	Lines      int
	// firsts[lens] holds the first-read action of each line inside the
	// file, sorted.
	firsts [2][]int32
	// FoundAt is the first action that read any of its lines, or -1.
	FoundAt [2]int
	// InFinal: the final context holds some of its lines (the file, for a
	// file-level entry).
	InFinal bool
	// Span is the span's diagnosis under each lens; Whole the file's, for
	// a file-level entry. Exactly one of the two is set.
	Span  [2]*diagnose.Span
	Whole [2]*diagnose.File
}

// Category is what became of the span by the end of the run.
func (g *GoldSpan) Category(l model.Lens) diagnose.Category {
	if g.Span[l] != nil {
		return g.Span[l].Category
	}
	return g.Whole[l].Category
}

// Closest is the action (0-based) that came closest to the span, or -1.
func (g *GoldSpan) Closest(l model.Lens) int {
	if g.Span[l] != nil {
		return g.Span[l].Action
	}
	return g.Whole[l].Action
}

// Describe says in one line what became of the span (no file path).
func (g *GoldSpan) Describe(l model.Lens) string {
	if g.Span[l] != nil {
		return g.Span[l].Describe()
	}
	return g.Whole[l].Describe()
}

// ReadBy counts the span's lines read by action i (inclusive) under a lens.
func (g *GoldSpan) ReadBy(l model.Lens, i int) int {
	f := g.firsts[l]
	return sort.Search(len(f), func(k int) bool { return int(f[k]) > i })
}

// NewData precomputes a run's views from its analysis.
func NewData(a *scoring.Analysis) *Data {
	run := a.Run
	d := &Data{
		A: a, Run: run, N: len(run.Actions),
		Files: map[string]*FileData{},
		Final: map[string][]model.Interval{},
	}
	for _, f := range a.Gold.Files {
		d.file(f)
	}
	for _, fs := range run.Prediction.Final.Spans {
		r := a.Files.Resolve(fs.File)
		if r == "" {
			continue
		}
		for _, sp := range fs.Spans {
			d.Final[r] = append(d.Final[r], ordered(sp.Start, sp.End))
		}
	}
	for f := range d.Final {
		d.Final[f] = model.MergeIntervals(d.Final[f])
	}
	obs := make([][]scoring.FileLines, d.N)
	for i := range a.Actions {
		obs[i] = clampReads(d, a.Actions[i].Reads)
	}
	d.Lens[model.LensObserved] = d.lens(model.LensObserved, obs)
	d.Lens[model.LensContextBench] = d.lens(model.LensContextBench, cbReads(d))
	// The observed lens's counters are Analyze's own; ours must agree (a
	// test checks it), so the timeline and the metrics never disagree.
	ol := &d.Lens[model.LensObserved]
	for i, v := range a.Actions {
		ol.NewGold[i], ol.ReadLines[i], ol.Reread[i] = v.NewGold, v.ReadLines, v.Reread
		ol.Pure[i], ol.CumRead[i], ol.CumReread[i] = v.PureReread, v.CumRead, v.CumReread
	}
	for l := range d.Diag {
		d.Diag[l] = diagnose.Diagnose(a, model.Lens(l))
	}
	d.goldSpans()
	d.order()
	d.texts()
	return d
}

// file returns (creating) a file's data.
func (d *Data) file(path string) *FileData {
	if fd, ok := d.Files[path]; ok {
		return fd
	}
	fd := &FileData{Path: path}
	if _, ok := d.A.Files.Content(path); ok {
		fd.OK = true
		fd.Lines = d.A.Files.LineCount(path)
	}
	fd.gold = make([]bool, fd.Lines+1)
	for _, iv := range d.A.GoldLines(path) {
		if iv.Start > iv.End {
			continue // reversed upstream spans have no lines
		}
		if !fd.OK {
			// Not in the tree (or no repository): keep the spans as the
			// dataset gave them, so the gold panel can still list them.
			fd.Gold = append(fd.Gold, iv)
			fd.GoldLines += iv.End - iv.Start + 1
			continue
		}
		s, e := max(1, iv.Start), min(fd.Lines, iv.End)
		if s > e {
			continue
		}
		fd.Gold = append(fd.Gold, model.Interval{Start: s, End: e})
		for l := s; l <= e; l++ {
			if !fd.gold[l] {
				fd.gold[l] = true
				fd.GoldLines++
			}
		}
	}
	for l := range fd.First {
		fd.First[l] = make([]int32, fd.Lines+1)
		for i := range fd.First[l] {
			fd.First[l][i] = Never
		}
	}
	d.Files[path] = fd
	return fd
}

// clampReads keeps a copy of reads clamped to their files, merged.
func clampReads(d *Data, reads []scoring.FileLines) []scoring.FileLines {
	var out []scoring.FileLines
	for _, fl := range reads {
		fd := d.file(fl.File)
		var ivs []model.Interval
		for _, iv := range fl.Lines {
			iv = ordered(iv.Start, iv.End)
			s, e := max(1, iv.Start), min(fd.Lines, iv.End)
			if s <= e {
				ivs = append(ivs, model.Interval{Start: s, End: e})
			}
		}
		if len(ivs) > 0 {
			out = append(out, scoring.FileLines{File: fl.File, Lines: model.MergeIntervals(ivs)})
		}
	}
	return out
}

// cbReads turns each action's ContextBench steps into line reads: a step
// belongs to the first action that lists it.
func cbReads(d *Data) [][]scoring.FileLines {
	run, a := d.Run, d.A
	out := make([][]scoring.FileLines, d.N)
	claimed := map[int]bool{}
	for i := range run.Actions {
		var reads []scoring.FileLines
		idx := map[string]int{}
		for _, s := range run.Actions[i].Steps {
			if claimed[s] || s < 0 || s >= len(run.Prediction.Steps) {
				continue
			}
			claimed[s] = true
			for _, fs := range run.Prediction.Steps[s].Spans {
				f := a.Files.Resolve(fs.File)
				if f == "" {
					continue
				}
				k, ok := idx[f]
				if !ok {
					k = len(reads)
					idx[f] = k
					reads = append(reads, scoring.FileLines{File: f})
				}
				for _, sp := range fs.Spans {
					reads[k].Lines = append(reads[k].Lines, model.Interval{Start: sp.Start, End: sp.End})
				}
			}
		}
		out[i] = clampReads(d, reads)
	}
	return out
}

// lens computes one lens's per-action counters and first-read marks.
func (d *Data) lens(l model.Lens, reads [][]scoring.FileLines) LensData {
	n := d.N
	ld := LensData{
		Lens: l, Reads: reads,
		NewGold: make([]int, n), ReadLines: make([]int, n), Reread: make([]int, n),
		Pure: make([]bool, n), CumRead: make([]int, n), CumReread: make([]int, n),
		StepsDone: d.A.Lenses[l].StepsDone,
		Result:    &d.A.Lenses[l].Result,
		Focus:     make([]Target, n),
	}
	// Steps as scored, or as the run produced them when scoring failed.
	ld.NumSteps = len(ld.Result.Trajectory.Steps)
	if n := len(ld.StepsDone); n > 0 {
		ld.NumSteps = max(ld.NumSteps, ld.StepsDone[n-1])
	}
	for g := range ld.Cov {
		ld.Cov[g] = make([]float64, n)
	}
	cumR, cumRR := 0, 0
	for i := 0; i < n; i++ {
		for _, fl := range reads[i] {
			fd := d.Files[fl.File]
			first := fd.First[l]
			for _, iv := range fl.Lines {
				for line := iv.Start; line <= iv.End; line++ {
					ld.ReadLines[i]++
					switch {
					case first[line] == Never:
						first[line] = int32(i)
						if fd.gold[line] {
							ld.NewGold[i]++
						}
					case int(first[line]) < i:
						ld.Reread[i]++
					}
				}
			}
		}
		ld.Pure[i] = ld.ReadLines[i] > 0 && ld.Reread[i] == ld.ReadLines[i]
		cumR += ld.ReadLines[i]
		cumRR += ld.Reread[i]
		ld.CumRead[i], ld.CumReread[i] = cumR, cumRR
		cov := d.A.Coverage(l, i)
		for g, name := range model.Granularities {
			ld.Cov[g][i] = *cov.At(name)
		}
		ld.Focus[i] = d.focus(reads[i], i)
	}
	return ld
}

// focus picks the place an action is about: its first read, else the first
// file it edited, else its first search hit.
func (d *Data) focus(reads []scoring.FileLines, i int) Target {
	// A read that shows gold is the one worth looking at, from its first
	// gold line, so a short pane still shows the gold.
	for _, fl := range reads {
		fd := d.Files[fl.File]
		for _, iv := range fl.Lines {
			for _, g := range fd.Gold {
				if iv.Start <= g.End && g.Start <= iv.End {
					return Target{fl.File, max(iv.Start, g.Start)}
				}
			}
		}
	}
	if len(reads) > 0 && len(reads[0].Lines) > 0 {
		return Target{reads[0].File, reads[0].Lines[0].Start}
	}
	act := &d.Run.Actions[i]
	if act.Category == model.CategorySubmit {
		// Submitting: show the final context the agent declared.
		for _, fs := range d.Run.Prediction.Final.Spans {
			if f := d.A.Files.Resolve(fs.File); f != "" && len(d.Final[f]) > 0 {
				d.file(f)
				return Target{f, d.Final[f][0].Start}
			}
		}
	}
	for _, e := range act.Edits {
		if f := d.A.Files.Resolve(e); f != "" {
			d.file(f)
			return Target{f, 0}
		}
	}
	// A search is about the files it found; a gold file among them is the
	// one worth showing (searched, maybe never read).
	var hit Target
	for _, h := range act.Searches {
		f := d.A.Files.Resolve(h.File)
		if f == "" {
			continue
		}
		if hit.File == "" {
			hit = Target{f, h.Line}
		}
		if fd := d.file(f); fd.IsGold(h.Line) || (h.Line == 0 && fd.GoldLines > 0) {
			return Target{f, h.Line}
		}
	}
	return hit
}

// goldSpans lists the diagnosed spans, adding when each lens first read
// them. Files with gold but no gold lines become one file-level entry.
func (d *Data) goldSpans() {
	cb, obs := d.Diag[model.LensContextBench], d.Diag[model.LensObserved]
	// The spans depend only on the gold, so both lenses list the same ones;
	// the key lookup only guards against that ever changing.
	type key struct {
		file       string
		start, end int
	}
	obsSpans := map[key]*diagnose.Span{}
	for k := range obs.Spans {
		sp := &obs.Spans[k]
		obsSpans[key{sp.File, sp.Start, sp.End}] = sp
	}
	obsFiles := map[string]*diagnose.File{}
	for k := range obs.Files {
		obsFiles[obs.Files[k].File] = &obs.Files[k]
	}
	withLines := map[string]bool{}
	for k := range cb.Spans {
		withLines[cb.Spans[k].File] = true
	}
	s, f := 0, 0
	for s < len(cb.Spans) || f < len(cb.Files) {
		// Merge the two sorted lists by file: a file's spans, or the file
		// itself when it has none.
		if f < len(cb.Files) && (s == len(cb.Spans) || cb.Files[f].File < cb.Spans[s].File) {
			fd := &cb.Files[f]
			f++
			if withLines[fd.File] {
				continue
			}
			g := GoldSpan{File: fd.File, FileLevel: true, InFinal: fd.Category == diagnose.Found}
			g.Whole = [2]*diagnose.File{fd, obsFiles[fd.File]}
			if g.Whole[model.LensObserved] == nil {
				g.Whole[model.LensObserved] = fd
			}
			d.Gold = append(d.Gold, d.found(g))
			continue
		}
		sp := &cb.Spans[s]
		s++
		g := GoldSpan{File: sp.File, Start: sp.Start, End: sp.End, Lines: sp.Lines(), InFinal: sp.FinalLines > 0}
		g.Span = [2]*diagnose.Span{sp, obsSpans[key{sp.File, sp.Start, sp.End}]}
		if g.Span[model.LensObserved] == nil {
			g.Span[model.LensObserved] = sp
		}
		d.Gold = append(d.Gold, d.found(g))
	}
}

// found fills in when each lens first read the span, line by line.
func (d *Data) found(g GoldSpan) GoldSpan {
	fd := d.file(g.File)
	for l := range g.firsts {
		g.FoundAt[l] = -1
		if g.FileLevel {
			g.FoundAt[l] = d.fileFirstRead(model.Lens(l), g.File)
			continue
		}
		// Lines past the end of the file can never be read.
		fs := make([]int32, 0, g.Lines)
		for line := max(g.Start, 1); line <= min(g.End, fd.Lines); line++ {
			fs = append(fs, int32(fd.FirstRead(model.Lens(l), line)))
		}
		sort.Slice(fs, func(a, b int) bool { return fs[a] < fs[b] })
		g.firsts[l] = fs
		if len(fs) > 0 && fs[0] != Never {
			g.FoundAt[l] = int(fs[0])
		}
	}
	return g
}

// fileFirstRead is the first action that read any line of a file, or -1.
func (d *Data) fileFirstRead(l model.Lens, f string) int {
	best := Never
	for _, v := range d.Files[f].First[l] {
		best = min(best, int(v))
	}
	if best == Never {
		return -1
	}
	return best
}

// order lists gold files, then other files in first-read order.
func (d *Data) order() {
	seen := map[string]bool{}
	for _, f := range d.A.Gold.Files {
		seen[f] = true
		d.Order = append(d.Order, f)
	}
	for i := 0; i < d.N; i++ {
		for l := range d.Lens {
			for _, fl := range d.Lens[l].Reads[i] {
				if !seen[fl.File] {
					seen[fl.File] = true
					d.Order = append(d.Order, fl.File)
				}
			}
		}
	}
}

func (d *Data) texts() {
	d.Short = make([]string, d.N)
	d.search = make([]string, d.N)
	present := map[string]bool{}
	for i := range d.Run.Actions {
		act := &d.Run.Actions[i]
		d.Short[i] = ShortCommand(act)
		if act.Category == model.CategoryRead && len(d.A.Actions[i].Reads) > 0 {
			d.Short[i] = compactRead(d.A.Actions[i].Reads)
		}
		d.search[i] = strings.ToLower(act.Command + "\n" + act.Observation + "\n" + act.Thought)
		present[string(Category(act))] = true
	}
	for _, c := range CategoryOrder {
		if present[c] {
			d.Categories = append(d.Categories, c)
		}
	}
}

// Matches reports whether action i contains a lower-cased query.
func (d *Data) Matches(i int, q string) bool {
	return q != "" && strings.Contains(d.search[i], q)
}

// CategoryOrder is the order categories are filtered in.
var CategoryOrder = []string{"read", "search", "edit", "run", "submit", "other"}

// Category is an action's category, "other" when the parser left it empty.
func Category(act *model.Action) model.Category {
	if act.Category == "" {
		return model.CategoryOther
	}
	return act.Category
}

// ShortCommand is an action's command on one safe line, with the sandbox
// prefixes that only add noise removed.
func ShortCommand(act *model.Action) string {
	s := act.Command
	if s == "" {
		s = act.Tool
	}
	s = strings.TrimSpace(s)
	more := false
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		s, more = s[:k], true
	}
	for _, p := range []string{"cd /testbed && ", "cd /testbed; "} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.ReplaceAll(s, "/testbed/", "")
	s = strings.Join(strings.Fields(s), " ")
	if more {
		s += " …"
	}
	return termsafe.Line(s)
}

// compactRead shows a read as what it displayed ("discounts.py:41-75"):
// read commands differ mostly in the file and lines, which a long pipeline
// pushes out of a narrow timeline. The full command is in the observation.
func compactRead(reads []scoring.FileLines) string {
	var parts []string
	for _, fl := range reads {
		var rs []string
		for _, iv := range fl.Lines {
			rs = append(rs, fmt.Sprintf("%d-%d", iv.Start, iv.End))
		}
		parts = append(parts, termsafe.Line(path.Base(fl.File))+":"+strings.Join(rs, ","))
	}
	return strings.Join(parts, " ")
}

func ordered(a, b int) model.Interval {
	if a > b {
		a, b = b, a
	}
	return model.Interval{Start: a, End: b}
}
