package miniswe

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// The reference extractor's patterns (agents/minisweagent/extract.py),
// translated to RE2 with Python's Unicode classes. Python's \b is spelled
// out as python.ReWordStart before a word and "a non-word character or the end"
// after one; consuming that character does not change which submatch
// re.search picks.
const nonWord = `[^` + python.ReWordChar + `]`

var (
	exploreRe = python.LazyRegexp(`<explore_context>\s*([\s\S]*?)\s*</explore_context>`)
	patchRe   = python.LazyRegexp(`<PATCH_CONTEXT>\s*([\s\S]*?)\s*</PATCH_CONTEXT>`)
	bashRe    = python.LazyRegexp("```bash\\s*\\r?\\n([\\s\\S]*?)\\r?\\n```")
	imageRe   = python.LazyRegexp(`_m_([A-Za-z0-9_.-]+)(?::|$)`)
	linesRe   = python.LazyRegexp(`^(\d+)\s*-\s*(\d+)`)
	chunkRe   = python.LazyRegexp(`\s*(?:&&|\|\||;)\s*`)
	nlSedRe   = python.LazyRegexp(`nl\s+[^|]+\s+([^\s|]+)\s*\|\s*sed\s+-n\s+['"]?(\d+),(\d+)p`)
	sedRe     = python.LazyRegexp(`sed\s+-n\s+['"]?(\d+),(\d+)p['"]?\s+([^\s&|>;<]+)`)
	headRe    = python.LazyRegexp(python.ReWordStart + `head\s+-n\s+(\d+)\s+([^\s&|>]+)`)
	catRe     = python.LazyRegexp(python.ReWordStart + `cat\s+([^\s&|>]+)`)
	grepRe    = python.LazyRegexp(python.ReWordStart + `grep\s+.*?\s+([^\s&|>]+\.(?:py|js|java|go|rs|c|cpp|h|hpp|ts|tsx|jsx|rb|php|cs|kt|scala|swift))(?:` + nonWord + `|$)`)
	skipList  = []string{"sed -i", "echo ", "mkdir", "rm ", "git add", "git commit"}
	srcExts   = []string{".py", ".js", ".java", ".go", ".rs", ".c", ".cpp", ".h", ".hpp", ".ts", ".tsx", ".jsx",
		".rb", ".php", ".cs", ".kt", ".scala", ".swift"}
)

// extraction is the upstream result plus where each step came from.
type extraction struct {
	steps []model.Step
	// stepMsg[i] is the index of the message that produced steps[i].
	stepMsg []int
	final   model.Step
	// fromFallback: the steps came from bash commands, not explore_context.
	fromFallback bool
}

// messageList returns data["messages"] as the reference code iterates it:
// a missing key, "" or {} iterate as nothing; other non-lists crash upstream.
// msgs are the array's messages when it is one.
func messageList(data *jsontree.Value, msgs []message) ([]message, error) {
	m, ok := data.Lookup("messages")
	if !ok {
		return nil, nil
	}
	switch {
	case m.Kind == jsontree.Array:
		for i, msg := range msgs {
			if msg.kind != jsontree.Object {
				return nil, fmt.Errorf("message %d: expected an object, found %s", i, msg.kind.Article())
			}
		}
		return msgs, nil
	case (m.Kind == jsontree.String || m.Kind == jsontree.Object) && !m.Truthy():
		return nil, nil
	}
	return nil, fmt.Errorf("messages: expected a list, found %s", m.Kind.Article())
}

// content is msg.get("content", "") or "": falsy values read as "", other
// non-strings make the reference regex search raise TypeError.
func (m *message) text(i int) (string, error) {
	if m.badContent != jsontree.Null {
		return "", fmt.Errorf("message %d: content is %s, expected a string", i, m.badContent.Article())
	}
	return m.content, nil
}

