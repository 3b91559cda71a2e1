// Package prometheus loads Prometheus answer_issue logs (.log): each
// "--- BEGIN CONTEXT ---" block is one retrieval step and the last
// "--- BEGIN AGGREGATED CONTEXT ---" block is the final context, exactly as
// the reference evaluator's agents/prometheus/extract.py reads them. The
// timeline has one read action per CONTEXT block.
package prometheus

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
)

// Name is the format name.
const Name = "prometheus"

const (
	beginContext = "--- BEGIN CONTEXT ---"
	endContext   = "--- END CONTEXT ---"
	beginAgg     = "--- BEGIN AGGREGATED CONTEXT ---"
	endAgg       = "--- END AGGREGATED CONTEXT ---"
)

var (
	fileRe = python.LazyRegexp(`^\s*File:\s*(.+?)\s*$`)
	// The reference pattern is re.IGNORECASE; Python's case-insensitive
	// "i" also matches U+0130 and U+0131, so the letters are spelled out.
	rangeRe = python.LazyRegexp(`^\s*[Ll][Ii\x{130}\x{131}][Nn][Ee]\s*[Nn][Uu][Mm][Bb][Ee][Rr]\s*[Rr][Aa][Nn][Gg][Ee]\s*:\s*(\d+)\s*-\s*(\d+)\s*$`)
)

// ErrNothingFound is returned for a log with no context at all, where the
// reference evaluator raises "Unsupported .log trajectory format".
var ErrNothingFound = errors.New("no BEGIN CONTEXT or BEGIN AGGREGATED CONTEXT block with a file and a line number range (the reference evaluator rejects such a .log)")

// Sniff reports a .log name or content holding the context markers.
func Sniff(name string, head []byte) bool {
	if strings.HasSuffix(name, ".log") {
		return true
	}
	return bytes.Contains(head, []byte(beginContext)) || bytes.Contains(head, []byte(beginAgg))
}

