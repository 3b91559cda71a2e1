// Package agentlessloc loads Agentless localization outputs
// (loc_outputs.jsonl, and the loc_merged_*/loc_all_merged_outputs.jsonl
// files its --merge step writes): one JSON line per instance with the three
// localization stages found_files, found_related_locs and found_edit_locs.
//
// Each stage that ran becomes one timeline action: the model's raw answer
// is its observation, the files it named are search hits, and the edit
// stage's "line: N" / "lines: a-b" locations are its reads (Agentless has
// no tool output, so the declared locations stand in for what was looked
// at). The ContextBench lens follows upstream's Agentless rule
// (agents/agentless/extract.py), so scores match: exactly one step holding the files, the symbols named by
// the related-locations stage (function:/class:/variable:) and the edit
// stage's line spans, merged; the final is the same step.
//
// The stage fields come in the shapes Agentless versions write: a list
// parallel to found_files (each entry a string or a list of strings), a map
// from file to strings, or a list of such per sample (num_samples > 1);
// the merged files hold one string per file.
package agentlessloc

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "agentless-loc"

var (
	foundFilesRe = lazyre.New(`"found_files"\s*:`)
	instanceRe   = lazyre.New(`"instance_id"\s*:`)
	linesRe      = lazyre.New(`^lines\s*:\s*(\d+)\s*-\s*(\d+)\s*$`)
	lineRe       = lazyre.New(`^line\s*:\s*(\d+)\s*$`)
	symbolRe     = lazyre.New(`^(?:function|class|variable)\s*:\s*`)
)

// Sniff reports whether a file holds Agentless localization records: JSON
// lines with "instance_id" and "found_files".
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || t[0] != '{' {
		return false
	}
	first := t
	if i := bytes.IndexByte(t, '\n'); i >= 0 {
		first = t[:i]
	}
	return foundFilesRe().Match(first) && instanceRe().Match(first)
}

// ParseRuns reads every record of data, the content of the file at path:
// ParseRuns reads every record of data, the content of the file at path:
// one run per instance.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	var runs []model.Run
	for _, ln := range toolcall.Lines(data) {
		v, err := toolcall.Decode(ln.Text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: invalid JSON record: %v", path, ln.No, err)
		}
		rec := v.Object()
		if rec == nil {
			return nil, fmt.Errorf("%s:%d: expected a JSON object with instance_id and found_files", path, ln.No)
		}
		run, err := record(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, ln.No, err)
		}
		run.Path = path
		runs = append(runs, run)
	}
	if len(runs) == 0 {
		return nil, fmt.Errorf("%s: no records (expected JSON lines with instance_id and found_files)", path)
	}
	return runs, nil
}

