package diagnose

import (
	"fmt"
	"slices"
	"sort"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Category is what became of a gold span or file by the end of a run. The
// order runs from worst to best, so a larger value got further.
type Category uint8

const (
	// NeverOpened: no step of the lens showed or named the file, and no
	// search listed it.
	NeverOpened Category = iota
	// SearchedNotRead: a search action listed the file (or a line of it),
	// but no step of the lens showed the file.
	SearchedNotRead
	// NearMiss: the lens showed the file but none of the span's lines;
	// Distance says how far the closest shown line was.
	NearMiss
	// ReadThenDropped: the lens showed some of the span's lines during the
	// run, but the final context holds none of them.
	ReadThenDropped
	// Found: the final context holds (some of) the span's lines, or for a
	// file, the final context's file set holds the file.
	Found
)

// NumCategories is the number of categories, for count arrays.
const NumCategories = 5

// NotScored is what becomes of every gold span and file under a lens the
// evaluator could not score (an error row: no_context_extracted,
// missing_gold…): nothing is "found" or "dropped" where nothing was scored.
// It stands outside the scale and is not counted (Diagnosis.Error says why).
const NotScored Category = 255

var (
	categoryKeys  = [NumCategories]string{"never_opened", "searched_not_read", "near_miss", "read_then_dropped", "found"}
	categoryNames = [NumCategories]string{"never opened", "searched, not read", "near miss", "read then dropped", "found"}
)

// String is the category as people read it ("read then dropped").
func (c Category) String() string {
	if c == NotScored {
		return "not scored"
	}
	if int(c) >= NumCategories {
		return fmt.Sprintf("Category(%d)", int(c))
	}
	return categoryNames[c]
}

// Key is the category's machine name ("read_then_dropped"), used in JSON.
func (c Category) Key() string {
	if c == NotScored {
		return "not_scored"
	}
	if int(c) >= NumCategories {
		return fmt.Sprintf("category_%d", int(c))
	}
	return categoryKeys[c]
}

// MarshalText writes Key.
func (c Category) MarshalText() ([]byte, error) { return []byte(c.Key()), nil }

// UnmarshalText reads Key.
func (c *Category) UnmarshalText(b []byte) error {
	if string(b) == "not_scored" {
		*c = NotScored
		return nil
	}
	for i, k := range categoryKeys {
		if string(b) == k {
			*c = Category(i)
			return nil
		}
	}
	return fmt.Errorf("unknown diagnosis category %q", b)
}

// Span is the diagnosis of one gold line span: a merged interval of the gold
// lines the line metric scores.
type Span struct {
	File string `json:"file"`
	// Start and End are the gold lines, inclusive, as the gold gives them
	// (not clamped to the file, as the line metric does not clamp them).
	Start    int      `json:"start"`
	End      int      `json:"end"`
	Category Category `json:"category"`
	// Step is the lens's 1-based step that first showed any line of the
	// span, 0 when none did.
	Step int32 `json:"step"`
	// Action is the index into Run.Actions of the action that came
	// closest: for found and read-then-dropped spans the first action that
	// showed any of its lines, for near misses the action whose shown
	// lines came nearest, for searched spans the search whose hit came
	// nearest (else the first). -1 when there is none.
	Action int32 `json:"action"`
	// Distance is, for a near miss, how many lines separate the span from
	// the closest shown line of its file (1-5 shown, 7-9 gold: 2); for a
	// searched span, from the closest hit line. -1 when unknown (the step
	// named the file without lines, the hit named no line); 0 otherwise.
	Distance int `json:"distance"`
	// SeenLines counts the span's lines shown during the run; FinalLines
	// those in the final context.
	SeenLines  int `json:"seen_lines"`
	FinalLines int `json:"final_lines"`
	// Declared marks a found span the run never showed: the final context
	// names lines the agent did not read.
	Declared bool `json:"declared,omitempty"`
	// Missing marks a gold file that is not in the repository.
	Missing bool `json:"missing,omitempty"`
}

// Lines is the span's length in lines.
func (s *Span) Lines() int { return s.End - s.Start + 1 }

// Partial reports a found span of which the final context kept only some
// lines: partial credit, not "found".
func (s *Span) Partial() bool { return s.FinalLines > 0 && s.FinalLines < s.Lines() }

// FoundLabel is "found", or "found k/n kept" for partial credit.
func (s *Span) FoundLabel() string {
	if s.Partial() {
		return fmt.Sprintf("found %d/%d kept", s.FinalLines, s.Lines())
	}
	return "found"
}

// File is the diagnosis of one gold file at file granularity. There is no
// near miss for a file.
type File struct {
	File     string   `json:"file"`
	Category Category `json:"category"`
	// Step is the lens's 1-based step that first named the file, 0 when
	// none did; Action the action of that step (or of the first search that
	// listed it, for a searched file), -1 when none.
	Step   int32 `json:"step"`
	Action int32 `json:"action"`
	// Declared: in the final context's files, never named by a step.
	Declared bool `json:"declared,omitempty"`
	// Missing: the gold file is not in the repository.
	Missing bool `json:"missing,omitempty"`
}

// Diagnosis is every gold file and gold line span of one run under one lens.
type Diagnosis struct {
	Lens string `json:"lens"`
	// Files are the gold files, sorted; Spans the gold line spans, sorted by
	// file and start line.
	Files      []File `json:"files"`
	Spans      []Span `json:"spans"`
	FileCounts Counts `json:"file_counts"`
	// Error is the evaluator's error for the lens when it could not score
	// it, Reason its explanation: every file and span is then NotScored
	// and the counts are zero.
	Error      string `json:"error,omitempty"`
	Reason     string `json:"reason,omitempty"`
	SpanCounts Counts `json:"span_counts"`
	// FoundLines qualifies SpanCounts' found: "found" is any overlap with
	// the final context, so the lines those spans kept of their own are
	// counted beside it ("3 found, 62 of 483 lines kept").
	FoundLines Kept `json:"found_lines"`
}

// ForFile returns the diagnoses of one file's gold spans.
func (d *Diagnosis) ForFile(file string) []Span {
	i := sort.Search(len(d.Spans), func(i int) bool { return d.Spans[i].File >= file })
	k := i
	for k < len(d.Spans) && d.Spans[k].File == file {
		k++
	}
	return d.Spans[i:k]
}

// DiagnoseBoth explains, under each lens (indexed by model.Lens), what
// became of every gold file and gold line span of an analysed run. The
// ContextBench lens's steps are the prediction's steps (its final context
// when it has none, as upstream scores it); the observed lens's steps are
// the actions that displayed lines. Search hits come from the timeline
// under both lenses; each lens has its own final context
// (LensData.FinalContext).
func DiagnoseBoth(a *scoring.Analysis) [2]*Diagnosis {
	hits := searchHits(a) // the run's, whatever the lens
	return [2]*Diagnosis{newDiagnoser(a, model.LensContextBench, hits).diagnosis(), newDiagnoser(a, model.LensObserved, hits).diagnosis()}
}

// diagnoser holds what one lens's diagnoses share: the steps by file, the
// final context and the search hits.
type diagnoser struct {
	a          *scoring.Analysis
	lens       model.Lens
	final      scoring.StepContext
	finalFiles map[string]bool
	hits       map[string][]searchHit
	missing    []string // sorted
	byFile     map[string]fileSteps
}

func newDiagnoser(a *scoring.Analysis, lens model.Lens, hits map[string][]searchHit) *diagnoser {
	d := &diagnoser{a: a, lens: lens, final: a.Lenses[lens].FinalContext,
		finalFiles: map[string]bool{}, hits: hits, missing: a.Gold.Missing,
		byFile: lensFiles(a, lens, true)}
	for _, f := range d.final.Files {
		d.finalFiles[f] = true
	}
	if !sort.StringsAreSorted(d.missing) {
		d.missing = slices.Sorted(slices.Values(d.missing))
	}
	return d
}

// isMissing reports a gold file the repository lacks. A sorted list, not a
// set: a gold of a million absent files costs nothing more here.
func (dg *diagnoser) isMissing(f string) bool {
	_, ok := slices.BinarySearch(dg.missing, f)
	return ok
}

// diagnosis diagnoses every gold file and span.
func (dg *diagnoser) diagnosis() *Diagnosis {
	a := dg.a
	d := &Diagnosis{Lens: dg.lens.String(), Files: make([]File, 0, len(a.Gold.Files)), Spans: []Span{}}
	files := a.Gold.Files
	if !sort.StringsAreSorted(files) {
		files = append([]string(nil), files...)
		sort.Strings(files)
	}
	for _, f := range files {
		fd := File{File: f, Action: -1, Missing: dg.isMissing(f)}
		if named := dg.byFile[f].Steps; len(named) > 0 {
			fd.Step, fd.Action = named[0].Number, named[0].Action
		}
		switch {
		case dg.finalFiles[f]:
			fd.Category = Found
			fd.Declared = fd.Step == 0
		case fd.Step > 0:
			fd.Category = ReadThenDropped
		case len(dg.hits[f]) > 0:
			fd.Category = SearchedNotRead
			fd.Action = dg.hits[f][0].action
		default:
			fd.Category = NeverOpened
		}
		d.Files = append(d.Files, fd)
		d.FileCounts[fd.Category]++
	}
	for f, ivs := range a.Gold.Lines.All() { // sorted by file
		fc := dg.file(f)
		spans := model.Merge(ivs)
		if list, ok := a.Gold.Listed.Get(f); ok {
			// Merging changed this file's spans (nested, overlapping,
			// adjacent): each is diagnosed as the gold lists it, so every
			// screen and count has the gold's own spans.
			spans = list
		}
		for _, iv := range spans {
			sp := fc.span(iv)
			d.Spans = append(d.Spans, sp)
			d.SpanCounts[sp.Category]++
			if sp.Category == Found {
				d.FoundLines.Add(Kept{sp.FinalLines, sp.Lines()})
			}
		}
	}
	if res := &a.Lenses[dg.lens].Result; res.Error != "" {
		d.unscored(res.Error, res.Reason)
	}
	return d
}

// unscored makes every file and span NotScored, for a lens the evaluator
// gave an error row.
func (d *Diagnosis) unscored(code, reason string) {
	d.Error, d.Reason = code, reason
	d.FileCounts, d.SpanCounts, d.FoundLines = Counts{}, Counts{}, Kept{}
	for i := range d.Files {
		f := &d.Files[i]
		f.Category, f.Step, f.Action, f.Declared = NotScored, 0, -1, false
	}
	for i := range d.Spans {
		sp := &d.Spans[i]
		sp.Category, sp.Step, sp.Action, sp.Distance, sp.SeenLines, sp.FinalLines, sp.Declared = NotScored, 0, -1, -1, 0, 0, false
	}
}

// fileCtx is what a file's span diagnoses share.
type fileCtx struct {
	dg          *diagnoser
	file        string
	seen, final []model.Interval // merged
}

func (dg *diagnoser) file(f string) fileCtx {
	return fileCtx{dg, f, dg.byFile[f].Lines, model.Merge(dg.final.Lines[f])}
}

// span diagnoses one gold interval of the file.
func (fc fileCtx) span(iv model.Interval) Span {
	dg := fc.dg
	sp := diagnoseSpan(fc.file, iv, dg.byFile[fc.file].Steps, fc.seen, fc.final, dg.hits[fc.file])
	sp.Missing = dg.isMissing(fc.file)
	return sp
}

// diagnoseSpan classifies one gold span from the steps that named its file
// (in order), the union of the lines they showed, the final context's lines
// of the file and the search hits on it.
func diagnoseSpan(file string, iv model.Interval, named []stepLines, seen, final []model.Interval, hits []searchHit) Span {
	sp := Span{File: file, Start: iv.Start, End: iv.End, Action: -1, Distance: -1}
	sp.FinalLines = overlap(final, iv.Start, iv.End)
	sp.SeenLines = overlap(seen, iv.Start, iv.End)
	if sp.SeenLines > 0 {
		for _, st := range named {
			if overlap(st.Lines, iv.Start, iv.End) > 0 {
				sp.Step, sp.Action = st.Number, st.Action
				break
			}
		}
	}

	switch {
	case sp.FinalLines > 0:
		sp.Category = Found
		sp.Declared = sp.Step == 0
		sp.Distance = 0
	case sp.SeenLines > 0:
		sp.Category = ReadThenDropped
		sp.Distance = 0
	case len(named) > 0:
		// The closest shown line; a step that named the file without lines
		// counts as opened at an unknown distance unless a read gives one.
		sp.Category = NearMiss
		sp.Action = named[0].Action
		for _, st := range named {
			for _, r := range st.Lines {
				if d := distance(r.Start, r.End, iv.Start, iv.End); sp.Distance < 0 || d < sp.Distance {
					sp.Distance, sp.Action = d, st.Action
				}
			}
		}
	case len(hits) > 0:
		sp.Category = SearchedNotRead
		sp.Action = hits[0].action
		for _, h := range hits {
			if h.line <= 0 {
				continue
			}
			if d := distance(h.line, h.line, iv.Start, iv.End); sp.Distance < 0 || d < sp.Distance {
				sp.Distance, sp.Action = d, h.action
			}
		}
	default:
		sp.Category = NeverOpened
	}
	return sp
}

// Describe says in one line what became of the span, with 1-based action
// numbers as the explorer's timeline shows them. File paths are not part of
// it; callers print them (through termsafe).
func (s *Span) Describe() string {
	switch s.Category {
	case NotScored:
		return "not scored under this lens"
	case Found:
		if s.Declared {
			return "found: in the final context, never shown during the run"
		}
		if s.FinalLines < s.Lines() {
			return fmt.Sprintf("found: first shown at %s, %d of %d lines kept in the final context", where(s.Step, s.Action), s.FinalLines, s.Lines())
		}
		return fmt.Sprintf("found: first shown at %s, kept in the final context", where(s.Step, s.Action))
	case ReadThenDropped:
		return fmt.Sprintf("read then dropped: %d of %d lines shown (first at %s), none in the final context", s.SeenLines, s.Lines(), where(s.Step, s.Action))
	case NearMiss:
		if s.Distance < 0 {
			return fmt.Sprintf("near miss: the file was opened (%s), but no lines of it were shown", where(0, s.Action))
		}
		return fmt.Sprintf("near miss: the file was read, the closest read was %d %s away (%s)", s.Distance, plural(s.Distance, "line"), where(0, s.Action))
	case SearchedNotRead:
		switch {
		case s.Distance == 0:
			return fmt.Sprintf("searched, not read: a search hit one of its lines (%s)", where(0, s.Action))
		case s.Distance > 0:
			return fmt.Sprintf("searched, not read: a search hit the file %d %s away (%s)", s.Distance, plural(s.Distance, "line"), where(0, s.Action))
		}
		return fmt.Sprintf("searched, not read: a search listed the file (%s)", where(0, s.Action))
	}
	if s.Missing {
		return "never opened: the file is not in the repository"
	}
	return "never opened"
}

// Describe says in one line what became of the file.
func (f *File) Describe() string {
	switch f.Category {
	case NotScored:
		return "not scored under this lens"
	case Found:
		if f.Declared {
			return "found: in the final context, never named by a step"
		}
		return fmt.Sprintf("found: first named at %s, kept in the final context", where(f.Step, f.Action))
	case ReadThenDropped:
		return fmt.Sprintf("read then dropped: named at %s, absent from the final context", where(f.Step, f.Action))
	case SearchedNotRead:
		return fmt.Sprintf("searched, not read: a search listed it (%s)", where(0, f.Action))
	}
	if f.Missing {
		return "never opened: the file is not in the repository"
	}
	return "never opened"
}

// where names the action (1-based, as the timeline numbers them), or the
// lens step when no action produced it (upstream's final-as-step fallback).
func where(step, action int32) string {
	switch {
	case action >= 0:
		return fmt.Sprintf("action %d", action+1)
	case step > 0:
		return fmt.Sprintf("step %d", step)
	}
	return "an unknown action"
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