// repoDirName is _infer_repo_dir_name: the repository directory under /home
// in Multi-SWE-bench images ("mswebench/alibaba_m_fastjson2:pr-2559" gives
// "fastjson2"); anything unexpected gives "".
func repoDirName(data *jsontree.Value) string {
	v := data
	for _, k := range []string{"info", "config", "environment", "image"} {
		next, ok := v.Lookup(k)
		if !ok {
			return ""
		}
		v = next
	}
	if v.Kind != jsontree.String {
		return ""
	}
	if m := imageRe().FindStringSubmatch(v.Str); m != nil {
		return m[1]
	}
	return ""
}

// normalizePath is _normalize_path: container paths to candidate
// repository-relative paths (final validation happens at scoring time).
func normalizePath(p, repoDir string) string {
	p = python.Strip(python.StripSpace(p), `'"`)
	if p == "" {
		return ""
	}
	p = strings.TrimPrefix(p, "/testbed/")
	if rest, ok := strings.CutPrefix(p, "/home/"); ok {
		first, tail, found := strings.Cut(rest, "/")
		if !found {
			return "" // a bare /home/<x> is not a source file
		}
		if repoDir != "" && first == repoDir {
			p = tail
		} else {
			p = rest
		}
	}
	if strings.HasPrefix(p, "/") {
		p = python.LStrip(p, "/")
	}
	return strings.TrimPrefix(p, "./")
}

// spanSet collects line spans per file in first-seen file order, like the
// reference code's dict.setdefault(file, []).append(...).
type spanSet struct {
	files []model.FileSpans
	index map[string]int
}

func (s *spanSet) add(file string, sp model.Interval) {
	if s.index == nil {
		s.index = map[string]int{}
	}
	i, ok := s.index[file]
	if !ok {
		i = len(s.files)
		s.index[file] = i
		s.files = append(s.files, model.FileSpans{File: file})
	}
	s.files[i].Spans = append(s.files[i].Spans, sp)
}

// sortedKeys is sorted(dict.keys()).
func (s *spanSet) sortedKeys() []string {
	keys := make([]string, 0, len(s.files))
	for _, fs := range s.files {
		keys = append(keys, fs.File)
	}
	sort.Strings(keys)
	return keys
}

// parseFileLines is _parse_file_lines_pairs: "File: path" / "Lines: a-b"
// pairs over Python splitlines(), each line stripped; re.match anchors the
// range at the start; reversed ranges are swapped; a File with no valid
// Lines contributes nothing.
func parseFileLines(text, repoDir string) *spanSet {
	out := &spanSet{}
	current := ""
	for _, raw := range python.SplitLines(text) {
		line := python.StripSpace(raw)
		if line == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "File:"); ok {
			current = normalizePath(python.StripSpace(rest), repoDir)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "Lines:"); ok && current != "" {
			m := linesRe().FindStringSubmatch(python.StripSpace(rest))
			if m == nil {
				continue
			}
			a, _ := python.DigitsInt(m[1])
			b, _ := python.DigitsInt(m[2])
			if a > b {
				a, b = b, a
			}
			out.add(current, model.Interval{Start: a, End: b})
		}
	}
	return out
}

// view is one file view found in a bash command by the fallback rules.
type view struct {
	file     string
	start    int
	end      int
	hasRange bool
}

func isSourceFile(p string) bool {
	for _, e := range srcExts {
		if strings.HasSuffix(p, e) {
			return true
		}
	}
	return false
}

// viewRules are the fallback's five rules in upstream's order: a regexp,
// the group holding the file, and the groups of the first and last line
// (0 for none: head starts at line 1, cat and grep name only the file).
var viewRules = []struct {
	re               func() *regexp.Regexp
	file, start, end int
}{
	{nlSedRe, 1, 2, 3},
	{sedRe, 3, 1, 2},
	{headRe, 2, 0, 1},
	{catRe, 1, 0, 0},
	{grepRe, 1, 0, 0},
}