// Parse builds a run from a log's bytes; name is the file's base name.
func Parse(name string, data []byte) (*model.Run, error) {
	text := decode(data)
	var steps []model.Step
	var actions []model.Action
	var obs model.TextList // obs[i] is action i's
	for _, b := range extractBlocks(text, beginContext, endContext) {
		ranges := parseFileRanges(b.text)
		a := model.Action{Index: int32(len(actions)), Tool: "context", Category: model.CategoryRead,
			Command: "BEGIN CONTEXT (byte " + fmt.Sprint(b.offset) + ")"}
		for _, f := range ranges.files {
			if len(f.Spans) == 0 {
				a.Searches = append(a.Searches, model.SearchHit{File: f.File})
			}
			for _, sp := range f.Spans {
				a.Reads = append(a.Reads, model.ObservedRead{File: f.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
			}
		}
		if st, ok := ranges.step(); ok {
			a.Steps = []int{len(steps)}
			steps = append(steps, st)
		}
		actions, obs = append(actions, a), append(obs, b.text)
	}
	aggs := extractBlocks(text, beginAgg, endAgg)
	var final model.Step
	if len(aggs) > 0 {
		final, _ = parseFileRanges(aggs[len(aggs)-1].text).step()
	}
	if len(final.Files) == 0 {
		final = union(steps)
	}
	if len(steps) == 0 && len(final.Files) > 0 {
		steps = []model.Step{final}
		last := aggs[len(aggs)-1]
		actions = append(actions, model.Action{Index: int32(len(actions)), Tool: "aggregated_context", Category: model.CategoryRead,
			Command: "BEGIN AGGREGATED CONTEXT (byte " + fmt.Sprint(last.offset) + ")",
			Reads:   readsOf(final), Steps: []int{0}})
		obs = append(obs, last.text)
	}
	if len(steps) == 0 && len(final.Files) == 0 {
		return nil, ErrNothingFound
	}
	id := strings.ReplaceAll(name, ".log", "") // Python str.replace: every occurrence
	if !strings.HasSuffix(name, ".log") {
		id = strings.TrimSuffix(name, filepath.Ext(name))
	}
	return &model.Run{
		InstanceID:   id,
		Format:       Name,
		Agent:        "prometheus",
		Actions:      actions,
		Observations: obs,
		Prediction:   model.Prediction{InstanceID: id, Steps: steps, Final: final},
	}, nil
}

func readsOf(s model.Step) []model.ObservedRead {
	var out []model.ObservedRead
	for _, f := range s.Spans {
		for _, sp := range f.Spans {
			out = append(out, model.ObservedRead{File: f.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
		}
	}
	return out
}

// decode reads bytes as Python's open(encoding="utf-8", errors="replace")
// does: each maximal invalid subpart becomes U+FFFD, and universal newlines
// turn "\r\n" and "\r" into "\n".
func decode(b []byte) string {
	s := strings.ReplaceAll(python.DecodeUTF8(b), "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

type textBlock struct {
	text   string
	offset int
}

// extractBlocks finds non-nested begin..end blocks by plain string search;
// a begin without an end stops the search. Payloads lose surrounding
// newlines (strip("\n")).
func extractBlocks(text, begin, end string) []textBlock {
	var out []textBlock
	start := 0
	for {
		i := strings.Index(text[start:], begin)
		if i < 0 {
			break
		}
		i += start
		j := strings.Index(text[i+len(begin):], end)
		if j < 0 {
			break
		}
		j += i + len(begin)
		out = append(out, textBlock{text: strings.Trim(text[i+len(begin):j], "\n"), offset: i})
		start = j + len(end)
	}
	return out
}

// normalizeFile is _normalize_file_path: the two-character sequence `\\`
// becomes "/", then "/testbed/" and "/workspace/<first>/" are removed and
// leading slashes stripped.
func normalizeFile(p string) string {
	p = strings.ReplaceAll(python.StripSpace(p), `\\`, "/")
	if rest, ok := strings.CutPrefix(p, "/testbed/"); ok {
		p = rest
	} else if rest, ok := strings.CutPrefix(p, "/workspace/"); ok {
		first, tail, found := strings.Cut(rest, "/")
		if found {
			p = tail
		} else {
			p = first
		}
	}
	if strings.HasPrefix(p, "/") {
		p = python.LStrip(p, "/")
	}
	return p
}

type fileRanges struct {
	files []model.FileSpans // merged spans, files in first-seen order
}

// parseFileRanges reads File: and "Line number range: a - b" lines of a
// block; ranges are swapped when reversed and merged per file, and files
// with no range are kept (with no spans) only for the timeline.
func parseFileRanges(block string) fileRanges {
	var files []model.FileSpans
	index := map[string]int{}
	current := ""
	for _, line := range python.SplitLines(block) {
		if m := fileRe().FindStringSubmatch(line); m != nil {
			current = normalizeFile(m[1])
			if current != "" {
				if _, ok := index[current]; !ok {
					index[current] = len(files)
					files = append(files, model.FileSpans{File: current})
				}
			}
			continue
		}
		if m := rangeRe().FindStringSubmatch(line); m != nil && current != "" {
			a, _ := python.DigitsInt(m[1])
			b, _ := python.DigitsInt(m[2])
			if a > b {
				a, b = b, a
			}
			k := index[current]
			files[k].Spans = append(files[k].Spans, model.Interval{Start: a, End: b})
		}
	}
	for i := range files {
		files[i].Spans = model.MergeIntervals(files[i].Spans)
	}
	return fileRanges{files: files}
}

// step returns the unified step: files with at least one range, sorted, and
// their spans in first-seen order.
func (r fileRanges) step() (model.Step, bool) {
	var st model.Step
	for _, f := range r.files {
		if len(f.Spans) > 0 {
			st.Spans = append(st.Spans, f)
			st.Files = append(st.Files, f.File)
		}
	}
	sort.Strings(st.Files)
	return st, len(st.Files) > 0
}

// union is the final context when no aggregated block gives one: every
// step's spans, merged per file, files in first-seen order.
func union(steps []model.Step) model.Step {
	var files []model.FileSpans
	index := map[string]int{}
	for _, st := range steps {
		for _, f := range st.Spans {
			k, ok := index[f.File]
			if !ok {
				k = len(files)
				index[f.File] = k
				files = append(files, model.FileSpans{File: f.File})
			}
			files[k].Spans = append(files[k].Spans, f.Spans...)
		}
	}
	var out model.Step
	for _, f := range files {
		f.Spans = model.MergeIntervals(f.Spans)
		out.Spans = append(out.Spans, f)
		out.Files = append(out.Files, f.File)
	}
	sort.Strings(out.Files)
	return out
}
