package openhands

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// This file reproduces contextbench/agents/openhands/extract.py (event
// histories) and extract_llm_completions.py (llm_completions directories):
// what the ContextBench evaluator counts as a step and as the final context.

// Variant selects between the two upstream extractors, whose path
// normalisation and command patterns differ.
type Variant int

const (
	// History is extract.py: output.jsonl and the Multi per-language JSONL.
	History Variant = iota
	// Completions is extract_llm_completions.py.
	Completions
)

// skipWords make upstream ignore a whole command.
var skipWords = []string{"git add", "git commit", "rm ", "mkdir", "echo ", "sed -i"}

var (
	sedRe  = python.LazyRegexp(`sed\s+-n\s+['"]?(\d+),(\d+)p['"]?\s+([^\s&|>;<]+)`)
	nlRe   = python.LazyRegexp(`nl\s+[^|]+\s+([^\s|]+)\s*\|\s*sed\s+-n\s+['"]?(\d+),(\d+)p`)
	headRe = python.LazyRegexp(python.ReWordStart + `head\s+-n\s+(\d+)\s+([^\s&|>]+)`)
	catRe  = python.LazyRegexp(python.ReWordStart + `cat\s+(?:-n\s+)?([^\s&|>]+)`)
	grepRe = python.LazyRegexp(python.ReWordStart + `grep\s+.*\s+([^\s&|>;<'"]+\.(?:py|js|java|go|rs|c|cpp|h|hpp|ts|tsx|jsx|rb|php|cs|kt|scala|swift))(?:\s*(?:\||&|;|$))`)
)

// NormalizePath is the variant's path normalisation. History: strip blanks
// and quotes, "/testbed/", every leading "/", then one "./" (so
// "/workspace/repo__0.1/x.py" stays "workspace/repo__0.1/x.py" and suffix
// resolution fixes it later). Completions: the same with "/workspace/"
// instead of "/testbed/".
func NormalizePath(p string, v Variant) string {
	p = python.Strip(python.StripSpace(p), `'"`)
	prefix := "/testbed/"
	if v == Completions {
		prefix = "/workspace/"
	}
	p = strings.TrimPrefix(p, prefix)
	if strings.HasPrefix(p, "/") {
		p = python.LStrip(p, "/")
	}
	return strings.TrimPrefix(p, "./")
}

// view is one file region a command or read showed; a file-only view has
// hasRange false.
type view struct {
	file       string
	start, end int
	hasRange   bool
}

// RunCommandStep is the step upstream takes from one shell command, or
// ok=false when the command yields no file. History applies sed, nl|sed,
// head, cat (optionally -n) and one grep, each over the whole command (no
// splitting on && or ;), and drops duplicate views. Completions applies
// sed, head and cat (only for paths containing "/") and keeps duplicates.
func RunCommandStep(cmd string, v Variant) (model.Step, bool, error) {
	if cmd == "" {
		return model.Step{}, false, nil
	}
	for _, w := range skipWords {
		if strings.Contains(cmd, w) {
			return model.Step{}, false, nil
		}
	}
	var views []view
	add := func(file string, start, end int, hasRange bool) {
		p := NormalizePath(file, v)
		if p != "" {
			views = append(views, view{p, start, end, hasRange})
		}
	}
	ints := func(a, b string) (int, int, error) {
		x, err := python.Int(a)
		if err != nil {
			return 0, 0, err
		}
		y, err := python.Int(b)
		return x, y, err
	}
	for _, m := range sedRe().FindAllStringSubmatch(cmd, -1) {
		a, b, err := ints(m[1], m[2])
		if err != nil {
			return model.Step{}, false, err
		}
		add(m[3], a, b, true)
	}
	if v == History {
		for _, m := range nlRe().FindAllStringSubmatch(cmd, -1) {
			a, b, err := ints(m[2], m[3])
			if err != nil {
				return model.Step{}, false, err
			}
			add(python.Strip(m[1], `'"`), a, b, true)
		}
	}
	for _, m := range headRe().FindAllStringSubmatch(cmd, -1) {
		n, err := python.Int(m[1])
		if err != nil {
			return model.Step{}, false, err
		}
		add(python.Strip(m[2], `'"`), 1, n, true)
	}
	for _, m := range catRe().FindAllStringSubmatch(cmd, -1) {
		raw := python.Strip(m[1], `'"`)
		if v == Completions && !strings.Contains(raw, "/") {
			continue
		}
		add(raw, 0, 0, false)
	}
	if v == History {
		if m := grepRe().FindStringSubmatch(cmd); m != nil {
			f := m[1]
			if strings.Contains(f, "/") || !strings.ContainsAny(f, `*?"`) {
				add(f, 0, 0, false)
			}
		}
		views = dedupViews(views)
	}
	if len(views) == 0 {
		return model.Step{}, false, nil
	}
	return stepFromViews(views), true, nil
}