// extractViews is _extract_views_from_command: the fallback's five rules,
// first match per chunk, on a command split at && || ; (quotes are not
// respected, as upstream).
func extractViews(cmd string) []view {
	if cmd == "" {
		return nil
	}
	for _, s := range skipList {
		if strings.Contains(cmd, s) {
			return nil
		}
	}
	clean := func(f string) string {
		return strings.TrimPrefix(python.Strip(f, `'"`), "/testbed/")
	}
	var views []view
	for _, chunk := range chunkRe().Split(cmd, -1) {
		c := python.StripSpace(chunk)
		if c == "" {
			continue
		}
		for _, r := range viewRules {
			m := r.re().FindStringSubmatch(c)
			if m == nil {
				continue
			}
			if f := clean(m[r.file]); isSourceFile(f) {
				v := view{file: f}
				if r.end > 0 {
					v.start, v.hasRange = 1, true
					if r.start > 0 {
						v.start, _ = python.DigitsInt(m[r.start])
					}
					v.end, _ = python.DigitsInt(m[r.end])
				}
				views = append(views, v)
			}
			break // the first rule that matches decides
		}
	}
	// De-duplicate by (file, start, end), keeping order.
	seen := map[view]bool{}
	out := views[:0]
	for _, v := range views {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// extract runs the reference MiniSWE extraction on a decoded .traj.json.
func extract(data *jsontree.Value, all []message) (*extraction, error) {
	if data.Kind != jsontree.Object {
		return nil, fmt.Errorf("expected a JSON object at the top level, found %s", data.Kind.Article())
	}
	msgs, err := messageList(data, all)
	if err != nil {
		return nil, err
	}
	repoDir := repoDirName(data)
	ex := &extraction{}

	// Steps: every lowercase <explore_context> block, in message order.
	for i := range msgs {
		c, err := msgs[i].text(i)
		if err != nil {
			return nil, err
		}
		for _, m := range exploreRe().FindAllStringSubmatch(c, -1) {
			spans := parseFileLines(m[1], repoDir)
			if len(spans.files) == 0 {
				continue
			}
			ex.steps = append(ex.steps, model.Step{Files: spans.sortedKeys(), Spans: spans.files})
			ex.stepMsg = append(ex.stepMsg, i)
		}
	}

	// Fallback steps from the first ```bash block of each assistant
	// message, only when no explore_context step exists.
	if len(ex.steps) == 0 {
		for i := range msgs {
			if msgs[i].role != "assistant" {
				continue
			}
			c := msgs[i].content // already checked above
			m := bashRe().FindStringSubmatch(c)
			if m == nil {
				continue
			}
			cmd := python.StripSpace(m[1])
			if strings.Contains(cmd, "COMPLETE_TASK") {
				continue
			}
			views := extractViews(cmd)
			if len(views) == 0 {
				continue
			}
			spans := &spanSet{}
			fileSet := map[string]bool{}
			for _, v := range views {
				f := normalizePath(v.file, repoDir)
				if f == "" {
					continue
				}
				fileSet[f] = true
				if v.hasRange {
					spans.add(f, model.Interval{Start: v.start, End: v.end})
				}
			}
			if len(fileSet) == 0 {
				continue
			}
			files := make([]string, 0, len(fileSet))
			for f := range fileSet {
				files = append(files, f)
			}
			sort.Strings(files)
			ex.steps = append(ex.steps, model.Step{Files: files, Spans: spans.files})
			ex.stepMsg = append(ex.stepMsg, i)
			ex.fromFallback = true
		}
	}

	// Final: only the last <PATCH_CONTEXT> block of all messages.
	last, found := "", false
	for i := range msgs {
		if ms := patchRe().FindAllStringSubmatch(msgs[i].content, -1); len(ms) > 0 {
			last, found = ms[len(ms)-1][1], true
		}
	}
	if found {
		spans := parseFileLines(last, repoDir)
		ex.final = model.Step{Files: spans.sortedKeys(), Spans: spans.files}
	}
	return ex, nil
}

// submission is data.get("info", {}).get("submission", ""). A non-object
// info makes the reference code raise; a non-string submission reads as "".
func submission(data *jsontree.Value) (string, error) {
	info, ok := data.Lookup("info")
	if !ok {
		return "", nil
	}
	if info.Kind != jsontree.Object {
		return "", fmt.Errorf("info: expected an object, found %s", info.Kind.Article())
	}
	if s, ok := info.Lookup("submission"); ok && s.Kind == jsontree.String {
		return s.Str, nil
	}
	return "", nil
}
