// Package groundtruth loads CodeScaleBench / CodeContextBench ground truth:
// tests/ground_truth.json in all its schemas,
// oracle_answer.json, task_spec.json oracle items, expected_defects.json,
// expected_changes.json, instance.json build files, and reference patches
// (reference_fix.patch, expected.diff, expected.patch, solve.sh).
//
// This gold is mostly file-level: a list of files that matter, with no line
// spans. It is kept as such (Truth.Files) rather than dressed up as
// whole-file spans, which would invent line coverage the benchmark never
// claimed. Chunk-level gold (expected_defects line ranges,
// expected_changes' expected_line_range, IR-format "chunks") is kept as
// line spans, and oracle symbols as symbols. Truth.Gold converts what
// model.Gold can carry today (chunks, patch); see its comment for the
// file-level part.
//
// Multi-repository oracles name a repository per item; paths are kept
// repository-relative and the repository is recorded beside them.
package groundtruth

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the gold format name used by detection and --gold-format.
const Name = "codescalebench"

// File is one file-level gold item.
type File struct {
	Repo string // "" when the task has one repository
	Path string
}

// Chunk is a line range of a file that the gold marks.
type Chunk struct {
	Repo  string
	Path  string
	Start int // 1-based, inclusive
	End   int
	Label string // defect type or annotation, when given
}

// Symbol is a symbol the gold names.
type Symbol struct {
	Repo string
	Path string
	Name string
	Kind string
}

// Truth is the ground truth of one task.
type Truth struct {
	// ID is the task id: the file's task_id/id, else the task directory
	// (<task>/tests/<file>), else "".
	ID string
	// Path is the file it was read from.
	Path string
	// Variant names the schema read, e.g. "ground_truth.files",
	// "expected_defects", "task_spec", "patch".
	Variant string
	// Files is every gold file, in file order without repeats; the files
	// of Chunks and Symbols are included.
	Files   []File
	Chunks  []Chunk
	Symbols []Symbol
	// Confidence is high, medium or low, as CodeScaleBench rates the source.
	Confidence string
	// Type is edit, generate, evidence, answer or mixed (CodeScaleBench's
	// gt_type); generate and answer tasks may have no files.
	Type string
	// Patch is the reference patch text when the gold is one.
	Patch string
}

// FilePaths returns the gold file paths (repository dropped).
func (t *Truth) FilePaths() []string {
	out := make([]string, 0, len(t.Files))
	for _, f := range t.Files {
		out = append(out, f.Path)
	}
	return out
}

// Gold converts the truth into a model.Gold: the chunks become line spans
// (Init), the files file-level gold (Files, counted at file granularity
// only), the reference patch Patch.
func (t *Truth) Gold() model.Gold {
	g := model.Gold{ID: t.ID, InstID: t.ID, Source: Name + ":" + t.Variant, Patch: t.Patch}
	for _, c := range t.Chunks {
		g.Init = append(g.Init, model.GoldSpan{File: c.Path, Start: c.Start, End: c.End})
	}
	repos := map[string]bool{}
	for _, f := range t.Files {
		if f.Repo != "" {
			repos[f.Repo] = true
		}
	}
	g.Files = t.FilePaths()
	if len(repos) == 1 {
		for r := range repos {
			g.Repo = r
		}
	}
	return g
}

// add records a file once. An item without a repository and one with it
// name the same file when their paths agree.
func (t *Truth) add(repo, p string) {
	p = strings.TrimSpace(p)
	if p == "" {
		return
	}
	for i, f := range t.Files {
		if f.Path == p && (f.Repo == repo || f.Repo == "" || repo == "") {
			if f.Repo == "" {
				t.Files[i].Repo = repo
			}
			return
		}
	}
	t.Files = append(t.Files, File{Repo: repo, Path: p})
}

