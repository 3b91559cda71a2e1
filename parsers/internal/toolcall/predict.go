package toolcall

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// NormPath turns a path as an agent wrote it into the form predictions
// carry: "/testbed/" and a leading "./" or "/" removed, as the upstream
// extractors do (mini-swe-agent, OpenHands). Everything else (a
// workspace or repository prefix) is left for the evaluator's suffix
// resolution, which drops paths outside the repository.
func NormPath(p string) string {
	p = strings.TrimSpace(p)
	p = strings.Trim(p, `"'`)
	p = strings.ReplaceAll(p, "\\", "/")
	if rest, ok := strings.CutPrefix(p, "/testbed/"); ok {
		p = rest
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return strings.TrimLeft(p, "/")
}

// Predict builds the ContextBench lens of a timeline for formats that have
// no upstream extractor: one step per action that displayed file lines (its
// files, and the line spans that are known without the file's length), and
// a final context that is the union of the steps (files sorted, spans merged
// per file), like upstream's OpenHands rule. It records in each action the
// step it produced. Whole-file, tail and to-the-end reads give the file
// only: their lines depend on the file's length, which the prediction
// cannot know (upstream treats `cat f` the same way).
func Predict(actions []model.Action) (steps []model.Step, final model.Step) {
	union := map[string][]model.Interval{}
	files := map[string]bool{}
	for i := range actions {
		a := &actions[i]
		a.Steps = nil
		st, ok := stepOf(a.Reads)
		if !ok {
			continue
		}
		a.Steps = []int{len(steps)}
		steps = append(steps, st)
		for _, f := range st.Files {
			files[f] = true
		}
		for _, fs := range st.Spans {
			union[fs.File] = append(union[fs.File], fs.Spans...)
		}
	}
	return steps, unionStep(files, union)
}

func stepOf(reads []model.ObservedRead) (model.Step, bool) {
	var st model.Step
	spans := map[string][]model.Interval{}
	seen := map[string]bool{}
	for _, r := range reads {
		f := NormPath(r.File)
		if f == "" {
			continue
		}
		if !seen[f] {
			seen[f] = true
			st.Files = append(st.Files, f)
		}
		var sp model.Interval
		switch r.Kind {
		case model.ReadRange:
			sp = model.Interval{Start: r.Start, End: r.End}
		case model.ReadHead:
			sp = model.Interval{Start: 1, End: r.End}
		default:
			continue
		}
		if sp.Start < 1 || sp.End < sp.Start {
			continue
		}
		dup := false
		for _, o := range spans[f] {
			dup = dup || o == sp
		}
		if !dup {
			spans[f] = append(spans[f], sp)
		}
	}
	if len(st.Files) == 0 {
		return st, false
	}
	sort.Strings(st.Files)
	for _, f := range st.Files {
		if len(spans[f]) > 0 {
			st.Spans = append(st.Spans, model.FileSpans{File: f, Spans: spans[f]})
		}
	}
	return st, true
}

func unionStep(files map[string]bool, spans map[string][]model.Interval) model.Step {
	var st model.Step
	for f := range files {
		st.Files = append(st.Files, f)
	}
	sort.Strings(st.Files)
	for _, f := range st.Files {
		if m := model.MergeIntervals(spans[f]); len(m) > 0 {
			st.Spans = append(st.Spans, model.FileSpans{File: f, Spans: m})
		}
	}
	return st
}

// AddUsage adds u to a's usage.
func AddUsage(a *model.Action, u model.Usage) { a.Usage = SumUsage(a.Usage, u) }

// SumUsage adds two usages field by field.
func SumUsage(a, b model.Usage) model.Usage { return a.Plus(b) }

// UsageZero reports whether u records nothing.
func UsageZero(u model.Usage) bool { return u == model.Usage{} }

// AnthropicUsage reads an Anthropic "usage" object. InputTokens is the
// uncached input, so Input+CacheRead+CacheWrite is what the model was sent.
func AnthropicUsage(v *jsontree.Value) model.Usage {
	m := v.Object()
	in, _ := m.Get("input_tokens").AnyInt()
	out, _ := m.Get("output_tokens").AnyInt()
	read, _ := m.Get("cache_read_input_tokens").AnyInt()
	write, _ := m.Get("cache_creation_input_tokens").AnyInt()
	return model.NewUsage(in, out, read, write)
}

// OpenAIUsage reads an OpenAI-style usage object (chat completions or the
// Responses API). Prompt tokens there include the cached ones, which are
// moved to CacheRead so that InputTokens means uncached input everywhere.
func OpenAIUsage(v *jsontree.Value) model.Usage {
	m := v.Object()
	prompt, ok := m.Get("prompt_tokens").AnyInt()
	if !ok {
		prompt, _ = m.Get("input_tokens").AnyInt()
	}
	output, ok := m.Get("completion_tokens").AnyInt()
	if !ok {
		output, _ = m.Get("output_tokens").AnyInt()
	}
	cached, ok := m.Path("prompt_tokens_details", "cached_tokens").AnyInt()
	if !ok {
		if cached, ok = m.Path("input_tokens_details", "cached_tokens").AnyInt(); !ok {
			cached, _ = m.Get("cache_read_input_tokens").AnyInt()
		}
	}
	write, _ := m.Get("cache_creation_input_tokens").AnyInt()
	if w, ok := m.Path("prompt_tokens_details", "cache_write_tokens").AnyInt(); ok && write == 0 {
		write = w
	}
	input := max(prompt-cached-write, 0)
	if prompt < cached+write {
		// A provider that reports prompt tokens without the cached part.
		input = prompt
	}
	return model.NewUsage(input, output, cached, write)
}

// Check reports a run that breaks the invariants every loader here keeps:
// actions numbered in order, reads well formed, step links in range and
// the final context sorted. Tests and fuzz targets call it.
func Check(run *model.Run) error {
	n := len(run.Prediction.Steps)
	for i, a := range run.Actions {
		if int(a.Index) != i {
			return fmt.Errorf("action %d has Index %d", i, a.Index)
		}
		for _, r := range a.Reads {
			ok := r.File != ""
			switch r.Kind {
			case model.ReadRange:
				ok = ok && r.Start >= 1 && r.End >= r.Start
			case model.ReadHead, model.ReadTail:
				ok = ok && r.End >= 1
			case model.ReadFrom:
				ok = ok && r.Start >= 1
			case model.ReadWindow:
				ok = ok && r.Start >= 1 && r.End >= 2
			case model.ReadWhole:
			default:
				ok = false
			}
			if !ok {
				return fmt.Errorf("action %d: bad read %+v", i, r)
			}
		}
		for _, s := range a.Steps {
			if s < 0 || s >= n {
				return fmt.Errorf("action %d: step %d out of %d", i, s, n)
			}
		}
	}
	if !sort.StringsAreSorted(run.Prediction.Final.Files) {
		return fmt.Errorf("final files not sorted: %v", run.Prediction.Final.Files)
	}
	return nil
}

// Cost reads a run's recorded cost in US dollars: a positive, finite JSON
// number, else 0 (not recorded).
func Cost(v *jsontree.Value) float64 {
	if f, ok := v.Float(); ok && f > 0 && !math.IsInf(f, 1) {
		return f
	}
	return 0
}
