package toolcall

import (
	"encoding/json"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/shell"
)

// Call is one tool invocation as a transcript recorded it.
type Call struct {
	// Name is the tool name as recorded ("Read", "Bash", "read_file", …).
	Name string
	// Input is the decoded arguments object (nil when there were none).
	Input map[string]any
	// Output is the result text the model was shown.
	Output string
	// HasOutput is true when the transcript recorded a result at all; an
	// action without one is judged from its arguments alone.
	HasOutput bool
	// Meta is the structured result when the format keeps one (Claude
	// Code's toolUseResult); nil otherwise.
	Meta map[string]any
	// IsError marks a result the tool reported as an error.
	IsError bool
}

// kind is a tool's role, whatever the agent calls it.
type kind int

const (
	kOther kind = iota
	kRead
	kGrep
	kGlob
	kList
	kBash
	kEdit
	kEditor // str_replace_editor-style: view or edit by sub-command
	kPatch  // apply_patch
	kAgent  // sub-agent launch
	kSGRead
	kSGSearch
)

// toolKinds maps recorded tool names to roles. Claude Code's names come
// first (peer-tools §B.2); the others are the same tools under the names
// other agents export to ATIF (Gemini CLI, OpenCode, Codex, OpenHands).
var toolKinds = map[string]kind{
	"Read": kRead, "read": kRead, "read_file": kRead, "ReadFile": kRead, "NotebookRead": kRead,
	"Grep": kGrep, "grep": kGrep, "search_file_content": kGrep, "rg": kGrep, "ripgrep": kGrep,
	"Glob": kGlob, "glob": kGlob, "find_files": kGlob,
	"LS": kList, "ls": kList, "list_directory": kList, "list": kList,
	"Bash": kBash, "bash": kBash, "shell": kBash, "execute_bash": kBash, "run_shell_command": kBash,
	"exec_command": kBash, "local_shell": kBash, "terminal": kBash, "run_command": kBash, "execute_command": kBash,
	"Edit": kEdit, "MultiEdit": kEdit, "Write": kEdit, "NotebookEdit": kEdit, "edit": kEdit, "multiedit": kEdit,
	"write": kEdit, "write_file": kEdit, "replace": kEdit, "edit_file": kEdit, "create_file": kEdit,
	"str_replace_editor": kEditor, "str_replace_based_edit_tool": kEditor, "text_editor": kEditor,
	"apply_patch": kPatch, "Task": kAgent, "Agent": kAgent,
}

// numberedTools are read tools whose output always numbers the lines shown
// (Claude Code's Read); other read tools print bare content.
var numberedTools = map[string]bool{"Read": true}

// zeroBasedOffset lists read tools whose offset counts from 0 (Gemini CLI
// read_file, OpenCode read). Claude Code's Read counts from 1 (peer-tools
// §A.2 off-by-one note).
var zeroBasedOffset = map[string]bool{"read": true, "read_file": true, "ReadFile": true}

const sgPrefix = "mcp__sourcegraph__"

func kindOf(name string) kind {
	if k, ok := toolKinds[name]; ok {
		return k
	}
	if rest, ok := strings.CutPrefix(name, sgPrefix); ok {
		switch strings.TrimPrefix(rest, "sg_") {
		case "read_file":
			return kSGRead
		case "list_files", "list_repos", "keyword_search", "nls_search", "find_references",
			"go_to_definition", "deepsearch", "deepsearch_read":
			return kSGSearch
		}
	}
	return kOther
}

// Apply fills a's Tool, Command, Observation, Category, Reads, Searches and
// Edits from c. It leaves the other fields (index, time, usage, …) alone.
func Apply(a *model.Action, c Call) {
	a.Tool = c.Name
	a.Observation = c.Output
	a.Command = Describe(c.Name, c.Input)
	in := c.Input
	switch kindOf(c.Name) {
	case kRead:
		a.Category = model.CategoryRead
		file := First(in, "file_path", "path", "filePath", "absolute_path", "notebook_path", "file")
		if file == "" {
			return
		}
		base := 1
		if zeroBasedOffset[c.Name] {
			base = 0
		}
		a.Reads = readRegion(file, in, base, c)
	case kGrep:
		a.Category = model.CategorySearch
		a.Searches = grepHits(c)
	case kGlob:
		a.Category = model.CategorySearch
		a.Searches = listHits(c)
	case kList:
		a.Category = model.CategorySearch
	case kBash:
		cmd := shellCommand(in)
		a.Command = cmd
		if cmd == "" {
			a.Category = model.CategoryRun
			return
		}
		r := shell.Analyze(cmd)
		if c.HasOutput {
			r = shell.ConfirmFromObservation(r, c.Output)
		}
		a.Category = r.Category
		if a.Category == "" || a.Category == model.CategoryOther {
			a.Category = model.CategoryRun
		}
		a.Reads, a.Searches, a.Edits = r.Reads, r.Searches, r.Edits
	case kEdit:
		a.Category = model.CategoryEdit
		if c.IsError {
			return // a failed edit changed nothing
		}
		if f := First(in, "file_path", "path", "filePath", "notebook_path", "absolute_path", "target_file", "file"); f != "" {
			a.Edits = []string{f}
		}
	case kEditor:
		editorCall(a, c)
	case kPatch:
		a.Category = model.CategoryEdit
		a.Edits = patchFiles(First(in, "input", "patch", "diff", "content"))
	case kSGRead:
		a.Category = model.CategoryRead
		file := First(in, "path", "file_path", "file")
		if file == "" || c.IsError {
			return
		}
		s, okS := Int(firstOf(in, "startLine", "start_line"))
		e, okE := Int(firstOf(in, "endLine", "end_line"))
		switch {
		case okS && okE && s >= 1 && e >= s:
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
		case okS && s > 1:
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadFrom, Start: s}}
		default:
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
		}
	case kSGSearch:
		a.Category = model.CategorySearch
		a.Searches = jsonPathHits(c.Output)
	default:
		a.Category = model.CategoryOther
	}
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return nil
}