func (t *Truth) addChunk(c Chunk) {
	if c.Path == "" {
		return
	}
	t.add(c.Repo, c.Path)
	if c.Start < 1 || c.End < c.Start {
		return // a file-level item after all
	}
	t.Chunks = append(t.Chunks, c)
}

func (t *Truth) addSymbol(s Symbol) {
	if s.Path != "" {
		t.add(s.Repo, s.Path)
	}
	if s.Name != "" {
		t.Symbols = append(t.Symbols, s)
	}
}

// known file names, in CodeScaleBench's priority order for one task.
var priority = []string{
	"ground_truth.json", "oracle_answer.json", "task_spec.json", "instance.json",
	"expected_defects.json", "expected_changes.json",
	"reference_fix.patch", "expected.diff", "expected.patch", "solve.sh",
}

func knownName(base string) bool {
	for _, n := range priority {
		if base == n {
			return true
		}
	}
	return false
}

var (
	contextBenchKeysRe = lazyre.New(`"(?:gold_ctx|init_ctx|add_ctx|gold_context|original_inst_id|traj_data)"\s*:`)
	gtKeysRe           = lazyre.New(`"(?:buggy_files|file_references|expected_files|expected_file|required_files|canonical_path|expected_edit_files|root_cause_files|build_files)"\s*:`)
	defectRe           = lazyre.New(`"line_start"\s*:[\s\S]*"defect_type"\s*:|"defect_type"\s*:[\s\S]*"line_start"\s*:`)
	diffHeaderRe       = lazyre.New(`(?m)^(?:diff --git a/.+ b/|\+\+\+ b/)(.+)$`)
	diffMinusRe        = lazyre.New(`(?m)^--- a/(.+)$`)
)

// Sniff reports whether a file is CodeScaleBench ground truth: one of its
// file names, or JSON with its keys (and none of ContextBench's).
func Sniff(name string, head []byte) bool {
	base := filepath.Base(name)
	if knownName(base) {
		return true
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) == 0 || (t[0] != '{' && t[0] != '[') || contextBenchKeysRe().Match(head) {
		return false
	}
	return gtKeysRe().Match(head) || defectRe().Match(head)
}

// Load reads ground truth from a file, or from a directory tree of task
// directories (one Truth per task, picking the first file in
// CodeScaleBench's priority order that names gold).
func Load(path string) ([]Truth, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return loadDir(path)
	}
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	t, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	return []Truth{t}, nil
}

// LoadGold is Load followed by Truth.Gold for each task.
func LoadGold(path string) ([]model.Gold, error) {
	ts, err := Load(path)
	if err != nil {
		return nil, err
	}
	out := make([]model.Gold, len(ts))
	for i := range ts {
		out[i] = ts[i].Gold()
	}
	return out, nil
}

// taskDir is the task directory of a ground-truth file: <task>/tests/x,
// <task>/solution/solve.sh, … name the task; a loose file has none.
func taskDir(file string) string {
	dir := filepath.Dir(file)
	switch filepath.Base(dir) {
	case "tests", "solution", "environment":
		return filepath.Dir(dir)
	}
	return ""
}

// parse reads one ground-truth file, choosing the reader by name and then
// by content.
func parse(path string, data []byte) (Truth, error) {
	t := Truth{Path: path}
	if td := taskDir(path); td != "" {
		t.ID = filepath.Base(td)
	}
	base := filepath.Base(path)
	ext := strings.ToLower(filepath.Ext(base))
	switch {
	case ext == ".patch" || ext == ".diff" || base == "solve.sh":
		text := string(data)
		t.Variant, t.Confidence, t.Type = "patch", "high", "edit"
		for _, f := range patchFiles(text) {
			t.add("", f)
		}
		if base != "solve.sh" {
			t.Patch = text
		}
		if len(t.Files) == 0 {
			return t, fmt.Errorf("%s: no file headers (expected a unified diff with diff --git / +++ b/ lines)", path)
		}
		return t, nil
	}
	v, err := toolcall.Decode(data)
	if err != nil {
		return t, jsontree.At(path, err)
	}
	if m := v.Object(); m != nil {
		if id := m.First("task_id", "id", "instance_id"); id != "" && t.ID == "" {
			t.ID = id
		}
	}
	switch base {
	case "oracle_answer.json":
		err = oracleAnswer(&t, v)
	case "task_spec.json":
		err = taskSpec(&t, v)
	case "expected_defects.json":
		err = expectedDefects(&t, v)
	case "expected_changes.json":
		err = expectedChanges(&t, v)
	case "instance.json":
		err = instance(&t, v)
	default:
		err = byContent(&t, v)
	}
	if err != nil {
		return t, fmt.Errorf("%s: %v", path, err)
	}
	return t, nil
}

