// Package viewdata is what the explorer precomputes once when a run is
// opened, so that stepping only indexes arrays: each file's gutter marks
// (gold lines, the first action that read each line under each lens), the
// file picker's order, the place each action is about, and the search text.
// The metrics and the gold diagnosis come from the run's story (story.Tell);
// nothing here counts them again.
package viewdata

import (
	"slices"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

// Never is the first-read action of a line no action read.
const Never = scoring.Never

// Data is everything the panes show.
type Data struct {
	// S is the run's story: every figure and diagnosis the panes show.
	S   *story.Story
	A   *scoring.Analysis
	Run *model.Run
	// N is the number of actions.
	N int
	// Grouped is the timeline's order of the actions (model.Run.Grouped):
	// each sub-agent's under the call that started it.
	Grouped []int
	// above[i] is the action listed right above action i in Grouped, -1
	// for the first.
	above []int32
	// files holds the files made so far, by repo path: every file a step
	// read at once, a gold file when something asks for it (File), so a
	// gold of a million files the run never read costs nothing here.
	files map[string]*FileData
	// Order is the file picker's order: gold files, then other read files in
	// first-read order.
	Order []string
	// Gold lists every gold span (or whole gold file), sorted by file and
	// line, with its diagnosis under each lens.
	Gold []diagnose.GoldSpan
	// Diag is the end-of-run diagnosis under each lens.
	Diag [2]*diagnose.Diagnosis
	// Focus[lens][i] is the file and line action i is about under a lens,
	// for the source pane.
	Focus [2][]Target
	// Categories lists the categories present, in timeline glyph order.
	Categories []string
	// edits holds, by repository path, the recorded edits of each file in
	// run order, for the source as of a step.
	edits map[string][]Edit
	// launched[i] are the sub-agents action i started.
	launched map[int][]int
	// readOrder are the files read, gold files aside, each with the first
	// action that read it, in that order; seen holds them. present holds
	// each category with its first action. (A followed run's next reading
	// goes on from them: Next.)
	readOrder []firstRead
	seen      map[string]bool
	present   map[string]int32
}

type firstRead struct {
	file string
	at   int32
}

// Edit is a recorded change of a file and the action that made it.
type Edit struct {
	Action int
	model.Change
}

// EditsUpTo returns the recorded edits of file made by actions 0..cur, in
// order; nil when there are none.
func (d *Data) EditsUpTo(file string, cur int) []Edit {
	all := d.edits[file]
	n := 0
	for n < len(all) && all[n].Action <= cur {
		n++
	}
	return all[:n]
}

// Short is action i's command on one safe line. It is made when a row is
// drawn: a long run's would be held all at once for the few rows shown.
func (d *Data) Short(i int) string { return display.Short(d.A, i) }

// Row is action i as a timeline row shows it: a sub-agent's indented under
// the call that started it, named where its stretch starts; a call that
// started sub-agents with their names and sizes (folded: their actions
// are hidden).
func (d *Data) Row(i int, folded bool) string {
	short := d.Short(i)
	run := d.Run
	if len(run.Agents) < 2 {
		if run.Actions[i].Sidechain() {
			return display.AgentRow("", 1, false, short) // a sub-agent the run does not describe
		}
		return short
	}
	if ags := d.launched[i]; len(ags) > 0 {
		labels, counts := make([]string, len(ags)), make([]int, len(ags))
		for k, ag := range ags {
			labels[k], counts[k] = story.Label(run, ag), d.S.Agents[model.LensContextBench][ag].Actions
		}
		short = display.LaunchRow(labels, counts, folded, short)
	}
	ag := int(run.Actions[i].Agent)
	if ag <= 0 {
		return short
	}
	first := d.above[i] < 0 || int(run.Actions[d.above[i]].Agent) != ag
	return display.AgentRow(story.Label(run, ag), int(run.Agents[ag].Depth), first, short)
}

// AgentOf is the label of the agent that made action i ("lead" for a run of
// one agent).
func (d *Data) AgentOf(i int) string { return story.Label(d.Run, int(d.Run.Actions[i].Agent)) }

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
	// Gold are the file's gold line intervals, clipped to the file (as the
	// dataset gives them when the file is not in the tree).
	Gold []model.Interval
	// GoldLines counts gold lines inside the file.
	GoldLines int
	// Final are the file's lines in each lens's final context, merged.
	Final [2][]model.Interval
	// Known are the lines the run displayed, when the repository is missing
	// and the file is rebuilt from them (Partial); the other lines are
	// unknown.
	Known   []model.Interval
	Partial bool
	gold    []bool
	// First[lens][line] is the first action that read the line (1-based
	// line index; index 0 unused), or Never: the analysis's FirstReads
	// (nil when no action read the file).
	First [2][]int32
}

