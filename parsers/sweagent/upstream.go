package sweagent

import (
	"fmt"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
)

// This file reproduces contextbench/agents/sweagent/extract.py: what the
// ContextBench evaluator counts as a step and as the final context.

// pyWS is the character set of Python's \s on str (str.isspace()); RE2's \s
// is ASCII-only, and parity needs the Unicode set.
const pyWS = `\t\n\v\f\r\x1c-\x1f \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}`

// viewRe is upstream's
// r'str_replace_editor view\s+(\S+)(?:\s+--view_range\s+(\d+)\s+(\d+))?'
// with Python's Unicode \s and \d.
var viewRe = lazyre.New(`str_replace_editor view[` + pyWS + `]+([^` + pyWS + `]+)(?:[` + pyWS + `]+--view_range[` + pyWS + `]+(\p{Nd}+)[` + pyWS + `]+(\p{Nd}+))?`)

// View is what upstream's extract_view_command returns: a path and a range,
// with (1, -1) standing for "no range given".
type View struct {
	Path       string
	Start, End int
}

// ExtractView is upstream's extract_view_command: ok is false when the
// action is not a `str_replace_editor view` (a double space breaks the
// literal). Without two non-negative integers after --view_range the range
// is (1, -1), so `--view_range 3 -1` and `[3, 9]` read as whole-file views.
func ExtractView(action string) (v View, ok bool) {
	if action == "" || !strings.Contains(action, "str_replace_editor view") {
		return View{}, false
	}
	m := viewRe().FindStringSubmatch(action)
	if m == nil {
		return View{}, false
	}
	if m[2] != "" && m[3] != "" {
		a, err1 := python.Int(m[2])
		b, err2 := python.Int(m[3])
		if err1 == nil && err2 == nil {
			return View{Path: m[1], Start: a, End: b}, true
		}
	}
	return View{Path: m[1], Start: 1, End: -1}, true
}

// NormalizePath is upstream's _normalize_file_path: strip "/testbed/", or
// else one leading "/".
func NormalizePath(p string) string {
	if strings.HasPrefix(p, "/testbed/") {
		return p[len("/testbed/"):]
	}
	return strings.TrimPrefix(p, "/")
}

// PatchContextError is upstream's ValueError from a malformed `Lines:` range
// (e.g. "1-2-3" or "a-b"), which aborts extraction of the whole file.
type PatchContextError struct {
	Line  int // 1-based line within the patch_context text
	Range string
	Err   error
}

func (e *PatchContextError) Error() string {
	return fmt.Sprintf("patch_context line %d: Lines: %q: expected START-END with two integers (upstream raises ValueError and aborts the file): %v", e.Line, e.Range, e.Err)
}

// ParsePatchContext is upstream's parse_patch_context. It splits on "\n"
// only, registers a File: even when no Lines: follow, keeps reversed ranges
// as written, lets int() ignore spaces around the numbers, and returns the
// files in first-seen order. A range that does not split into exactly two
// integers is an error, as in upstream.
func ParsePatchContext(s string) ([]model.FileSpans, error) {
	var out []model.FileSpans
	index := map[string]int{}
	current := ""
	for i, line := range strings.Split(python.StripSpace(s), "\n") {
		line = python.StripSpace(line)
		switch {
		case strings.HasPrefix(line, "File:"):
			// str.replace removes every "File:", not only the prefix.
			current = NormalizePath(python.StripSpace(strings.ReplaceAll(line, "File:", "")))
			if _, seen := index[current]; !seen {
				index[current] = len(out)
				out = append(out, model.FileSpans{File: current, Spans: []model.Interval{}})
			}
		case strings.HasPrefix(line, "Lines:") && current != "":
			rng := python.StripSpace(strings.ReplaceAll(line, "Lines:", ""))
			if !strings.Contains(rng, "-") {
				continue
			}
			parts := strings.Split(rng, "-")
			if len(parts) != 2 {
				return nil, &PatchContextError{Line: i + 1, Range: rng, Err: fmt.Errorf("%d values to unpack, want 2", len(parts))}
			}
			a, err := python.Int(parts[0])
			if err != nil {
				return nil, &PatchContextError{Line: i + 1, Range: rng, Err: err}
			}
			b, err := python.Int(parts[1])
			if err != nil {
				return nil, &PatchContextError{Line: i + 1, Range: rng, Err: err}
			}
			k := index[current]
			out[k].Spans = append(out[k].Spans, model.Interval{Start: a, End: b})
		}
	}
	return out, nil
}

// filesOf lists the files of parsed spans, in order.
func filesOf(spans []model.FileSpans) []string {
	files := make([]string, 0, len(spans))
	for _, fs := range spans {
		files = append(files, fs.File)
	}
	return files
}

// sortedStep is the step upstream builds for .traj and patch_context.txt:
// files = sorted(keys), spans in parse order.
func sortedStep(spans []model.FileSpans) model.Step {
	files := filesOf(spans)
	sort.Strings(files)
	return model.Step{Files: files, Spans: spans}
}

// viewStep is the step one qualifying view produces.
func viewStep(v View) model.Step {
	p := NormalizePath(v.Path)
	return model.Step{
		Files: []string{p},
		Spans: []model.FileSpans{{File: p, Spans: []model.Interval{{Start: v.Start, End: v.End}}}},
	}
}