// shellCommand reads the command of a shell tool: a string, or an argv list
// (Codex "shell": ["bash", "-lc", "…"]) whose script is the last word.
func shellCommand(in map[string]any) string {
	for _, k := range []string{"command", "cmd", "script", "commands"} {
		switch v := in[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any:
			var words []string
			for _, w := range v {
				if s, ok := w.(string); ok {
					words = append(words, s)
				}
			}
			if len(words) >= 3 && (words[0] == "bash" || words[0] == "sh" || words[0] == "zsh") &&
				strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "c") {
				return words[len(words)-1]
			}
			if len(words) > 0 {
				return strings.Join(words, " ")
			}
		}
	}
	return ""
}

// Describe renders a call as a one-line command for the timeline: the
// shell command itself, or the tool name with its main arguments. Long
// payloads (file contents, edit strings) are left out.
func Describe(name string, in map[string]any) string {
	if kindOf(name) == kBash {
		if cmd := shellCommand(in); cmd != "" {
			return cmd
		}
	}
	var b strings.Builder
	b.WriteString(name)
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := describeRank(keys[i]), describeRank(keys[j])
		if pi != pj {
			return pi < pj
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		if describeRank(k) > 2 {
			continue
		}
		var val string
		switch v := in[k].(type) {
		case string:
			if len(v) > 200 {
				v = v[:200] + "…"
			}
			val = strconv.Quote(v)
		case float64, bool, json.Number:
			raw, _ := json.Marshal(v)
			val = string(raw)
		case []any:
			if len(v) <= 4 {
				raw, _ := json.Marshal(v)
				if len(raw) <= 80 {
					val = string(raw)
				}
			}
		}
		if val == "" {
			continue
		}
		b.WriteString(" " + k + "=" + val)
	}
	return b.String()
}

// describeRank orders the arguments worth showing; 3 means "leave out".
func describeRank(k string) int {
	switch k {
	case "file_path", "path", "filePath", "absolute_path", "notebook_path", "pattern", "query", "command",
		"url", "description", "subagent_type", "repo", "symbol":
		return 0
	case "offset", "limit", "view_range", "startLine", "endLine", "start_line", "end_line", "glob",
		"output_mode", "type", "include", "-n", "-i", "-A", "-B", "-C", "head_limit", "replace_all":
		return 1
	case "old_string", "new_string", "content", "edits", "prompt", "input", "patch", "file_text", "new_str", "old_str":
		return 3
	}
	return 2
}

var (
	// numberedLineRe matches a line of numbered file output: "     12→text"
	// (older Claude Code), "12\ttext" (Claude Code 2.1.x) and "     12\ttext"
	// (cat -n, str_replace_editor view).
	numberedLineRe = regexp.MustCompile(`^\s*(\d{1,9})(?:→|\t)`)
	// trimmedTailRe matches a marker a recorder left where it cut the
	// output short (Harbor fixtures end with "...[trimmed]").
	trimmedTailRe = regexp.MustCompile(`(?i)(?:\.\.\.|…)?\s*\[(?:trimmed|truncated)[^\]\n]{0,40}\]\s*$`)
	// metadataSuffixRe matches the "[metadata] {…}" block Harbor's ATIF
	// export appends to a tool result's text.
	metadataSuffixRe = regexp.MustCompile(`\n\n\[metadata\] \{`)
)