func dedupViews(views []view) []view {
	seen := map[view]bool{}
	var out []view
	for _, w := range views {
		if !w.hasRange {
			w.start, w.end = 0, 0
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// stepFromViews: files are the sorted set, spans keep view order.
func stepFromViews(views []view) model.Step {
	set := map[string]bool{}
	var spans []model.FileSpans
	index := map[string]int{}
	for _, w := range views {
		set[w.file] = true
		if !w.hasRange {
			continue
		}
		k, ok := index[w.file]
		if !ok {
			k = len(spans)
			index[w.file] = k
			spans = append(spans, model.FileSpans{File: w.file})
		}
		spans[k].Spans = append(spans[k].Spans, model.Interval{Start: w.start, End: w.end})
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	sort.Strings(files)
	return model.Step{Files: files, Spans: spans}
}

// ReadStep is the step upstream takes from a `read` action's args (History)
// or a str_replace_editor view call (Completions). view_range wins when it
// holds two integers > 0; History then accepts start/end with start >= 0
// and end > 0 (start 0 meaning 1); otherwise the file alone counts.
func ReadStep(args *jsontree.Value, v Variant) (model.Step, bool, error) {
	raw := args.Get("path").Text()
	if raw == "" {
		return model.Step{}, false, nil
	}
	p := NormalizePath(raw, v)
	if p == "" {
		return model.Step{}, false, nil
	}
	step := model.Step{Files: []string{p}}
	span := func(a, b int) {
		step.Spans = []model.FileSpans{{File: p, Spans: []model.Interval{{Start: a, End: b}}}}
	}
	vr, isList := args.Get("view_range").Items(), args.Get("view_range").Is(jsontree.Array)
	switch v {
	case Completions:
		// int(view_range[i]) accepts integral numbers and numeric strings.
		if isList && len(vr) >= 2 {
			a, err := pyIntValue(vr[0])
			if err != nil {
				return model.Step{}, false, fmt.Errorf("view_range[0]: %v", err)
			}
			b, err := pyIntValue(vr[1])
			if err != nil {
				return model.Step{}, false, fmt.Errorf("view_range[1]: %v", err)
			}
			if a > 0 && b > 0 {
				span(a, b)
			}
		}
	default:
		a, okA := 0, false
		b, okB := 0, false
		if isList && len(vr) >= 2 {
			a, okA = vr[0].Int()
			b, okB = vr[1].Int()
		}
		if okA && okB && a > 0 && b > 0 {
			span(a, b)
			break
		}
		s, okS := args.Get("start").Int()
		e, okE := args.Get("end").Int()
		if okS && okE && s >= 0 && e > 0 {
			if s == 0 {
				s = 1
			}
			span(s, e)
		}
	}
	return step, true, nil
}

// pyIntValue is Python's int(x) for a decoded JSON value: integers as they
// are, floats truncated, numeric strings parsed; anything else fails.
func pyIntValue(x *jsontree.Value) (int, error) {
	switch {
	case x.Is(jsontree.Bool):
		if x.Bool {
			return 1, nil
		}
		return 0, nil
	case x.Is(jsontree.String):
		return python.Int(x.Str)
	}
	if n, ok := x.Int(); ok {
		return n, nil
	}
	if f, err := strconv.ParseFloat(numText(x), 64); err == nil && f > -1<<62 && f < 1<<62 {
		return int(f), nil
	}
	return 0, fmt.Errorf("int() of %s", x.Describe())
}

// numText is a number's text, "" for anything else.
func numText(x *jsontree.Value) string {
	if x.Is(jsontree.Number) {
		return x.Str
	}
	return ""
}

// UnionFinal is upstream's final context for OpenHands: the sorted set of
// every step's files and, per file in first-seen order, its spans sorted and
// merged when they overlap or touch.
func UnionFinal(steps []model.Step) model.Step {
	set := map[string]bool{}
	var order []string
	byFile := map[string][]model.Interval{}
	for _, s := range steps {
		for _, f := range s.Files {
			set[f] = true
		}
		for _, fs := range s.Spans {
			if _, ok := byFile[fs.File]; !ok {
				order = append(order, fs.File)
				byFile[fs.File] = []model.Interval{}
			}
			byFile[fs.File] = append(byFile[fs.File], fs.Spans...)
		}
	}
	files := make([]string, 0, len(set))
	for f := range set {
		files = append(files, f)
	}
	sort.Strings(files)
	final := model.Step{Files: files}
	for _, f := range order {
		final.Spans = append(final.Spans, model.FileSpans{File: f, Spans: mergeIntervals(byFile[f])})
	}
	return final
}

// mergeIntervals sorts (start, end) pairs and merges overlapping or
// adjacent ones, as upstream's _merge_intervals.
func mergeIntervals(in []model.Interval) []model.Interval {
	if len(in) == 0 {
		return []model.Interval{}
	}
	return model.MergeIntervals(in)
}