func record(rec *jsontree.Value) (model.Run, error) {
	id := rec.Get("instance_id").Text()
	if id == "" {
		return model.Run{}, fmt.Errorf("instance_id: expected a non-empty string")
	}
	ff := rec.Get("found_files")
	if !ff.IsNull() && !ff.Is(jsontree.Array) {
		return model.Run{}, fmt.Errorf("found_files: expected a list of paths")
	}
	var files []string
	seen := map[string]bool{}
	for i, f := range ff.Items() {
		s, ok := f.AsString()
		if !ok {
			return model.Run{}, fmt.Errorf("found_files[%d]: expected a path string", i)
		}
		if s != "" && !seen[s] {
			seen[s] = true
			files = append(files, s)
		}
	}
	run := model.Run{InstanceID: id, Format: Name, Agent: "agentless"}
	var obs model.TextList // obs[i] is action i's

	// Stage 1: files.
	if len(files) > 0 || len(rec.Get("file_traj").Members()) > 0 {
		a, out := stageAction("localize_files", "found_files", rec.Get("file_traj"))
		if out == "" {
			out = rec.Path("additional_artifact_loc_file", "raw_output_files").Text()
		}
		for _, f := range files {
			a.Searches = append(a.Searches, model.SearchHit{File: f})
		}
		run.Actions, obs = append(run.Actions, a), append(obs, out)
	}

	// Stage 2: related classes, functions and variables.
	related := locsByFile(rec.Get("found_related_locs"), files)
	symbols := map[string]map[string]bool{}
	if len(related) > 0 || hasTraj(rec.Get("related_loc_traj")) {
		a, out := stageAction("localize_related", "found_related_locs", rec.Get("related_loc_traj"))
		for _, fl := range related {
			a.Searches = append(a.Searches, model.SearchHit{File: fl.file})
			for _, s := range fl.locs {
				for _, line := range strings.Split(s, "\n") {
					line = strings.TrimSpace(line)
					if loc := symbolRe().FindStringIndex(line); loc != nil && line[loc[1]:] != "" {
						if symbols[fl.file] == nil {
							symbols[fl.file] = map[string]bool{}
						}
						symbols[fl.file][line[loc[1]:]] = true
					}
				}
			}
		}
		run.Actions, obs = append(run.Actions, a), append(obs, out)
	}

	// Stage 3: edit locations (line numbers).
	edit := editLocs(rec.Get("found_edit_locs"), files)
	spans := map[string][]model.Interval{}
	if len(edit) > 0 || hasTraj(rec.Get("edit_loc_traj")) {
		a, out := stageAction("localize_edit", "found_edit_locs", rec.Get("edit_loc_traj"))
		for _, fl := range edit {
			a.Searches = append(a.Searches, model.SearchHit{File: fl.file})
			for _, s := range fl.locs {
				for _, sp := range lineSpans(s) {
					spans[fl.file] = append(spans[fl.file], sp)
					if sp.Start >= 1 {
						a.Reads = append(a.Reads, model.ObservedRead{File: fl.file, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
					}
				}
			}
		}
		if len(a.Reads) > 0 {
			a.Category = model.CategoryRead
		}
		run.Actions, obs = append(run.Actions, a), append(obs, out)
	}
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	run.Observations = obs

	// The ContextBench step: upstream's single Agentless step.
	var st model.Step
	st.Files = append(st.Files, files...)
	sort.Strings(st.Files)
	for _, f := range slices.Sorted(maps.Keys(spans)) {
		if m := model.MergeIntervals(spans[f]); len(m) > 0 {
			st.Spans = append(st.Spans, model.FileSpans{File: f, Spans: m})
		}
	}
	for _, f := range slices.Sorted(maps.Keys(symbols)) {
		var names []string
		for n := range symbols[f] {
			names = append(names, n)
		}
		sort.Strings(names)
		st.Symbols = append(st.Symbols, model.FileSymbols{File: f, Symbols: names})
	}
	run.Prediction = model.Prediction{InstanceID: id, Steps: []model.Step{st}, Final: st}
	if n := len(run.Actions); n > 0 {
		run.Actions[n-1].Steps = []int{0}
	}
	return run, nil
}

// stageAction makes the action of one stage, and its observation, from its
// trajectory record ({"response", "usage", "prompt"}, or a list of them).
func stageAction(tool, field string, traj *jsontree.Value) (model.Action, string) {
	a := model.Action{Tool: tool, Command: field, Category: model.CategorySearch}
	trajs := traj.Items()
	if !traj.Is(jsontree.Array) && !traj.IsNull() {
		trajs = []*jsontree.Value{traj}
	}
	var out []string
	for _, t := range trajs {
		m := t.Object()
		r := m.Get("response")
		if s, ok := r.AsString(); ok {
			out = append(out, s)
		}
		for _, x := range r.Items() {
			if s, ok := x.AsString(); ok {
				out = append(out, s)
			}
		}
		toolcall.AddUsage(&a, toolcall.OpenAIUsage(m.Get("usage")))
	}
	return a, strings.Join(out, "\n\n")
}

func hasTraj(v *jsontree.Value) bool {
	return len(v.Members()) > 0 || len(v.Items()) > 0
}

// fileLocs is the location strings given for one file.
type fileLocs struct {
	file string
	locs []string
}

// locsByFile reads one stage's locations: a map file → strings, or a list
// parallel to files whose entries are strings or lists of strings.
func locsByFile(v *jsontree.Value, files []string) []fileLocs {
	var out []fileLocs
	switch {
	case v.Is(jsontree.Object):
		members := slices.Clone(v.Obj)
		slices.SortFunc(members, func(a, b jsontree.Member) int { return strings.Compare(a.Key, b.Key) })
		for _, m := range members {
			if locs := strs(m.Val); len(locs) > 0 && m.Key != "" {
				out = append(out, fileLocs{m.Key, locs})
			}
		}
	case v.Is(jsontree.Array):
		for i, e := range v.Arr {
			if i >= len(files) {
				break
			}
			if locs := strs(e); len(locs) > 0 {
				out = append(out, fileLocs{files[i], locs})
			}
		}
	}
	return out
}

// editLocs reads found_edit_locs. With several samples (a list of per-file
// lists or of maps), upstream takes the first sample that names lines.
func editLocs(v *jsontree.Value, files []string) []fileLocs {
	if l := v.Items(); isSamples(l) {
		var first []fileLocs
		for i, s := range l {
			locs := locsByFile(s, files)
			if i == 0 {
				first = locs
			}
			for _, fl := range locs {
				for _, s := range fl.locs {
					if strings.Contains(s, "line:") || strings.Contains(s, "lines:") {
						return locs
					}
				}
			}
		}
		return first
	}
	return locsByFile(v, files)
}

// isSamples says whether a found_edit_locs list holds samples: its entries
// are maps, or lists whose own entries are lists.
func isSamples(l []*jsontree.Value) bool {
	for _, e := range l {
		if e.Is(jsontree.Object) {
			return true
		}
		for _, y := range e.Items() {
			if y.Is(jsontree.Array) {
				return true
			}
		}
	}
	return false
}

// strs flattens a string or a (nested) list of strings.
func strs(v *jsontree.Value) []string {
	switch {
	case v.Is(jsontree.String):
		if strings.TrimSpace(v.Str) != "" {
			return []string{v.Str}
		}
	case v.Is(jsontree.Array):
		var out []string
		for _, e := range v.Arr {
			if s, ok := e.AsString(); ok {
				if strings.TrimSpace(s) != "" {
					out = append(out, s)
				}
			}
		}
		return out
	}
	return nil
}

// lineSpans parses "line: N" and "lines: a-b" as upstream does: the whole
// string first, then each of its lines. Reversed ranges are swapped.
func lineSpans(s string) []model.Interval {
	if sp, ok := oneSpan(strings.TrimSpace(s)); ok {
		return []model.Interval{sp}
	}
	var out []model.Interval
	for _, line := range strings.Split(s, "\n") {
		if sp, ok := oneSpan(strings.TrimSpace(line)); ok {
			out = append(out, sp)
		}
	}
	return out
}

func oneSpan(s string) (model.Interval, bool) {
	if m := linesRe().FindStringSubmatch(s); m != nil {
		a, err1 := strconv.Atoi(m[1])
		b, err2 := strconv.Atoi(m[2])
		if err1 != nil || err2 != nil {
			return model.Interval{}, false
		}
		if a > b {
			a, b = b, a
		}
		return model.Interval{Start: a, End: b}, true
	}
	if m := lineRe().FindStringSubmatch(s); m != nil {
		a, err := strconv.Atoi(m[1])
		if err != nil {
			return model.Interval{}, false
		}
		return model.Interval{Start: a, End: a}, true
	}
	return model.Interval{}, false
}