// StripMetadata removes the "\n\n[metadata] {…}" suffix Harbor appends to
// ATIF tool results and returns the text and the suffix's JSON (which may be
// cut short by a fixture's trimming; callers must not rely on it parsing).
func StripMetadata(s string) (text, meta string) {
	locs := metadataSuffixRe.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return s, ""
	}
	i := locs[len(locs)-1][0]
	return s[:i], s[i+len("\n\n[metadata] "):]
}

// numberedRun returns the first run of consecutively numbered lines in a
// file view's output. Reminders appended after the listing are not numbered
// and end the run.
func numberedRun(obs string) (first, last int, ok bool) {
	for _, line := range strings.Split(obs, "\n") {
		m := numberedLineRe.FindStringSubmatch(line)
		if m == nil {
			if ok {
				break
			}
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			break
		}
		if !ok {
			first, last, ok = n, n, true
			continue
		}
		if n != last+1 {
			break
		}
		last = n
	}
	return first, last, ok
}

// readRegion decides which lines a Read-style call displayed, trusting in
// order: the numbered output when it is complete, the structured result
// (Claude Code's toolUseResult.file), the numbered output's start when the
// recorder cut it short, and only then the requested offset/limit. For
// Claude Code's Read, a result with no numbered line (an error, a "shorter
// than the provided offset" warning, an empty file) displayed nothing.
func readRegion(file string, in map[string]any, base int, c Call) []model.ObservedRead {
	if c.IsError {
		return nil
	}
	offset, hasOff := Int(in["offset"])
	limit, hasLim := Int(in["limit"])
	if hasLim && limit <= 0 {
		hasLim = false
	}
	start := 1
	if hasOff {
		start = offset + 1 - base
		if start < 1 {
			start = 1
		}
	}
	requested := func(from int) model.ObservedRead {
		switch {
		case hasLim:
			return model.ObservedRead{File: file, Kind: model.ReadRange, Start: from, End: from + limit - 1}
		case from <= 1:
			return model.ObservedRead{File: file, Kind: model.ReadWhole}
		}
		return model.ObservedRead{File: file, Kind: model.ReadFrom, Start: from}
	}

	text, _ := StripMetadata(c.Output)
	trimmed := trimmedTailRe.MatchString(text)
	first, last, numbered := numberedRun(text)
	if numbered && first == 0 {
		// Claude Code 2.1.178 numbers a Read with "offset": 0 from 0
		// (trajectory_pass.json step 10): the labels are one below the
		// file's line numbers.
		first, last = first+1, last+1
	}
	if numbered && !trimmed {
		return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: first, End: last}}
	}
	if f := Obj(c.Meta["file"]); f != nil {
		switch Str(c.Meta["type"]) {
		case "text", "":
			s, okS := Int(f["startLine"])
			n, okN := Int(f["numLines"])
			if okS && okN {
				if n <= 0 {
					return nil
				}
				if s < 1 {
					s = 1
				}
				return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: s + n - 1}}
			}
		case "notebook":
			return []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
		case "image", "pdf":
			return nil
		}
	}
	if numbered {
		r := requested(first)
		if r.Kind == model.ReadRange && r.End < last {
			r.End = last
		}
		if r.Kind == model.ReadRange && r.End < r.Start {
			r.End = last
		}
		return []model.ObservedRead{r}
	}
	if c.HasOutput && strings.TrimSpace(text) != "" && numberedTools[c.Name] {
		// This tool numbers every line it shows: unnumbered output is an
		// error or a warning, not file content.
		return nil
	}
	r := requested(start)
	if r.Kind == model.ReadRange && r.End < r.Start {
		return nil
	}
	return []model.ObservedRead{r}
}

var (
	foundHeaderRe = regexp.MustCompile(`^Found \d+ (?:files?|lines?|matches|total occurrences?)`)
	countSuffixRe = regexp.MustCompile(`:\d+$`)
	grepPathLine  = regexp.MustCompile(`^(.+?):(\d{1,9})[:-]`)
	grepBareLine  = regexp.MustCompile(`^(\d{1,9})[:-]`)
	jsonPathRe    = regexp.MustCompile(`"path"\s*:\s*"((?:[^"\\]|\\.){1,1000})"`)
)

