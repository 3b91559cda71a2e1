// Package agentless loads Agentless six-stage trajectories (*_traj.json) as
// the reference evaluator's agents/agentless/extract.py reads them: the
// combined localised files, symbols by name from the related elements, and
// line spans from the first sampled edit location that names lines. The
// whole retrieval is one ContextBench step, and the timeline one action
// (Agentless makes no tool calls).
package agentless

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Name is the format name.
const Name = "agentless"

var (
	lineRe     = python.LazyRegexp(`^line\s*:\s*(\d+)\s*$`)
	linesRe    = python.LazyRegexp(`^lines\s*:\s*(\d+)\s*-\s*(\d+)\s*$`)
	functionRe = python.LazyRegexp(`^function\s*:\s*`)
	classRe    = python.LazyRegexp(`^class\s*:\s*`)
	variableRe = python.LazyRegexp(`^variable\s*:\s*`)
)

// stageKeys are the keys only Agentless trajectories carry.
var stageKeys = []string{`"3_final_combined_files"`, `"4_related_elements"`, `"5_sampled_edit_locs_and_patches"`,
	`"6_final_selected_patch"`, `"1_model_selected_files"`, `"2_embedding_selected_files"`}

// Sniff reports a *_traj.json name (that is not a mini-swe-agent
// .traj.json) or content with the Agentless stage keys.
func Sniff(name string, head []byte) bool {
	if strings.HasSuffix(name, "_traj.json") {
		return true
	}
	h := bytes.TrimLeft(head, " \t\r\n")
	if len(h) == 0 || h[0] != '{' {
		return false
	}
	n := 0
	for _, k := range stageKeys {
		if bytes.Contains(head, []byte(k)) {
			n++
		}
	}
	return n >= 2
}

// Parse builds a run from a trajectory's bytes; name is the file's base
// name.
func Parse(name string, data []byte) (*model.Run, error) {
	if !utf8.Valid(data) {
		return nil, fmt.Errorf("invalid UTF-8 (the reference reads the file as strict UTF-8)")
	}
	doc, err := jsontree.Parse(data)
	if err != nil {
		return nil, err
	}
	run := &model.Run{Format: Name, Agent: "agentless"}
	run.InstanceID = instanceID(name, doc)
	run.Prediction.InstanceID = run.InstanceID
	if doc.Kind != jsontree.Object {
		// The reference returns an empty prediction for a non-object.
		return run, nil
	}
	files, err := predFiles(doc)
	if err != nil {
		return nil, err
	}
	symbols := relatedSymbols(doc)
	spans, err := editLocSpans(doc)
	if err != nil {
		return nil, err
	}
	step := model.Step{Files: files, Spans: spans, Symbols: symbols}
	run.Prediction.Steps = []model.Step{step}
	run.Prediction.Final = step
	if p, ok := doc.Lookup("6_final_selected_patch"); ok && p.Kind == jsontree.String {
		run.Prediction.ModelPatch = p.Str
	}
	act, obs := timelineAction(doc, step)
	run.Actions, run.Observations = []model.Action{act}, model.TextList{obs}
	return run, nil
}

// instanceID is the base name with every "_traj.json" removed (Python
// str.replace), overridden by a truthy data["instance_id"]. A renamed file
// uses its name minus the extension.
func instanceID(name string, doc *jsontree.Value) string {
	id := strings.ReplaceAll(name, "_traj.json", "")
	if !strings.HasSuffix(name, "_traj.json") {
		id = strings.TrimSuffix(name, filepath.Ext(name))
	}
	if v, ok := doc.Lookup("instance_id"); ok && v.Truthy() {
		switch v.Kind {
		case jsontree.String:
			id = v.Str
		case jsontree.Number:
			id = v.Str
		}
	}
	return id
}