// InFinal reports whether a line is in the lens's final context.
func (f *FileData) InFinal(l model.Lens, line int) bool { return In(f.Final[l], line) }

// IsKnown reports whether the line's text is known: always with the
// repository, else when the run displayed it.
func (f *FileData) IsKnown(line int) bool { return !f.Partial || In(f.Known, line) }

// In reports whether line is in the merged, sorted intervals.
func In(ivs []model.Interval, line int) bool {
	k := sort.Search(len(ivs), func(k int) bool { return ivs[k].End >= line })
	return k < len(ivs) && ivs[k].Start <= line
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

// FirstAny returns the first action that read any line of the file under a
// lens, or Never.
func (f *FileData) FirstAny(l model.Lens) int {
	best := Never
	for _, v := range f.First[l] {
		best = min(best, int(v))
	}
	return best
}

// New precomputes a run's views from its story.
func New(st *story.Story) *Data { return build(st, nil) }

func build(st *story.Story, prev *Data) *Data {
	a := st.A
	run := a.Run
	d := &Data{S: st, A: a, Run: run, N: len(run.Actions), files: map[string]*FileData{}}
	from := 0 // the first action not kept from prev
	if prev != nil && prev.A.Files == a.Files && prev.A.Gold == a.Gold && prev.A.Sem == a.Sem {
		from = prev.samePrefix(a)
		d.goOn(prev, from)
	}
	d.Grouped = run.Grouped()
	d.above = make([]int32, d.N)
	for r, i := range d.Grouped {
		d.above[i] = -1
		if r > 0 {
			d.above[i] = int32(d.Grouped[r-1])
		}
	}
	// The agents each action started, from the story's per-agent figures
	// (nil for a run of one agent).
	for _, f := range st.Agents[model.LensContextBench] {
		if c := int(f.Call); f.Index > 0 && c >= 0 && c < d.N {
			if d.launched == nil {
				d.launched = map[int][]int{}
			}
			d.launched[c] = append(d.launched[c], f.Index)
		}
	}
	// The final context as the metrics count it (the lens's
	// FinalContext), clipped to each file.
	for _, l := range model.Lenses {
		for f, ivs := range a.Lenses[l].FinalContext.Lines {
			fd := d.file(f)
			for _, iv := range model.MergeIntervals(slices.Clone(ivs)) {
				if iv.Start, iv.End = max(iv.Start, 1), min(iv.End, fd.Lines); iv.Start <= iv.End {
					fd.Final[l] = append(fd.Final[l], iv)
				}
			}
		}
	}
	for _, l := range model.Lenses {
		if len(d.Focus[l]) != d.N {
			d.Focus[l] = make([]Target, d.N)
		}
		for i := range a.Lenses[l].Actions[:from] {
			if run.Actions[i].Category == model.CategorySubmit {
				// About the final context, which each reading makes again.
				d.Focus[l][i] = d.focus(a.Lenses[l].Actions[i].Lines, i, a.Lenses[l].FinalContext.Lines)
			}
		}
		for i := from; i < d.N; i++ {
			lines := a.Lenses[l].Actions[i].Lines
			for _, fl := range lines {
				d.file(fl.File)
			}
			d.Focus[l][i] = d.focus(lines, i, a.Lenses[l].FinalContext.Lines)
		}
	}
	for i := from; i < d.N; i++ {
		for _, c := range run.Actions[i].Changes {
			if f := a.Resolve(c.File); f != "" {
				if d.edits == nil {
					d.edits = map[string][]Edit{}
				}
				d.edits[f] = append(d.edits[f], Edit{i, c})
			}
		}
	}
	d.Gold, d.Diag = st.Gold.Spans, st.Gold.Diag
	d.order(from)
	d.categories(from)
	return d
}

// File returns a file's data, making it on first use; "" gives nil.
func (d *Data) File(path string) *FileData {
	if path == "" {
		return nil
	}
	return d.file(path)
}

// file returns (creating) a file's data.
func (d *Data) file(path string) *FileData {
	if fd, ok := d.files[path]; ok {
		return fd
	}
	fd := &FileData{Path: path}
	ok := d.A.Readable(path)
	if p := d.A.Partial; ok && p != nil {
		fd.Partial, fd.Known = true, d.A.Known(path)
	}
	if ok {
		fd.OK = true
		fd.Lines = d.A.LineCount(path)
		fd.Gold = d.A.GoldShown(path)
	}
	if !ok || fd.Partial && fd.Lines == 0 {
		// Not in the tree, or a file the run never displayed: keep the
		// spans as the dataset gave them, so the gold panel can still list
		// them and the jumps reach them.
		for _, iv := range d.A.GoldLines(path) {
			if iv.Start <= iv.End { // reversed upstream spans have no lines
				fd.Gold = append(fd.Gold, iv)
				fd.GoldLines += iv.End - iv.Start + 1
			}
		}
	}
	// Every per-line table is as long as the file, never as a span claims:
	// gold spans are input.
	fd.gold = make([]bool, fd.Lines+1)
	if fd.Lines > 0 {
		for _, iv := range fd.Gold {
			for l := max(iv.Start, 1); l <= min(iv.End, fd.Lines); l++ {
				if !fd.gold[l] {
					fd.gold[l] = true
					fd.GoldLines++
				}
			}
		}
	}
	for _, l := range model.Lenses {
		fd.First[l] = d.A.FirstReads(l, path)
	}
	d.files[path] = fd
	return fd
}

// focus picks the place an action is about: its first read, else the first
// file it edited, else its first search hit.
func (d *Data) focus(reads []model.FileSpans, i int, final map[string][]model.Interval) Target {
	// A read that shows gold is the one worth looking at, from its first
	// gold line, so a short pane still shows the gold.
	for _, fl := range reads {
		fd := d.file(fl.File)
		for _, iv := range fl.Spans {
			for _, g := range fd.Gold {
				if iv.Start <= g.End && g.Start <= iv.End {
					return Target{fl.File, max(iv.Start, g.Start)}
				}
			}
		}
	}
	if len(reads) > 0 && len(reads[0].Spans) > 0 {
		return Target{reads[0].File, reads[0].Spans[0].Start}
	}
	act := &d.Run.Actions[i]
	if act.Category == model.CategorySubmit {
		// Submitting: show the final context the agent declared.
		for _, fs := range d.Run.Prediction.Final.Spans {
			if f := d.A.Resolve(fs.File); f != "" && len(final[f]) > 0 {
				d.file(f)
				return Target{f, final[f][0].Start}
			}
		}
	}
	for _, e := range act.Edits {
		if f := d.A.Resolve(e); f != "" {
			d.file(f)
			return Target{f, 0}
		}
	}
	// A search is about the files it found; a gold file among them is the
	// one worth showing (searched, maybe never read).
	var hit Target
	for _, h := range act.Searches {
		f := d.A.Resolve(h.File)
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

// order lists gold files, then other files in first-read order; the
// files first read before action from are kept (readOrder).
func (d *Data) order(from int) {
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	gold := make(map[string]bool, len(d.A.Gold.Files))
	for _, f := range d.A.Gold.Files {
		gold[f] = true
	}
	for i := from; i < d.N; i++ {
		for _, l := range model.Lenses {
			for _, fl := range d.A.Lenses[l].Actions[i].Lines {
				if !gold[fl.File] && !d.seen[fl.File] {
					d.seen[fl.File] = true
					d.readOrder = append(d.readOrder, firstRead{fl.File, int32(i)})
				}
			}
		}
	}
	d.Order = make([]string, 0, len(d.A.Gold.Files)+len(d.readOrder))
	d.Order = append(d.Order, d.A.Gold.Files...)
	for _, r := range d.readOrder {
		d.Order = append(d.Order, r.file)
	}
}

// categories lists the categories present; those of actions before from
// are kept (present).
func (d *Data) categories(from int) {
	if d.present == nil {
		d.present = map[string]int32{}
	}
	for i := from; i < d.N; i++ {
		c := display.Category(&d.Run.Actions[i]).String()
		if _, ok := d.present[c]; !ok {
			d.present[c] = int32(i)
		}
	}
	for _, c := range display.CategoryOrder {
		if _, ok := d.present[c]; ok {
			d.Categories = append(d.Categories, c)
		}
	}
}

// Matches reports whether action i contains a lower-cased query.
func (d *Data) Matches(i int, q string) bool {
	if q == "" {
		return false
	}
	// Read as searched, not kept lower-cased: outputs and thoughts are
	// most of a run and held compressed.
	return strings.Contains(strings.ToLower(d.Run.Actions[i].Command), q) ||
		strings.Contains(strings.ToLower(d.Run.Thought(i)), q) ||
		strings.Contains(strings.ToLower(d.Run.Observation(i)), q)
}

// Task is the task statement to show (scoring.Analysis.Task).
func (d *Data) Task() (text, from string) { return d.A.Task() }

// TaskMatches counts the lines of the task statement that hold q (lower
// case).
func (d *Data) TaskMatches(q string) int {
	text, _ := d.Task()
	if q == "" || text == "" {
		return 0
	}
	n := 0
	for _, l := range strings.Split(strings.ToLower(text), "\n") {
		if strings.Contains(l, q) {
			n++
		}
	}
	return n
}