// grepHits reads a Grep-style result as search hits: file lists
// (files_with_matches, the default), "path:N:text" content lines, and
// "path:N" counts. A Grep result lists files; it shows no file region, so
// it yields no reads.
func grepHits(c Call) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[model.SearchHit]bool{}
	add := func(h model.SearchHit) {
		if h.File != "" && !seen[h] {
			seen[h] = true
			hits = append(hits, h)
		}
	}
	for _, f := range List(c.Meta["filenames"]) {
		add(model.SearchHit{File: Str(f)})
	}
	if c.IsError {
		return hits
	}
	target := First(c.Input, "path", "file_path", "dir_path")
	text, _ := StripMetadata(c.Output)
	content := Str(c.Input["output_mode"]) == "content" || Str(c.Meta["mode"]) == "content"
	for i, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || (i == 0 && foundHeaderRe.MatchString(line)) {
			continue
		}
		if m := grepPathLine.FindStringSubmatch(line); m != nil && looksLikePath(m[1]) {
			n, _ := strconv.Atoi(m[2])
			add(model.SearchHit{File: m[1], Line: n})
			continue
		}
		if m := grepBareLine.FindStringSubmatch(line); m != nil && content && looksLikeFile(target) {
			n, _ := strconv.Atoi(m[1])
			add(model.SearchHit{File: target, Line: n})
			continue
		}
		if content {
			if p, _, ok := strings.Cut(line, ":"); ok && looksLikePath(p) {
				add(model.SearchHit{File: p})
			}
			continue
		}
		p := countSuffixRe.ReplaceAllString(strings.TrimSpace(line), "")
		if looksLikePath(p) {
			add(model.SearchHit{File: p})
		}
	}
	return hits
}

// listHits reads a Glob-style result: one path per line.
func listHits(c Call) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[string]bool{}
	add := func(p string) {
		if p != "" && !seen[p] {
			seen[p] = true
			hits = append(hits, model.SearchHit{File: p})
		}
	}
	for _, f := range List(c.Meta["filenames"]) {
		add(Str(f))
	}
	if c.IsError {
		return hits
	}
	text, _ := StripMetadata(c.Output)
	for _, line := range strings.Split(text, "\n") {
		p := strings.TrimSpace(line)
		if looksLikePath(p) {
			add(p)
		}
	}
	return hits
}

// jsonPathHits collects the "path" members of an MCP tool's JSON result,
// leaving out directories.
func jsonPathHits(out string) []model.SearchHit {
	var hits []model.SearchHit
	seen := map[string]bool{}
	for _, m := range jsonPathRe.FindAllStringSubmatch(out, -1) {
		p, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			p = m[1]
		}
		if p == "" || strings.HasSuffix(p, "/") || seen[p] {
			continue
		}
		seen[p] = true
		hits = append(hits, model.SearchHit{File: p})
	}
	return hits
}

// looksLikePath accepts a bare path as tools print it, rejecting prose
// ("No files found", "(Results are truncated …)").
func looksLikePath(s string) bool {
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, " \t<>\"'|*?()") || strings.HasSuffix(s, ":") {
		return false
	}
	return strings.Contains(s, "/") || strings.Contains(s, ".")
}

// looksLikeFile says whether a search's target names a file (not a
// directory), so bare "N:text" lines belong to it.
func looksLikeFile(p string) bool {
	if p == "" || strings.HasSuffix(p, "/") {
		return false
	}
	base := p[strings.LastIndex(p, "/")+1:]
	return strings.Contains(base, ".") && base != "." && base != ".."
}

// editorCall handles str_replace_editor-style tools: "view" reads (the
// numbered output is the truth, else view_range), the rest edit.
func editorCall(a *model.Action, c Call) {
	in := c.Input
	file := First(in, "path", "file_path")
	switch Str(in["command"]) {
	case "view":
		a.Category = model.CategoryRead
		text, _ := StripMetadata(c.Output)
		if strings.Contains(text, "files and directories up to") {
			a.Category = model.CategorySearch // a directory listing
			return
		}
		if file == "" || c.IsError {
			return
		}
		if first, last, ok := numberedRun(text); ok {
			a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: max(first, 1), End: max(last, 1)}}
			return
		}
		if c.HasOutput && strings.TrimSpace(text) != "" {
			return // an error or a message: no file lines shown
		}
		vr := List(in["view_range"])
		if len(vr) == 2 {
			s, ok1 := Int(vr[0])
			e, ok2 := Int(vr[1])
			switch {
			case ok1 && ok2 && s >= 1 && e == -1:
				a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadFrom, Start: s}}
			case ok1 && ok2 && s >= 1 && e >= s:
				a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
			}
			return
		}
		a.Reads = []model.ObservedRead{{File: file, Kind: model.ReadWhole}}
	case "create", "str_replace", "insert", "undo_edit", "write":
		a.Category = model.CategoryEdit
		if file != "" {
			a.Edits = []string{file}
		}
	default:
		a.Category = model.CategoryOther
	}
}

var patchFileRe = regexp.MustCompile(`(?m)^(?:\*\*\* (?:Update|Add|Delete) File: |\+\+\+ b/|diff --git a/\S+ b/)(.+?)\s*$`)

// patchFiles lists the files a patch (apply_patch envelope or unified diff)
// changes.
func patchFiles(p string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range patchFileRe.FindAllStringSubmatch(p, -1) {
		f := strings.TrimSpace(m[1])
		if f != "" && f != "/dev/null" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}