// iterStrings lists what Python's `for f in value` yields that is a
// non-empty string: list items, a string's characters, a dict's keys.
// Iterating a number or boolean raises TypeError upstream.
func iterStrings(v *jsontree.Value, where string) ([]string, error) {
	var out []string
	switch v.Kind {
	case jsontree.Array:
		for _, x := range v.Arr {
			if x.Kind == jsontree.String && x.Str != "" {
				out = append(out, x.Str)
			}
		}
	case jsontree.String:
		for _, r := range v.Str {
			out = append(out, string(r))
		}
	case jsontree.Object:
		for _, m := range v.Obj {
			if m.Key != "" {
				out = append(out, m.Key)
			}
		}
	default:
		return nil, fmt.Errorf("%s: %s cannot be iterated, expected a list of files", where, v.Kind.Article())
	}
	return out, nil
}

// predFiles is sorted(set(3_final_combined_files or
// 2_embedding_selected_files or [])).
func predFiles(doc *jsontree.Value) ([]string, error) {
	var src *jsontree.Value
	where := ""
	for _, k := range []string{"3_final_combined_files", "2_embedding_selected_files"} {
		if v, ok := doc.Lookup(k); ok && v.Truthy() {
			src, where = v, k
			break
		}
	}
	if src == nil {
		return nil, nil
	}
	list, err := iterStrings(src, where)
	if err != nil {
		return nil, err
	}
	set := map[string]bool{}
	var files []string
	for _, f := range list {
		if !set[f] {
			set[f] = true
			files = append(files, f)
		}
	}
	sort.Strings(files)
	return files, nil
}

// normSymbol is _norm_symbol: strip, drop one "function:", then "class:",
// then "variable:" prefix (in that order, each once), strip again.
func normSymbol(s string) string {
	s = python.StripSpace(s)
	for _, re := range []func() *regexp.Regexp{functionRe, classRe, variableRe} {
		s = re().ReplaceAllString(s, "")
	}
	return python.StripSpace(s)
}

// symbolsFromBlocks is _extract_symbols_from_blocks: lines of the string
// items that start with function:, class: or variable:.
func symbolsFromBlocks(items *jsontree.Value) []string {
	if items == nil || items.Kind != jsontree.Array {
		return nil
	}
	var out []string
	for _, it := range items.Arr {
		if it.Kind != jsontree.String || it.Str == "" {
			continue
		}
		for _, line := range python.SplitLines(it.Str) {
			line = python.StripSpace(line)
			if strings.HasPrefix(line, "function:") || strings.HasPrefix(line, "class:") || strings.HasPrefix(line, "variable:") {
				if sym := normSymbol(line); sym != "" {
					out = append(out, sym)
				}
			}
		}
	}
	return out
}

// relatedSymbols reads 4_related_elements: file -> sorted set of names,
// files with none left out, in the file order of the JSON object.
func relatedSymbols(doc *jsontree.Value) []model.FileSymbols {
	rel, ok := doc.Lookup("4_related_elements")
	if !ok || rel.Kind != jsontree.Object {
		return nil
	}
	var out []model.FileSymbols
	for _, m := range rel.Obj {
		if m.Key == "" {
			continue
		}
		syms := symbolsFromBlocks(m.Val)
		if len(syms) == 0 {
			continue
		}
		sort.Strings(syms)
		uniq := syms[:1]
		for _, s := range syms[1:] {
			if s != uniq[len(uniq)-1] {
				uniq = append(uniq, s)
			}
		}
		out = append(out, model.FileSymbols{File: m.Key, Symbols: uniq})
	}
	return out
}

// editLocSpans reads the first sample of 5_sampled_edit_locs_and_patches
// whose edit_locs mention "line:" or "lines:", and parses every file's
// location strings into merged line spans.
func editLocSpans(doc *jsontree.Value) ([]model.FileSpans, error) {
	samples, ok := doc.Lookup("5_sampled_edit_locs_and_patches")
	if !ok || !samples.Truthy() || samples.Kind != jsontree.Array {
		return nil, nil
	}
	var chosen *jsontree.Value
	for _, s := range samples.Arr {
		locs, ok := s.Lookup("edit_locs")
		if !ok || locs.Kind != jsontree.Object {
			continue
		}
		if hasLine(locs) {
			chosen = locs
			break
		}
	}
	if chosen == nil {
		return nil, nil
	}
	var out []model.FileSpans
	for _, m := range chosen.Obj {
		if m.Key == "" || m.Val.Kind != jsontree.Array {
			continue
		}
		spans, err := parseEditLocLines(m.Val)
		if err != nil {
			return nil, fmt.Errorf("5_sampled_edit_locs_and_patches: edit_locs[%q]: %w", m.Key, err)
		}
		if spans = model.MergeIntervals(spans); len(spans) > 0 {
			out = append(out, model.FileSpans{File: m.Key, Spans: spans})
		}
	}
	return out, nil
}