// byContent picks the reader for a JSON file whose name says nothing.
func byContent(t *Truth, v *jsontree.Value) error {
	m := v.Object()
	switch {
	case m == nil:
		if l := v.Items(); len(l) > 0 && !l[0].Get("line_start").IsNull() {
			return expectedDefects(t, v)
		}
		return groundTruth(t, v)
	case m.Path("artifacts", "oracle").Object() != nil:
		return taskSpec(t, v)
	case !m.Get("defects").IsNull():
		return expectedDefects(t, v)
	case !m.Get("expected_files").IsNull() || !m.Get("expected_file").IsNull():
		return expectedChanges(t, v)
	case !m.Get("build_files").IsNull() && m.Get("files").IsNull():
		return instance(t, v)
	case !m.Get("chain").IsNull() && m.Get("files").IsNull():
		return oracleAnswer(t, v)
	}
	return groundTruth(t, v)
}

// patchFiles lists the files a unified diff touches, as CodeScaleBench's
// _files_from_patch: "diff --git a/X b/Y" and "+++ b/Y" headers, then
// "--- a/X" lines; /dev/null is skipped.
func patchFiles(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimSpace(p)
		if p != "" && p != "/dev/null" && !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, m := range diffHeaderRe().FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	for _, m := range diffMinusRe().FindAllStringSubmatch(text, -1) {
		add(m[1])
	}
	return out
}

// loadDir walks a tree of task directories.
func loadDir(root string) ([]Truth, error) {
	groups := map[string]map[string]string{} // task dir → base name → file
	var order []string
	count := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner of the tree: skip it
		}
		count++
		if count > 200000 {
			return filepath.SkipAll
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			if rel, _ := filepath.Rel(root, p); strings.Count(rel, string(filepath.Separator)) > 8 {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !knownName(d.Name()) {
			return nil
		}
		if d.Name() == "solve.sh" && taskDir(p) == "" {
			return nil
		}
		td := taskDir(p)
		if td == "" {
			td = filepath.Dir(p)
		}
		if groups[td] == nil {
			groups[td] = map[string]string{}
			order = append(order, td)
		}
		if _, dup := groups[td][d.Name()]; !dup {
			groups[td][d.Name()] = p
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []Truth
	for _, td := range order {
		var fallback *Truth
		found := false
		for _, name := range priority {
			f, ok := groups[td][name]
			if !ok {
				continue
			}
			data, err := inputfile.ReadRegular(f)
			if err != nil {
				continue
			}
			t, err := parse(f, data)
			if err != nil {
				continue // CodeScaleBench moves on to the next source
			}
			if t.ID == "" {
				t.ID = filepath.Base(td)
			}
			if len(t.Files) > 0 {
				out = append(out, t)
				found = true
				break
			}
			if fallback == nil {
				fallback = &t
			}
		}
		if !found && fallback != nil {
			out = append(out, *fallback)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no ground-truth files (expected tests/ground_truth.json, expected_defects.json, expected_changes.json, task_spec.json, oracle_answer.json or a reference patch)", root)
	}
	return out, nil
}