func hasLine(locs *jsontree.Value) bool {
	for _, m := range locs.Obj {
		if m.Val.Kind != jsontree.Array {
			continue
		}
		for _, raw := range m.Val.Arr {
			if raw.Kind == jsontree.String && (strings.Contains(raw.Str, "line:") || strings.Contains(raw.Str, "lines:")) {
				return true
			}
		}
	}
	return false
}

// matchLines applies the two anchored patterns to one string.
func matchLines(s string) (model.Interval, bool) {
	if m := linesRe().FindStringSubmatch(s); m != nil {
		a, _ := python.DigitsInt(m[1])
		b, _ := python.DigitsInt(m[2])
		if a > b {
			a, b = b, a
		}
		return model.Interval{Start: a, End: b}, true
	}
	if m := lineRe().FindStringSubmatch(s); m != nil {
		a, _ := python.DigitsInt(m[1])
		return model.Interval{Start: a, End: a}, true
	}
	return model.Interval{}, false
}

// parseEditLocLines is _parse_edit_loc_lines: each string whole, else each
// of its lines. A truthy non-string item makes the reference's .strip()
// raise.
func parseEditLocLines(items *jsontree.Value) ([]model.Interval, error) {
	var spans []model.Interval
	for i, it := range items.Arr {
		if !it.Truthy() {
			continue
		}
		if it.Kind != jsontree.String {
			return nil, fmt.Errorf("item %d is %s, expected a string", i, it.Kind.Article())
		}
		raw := python.StripSpace(it.Str)
		if raw == "" {
			continue
		}
		if sp, ok := matchLines(raw); ok {
			spans = append(spans, sp)
			continue
		}
		for _, line := range python.SplitLines(raw) {
			line = python.StripSpace(line)
			if line == "" {
				continue
			}
			if sp, ok := matchLines(line); ok {
				spans = append(spans, sp)
			}
		}
	}
	return spans, nil
}

// timelineAction is the run's single action: the localisation with the
// files it named (search hits) and the spans it pinned (reads), and its
// observation.
func timelineAction(doc *jsontree.Value, step model.Step) (model.Action, string) {
	a := model.Action{Tool: "agentless", Command: "localize", Category: model.CategoryRead, Steps: []int{0}}
	withSpans := map[string]bool{}
	for _, fs := range step.Spans {
		withSpans[fs.File] = true
		for _, sp := range fs.Spans {
			a.Reads = append(a.Reads, model.ObservedRead{File: fs.File, Kind: model.ReadRange, Start: sp.Start, End: sp.End})
		}
	}
	for _, f := range step.Files {
		if !withSpans[f] {
			a.Searches = append(a.Searches, model.SearchHit{File: f})
		}
	}
	// The observation summarises the stages so the viewer can show them.
	var b strings.Builder
	for _, k := range []string{"1_model_selected_files", "2_embedding_selected_files", "3_final_combined_files"} {
		if v, ok := doc.Lookup(k); ok && v.Kind == jsontree.Array {
			var names []string
			for _, x := range v.Arr {
				if x.Kind == jsontree.String {
					names = append(names, x.Str)
				}
			}
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(names, ", "))
		}
	}
	for _, fs := range step.Symbols {
		fmt.Fprintf(&b, "4_related_elements %s: %s\n", fs.File, strings.Join(fs.Symbols, ", "))
	}
	for _, fs := range step.Spans {
		var parts []string
		for _, sp := range fs.Spans {
			parts = append(parts, fmt.Sprintf("%d-%d", sp.Start, sp.End))
		}
		fmt.Fprintf(&b, "5_edit_locs %s: %s\n", fs.File, strings.Join(parts, ", "))
	}
	return a, strings.TrimSuffix(b.String(), "\n")
}
