package groundtruth

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/parsers/internal/pyval"
)

// topicKeys mark CodeScaleBench's criterion-based ground truth (schema H):
// documentation tasks graded on topics, with no gold files.
var topicKeys = []string{"required_topics", "breaking_changes", "deprecations", "prerequisites",
	"architecture", "thread_safety", "categorization", "completeness"}

// groundTruth reads tests/ground_truth.json. CodeScaleBench knows these
// schemas (ground_truth.py): G a plain list of paths; A {files, …} (also
// the LargeRepo template's dependency_chain, root_cause_files,
// entry_points, data_flow, and the IR format's expected_edit_files,
// symbols and chunks); B {file_references: [{patterns}]}; C {buggy_files};
// D {entries: [{file}]}; E {file_path}; RepoQA {canonical_path}; MCP
// {steps: [{repo, file}]}; F {scoring_categories} and H (topic keys), which
// have no files. Where CodeScaleBench stops at the first schema that gives
// files, this reads them all: the extra keys list subsets or chunks of the
// same gold.
func groundTruth(t *Truth, v any) error {
	if l, ok := v.([]any); ok {
		t.Variant, t.Confidence, t.Type = "ground_truth.list", "medium", "edit"
		for i, e := range l {
			s, ok := e.(string)
			if !ok {
				if m := pyval.Obj(e); m != nil {
					t.add(pyval.Str(m["repo"]), pyval.First(m, "path", "file"))
					continue
				}
				return fmt.Errorf("[%d]: expected a path string", i)
			}
			t.add("", s)
		}
		return nil
	}
	m := pyval.Obj(v)
	if m == nil {
		return fmt.Errorf("expected a ground-truth object or a list of paths")
	}
	type schema struct {
		key, variant, confidence, typ string
	}
	schemas := []schema{
		{"files", "ground_truth.files", "medium", "edit"},
		{"file_references", "ground_truth.file_references", "medium", "edit"},
		{"buggy_files", "ground_truth.buggy_files", "high", "edit"},
		{"entries", "ground_truth.entries", "medium", "edit"},
		{"file_path", "ground_truth.file_path", "low", "edit"},
		{"canonical_path", "ground_truth.canonical_path", "high", "edit"},
		{"steps", "ground_truth.steps", "high", "evidence"},
		{"expected_edit_files", "ground_truth.files", "medium", "edit"},
		{"chunks", "ground_truth.chunks", "medium", "edit"},
		{"scoring_categories", "ground_truth.scoring_categories", "low", "generate"},
	}
	for _, s := range schemas {
		if _, ok := m[s.key]; ok {
			t.Variant, t.Confidence, t.Type = s.variant, s.confidence, s.typ
			break
		}
	}
	if t.Variant == "" {
		for _, k := range topicKeys {
			if _, ok := m[k]; ok {
				t.Variant, t.Confidence, t.Type = "ground_truth.topics", "low", "generate"
				break
			}
		}
	}
	if t.Variant == "" {
		return fmt.Errorf("expected a ground-truth object (files, buggy_files, file_references, entries, file_path, canonical_path, steps, chunks, scoring_categories or topic keys)")
	}
	if c := pyval.Str(m["confidence"]); c != "" {
		t.Confidence = c
	}
	if g := pyval.Str(m["gt_type"]); g != "" {
		t.Type = g
	}
	repo := pyval.Str(m["repo"])
	for _, k := range []string{"files", "expected_edit_files", "root_cause_files", "entry_points",
		"data_flow", "dependency_chain", "buggy_files", "output_files", "evidence_files"} {
		items(t, m[k], repo)
	}
	for _, e := range pyval.List(m["entries"]) {
		if em := pyval.Obj(e); em != nil {
			t.add(pyval.Str(em["repo"]), pyval.First(em, "file", "path"))
		}
	}
	items(t, m["steps"], repo)
	if s := pyval.Str(m["file_path"]); s != "" {
		t.add(repo, s)
		if fn := pyval.First(m, "target_function", "function_name"); fn != "" {
			t.addSymbol(Symbol{Repo: repo, Path: s, Name: fn, Kind: "function"})
		}
	}
	if s := pyval.Str(m["canonical_path"]); s != "" {
		t.add(repo, s)
		if fn := pyval.First(m, "name", "function_name"); fn != "" {
			t.addSymbol(Symbol{Repo: repo, Path: s, Name: fn, Kind: "function"})
		}
	}
	for _, f := range checklistFiles(m["file_references"]) {
		t.add(repo, f)
	}
	for _, c := range pyval.List(m["chunks"]) {
		cm := pyval.Obj(c)
		if cm == nil {
			continue
		}
		t.addChunk(chunkOf(cm, repo, pyval.First(cm, "annotation", "label")))
	}
	symbols(t, m["symbols"], repo)
	return nil
}

// items adds a list of files given as path strings or {repo, path|file}
// objects.
func items(t *Truth, v any, repo string) {
	for _, e := range pyval.List(v) {
		switch x := e.(type) {
		case string:
			t.add(repo, x)
		case map[string]any:
			r := pyval.Str(x["repo"])
			if r == "" {
				r = repo
			}
			p := pyval.First(x, "path", "file", "file_path")
			if sym := pyval.First(x, "symbol", "name"); sym != "" && p != "" {
				t.addSymbol(Symbol{Repo: r, Path: p, Name: sym, Kind: pyval.Str(x["kind"])})
				continue
			}
			t.add(r, p)
		}
	}
}

// symbols adds {file|path, symbol|name, repo, kind} items.
func symbols(t *Truth, v any, repo string) {
	for _, e := range pyval.List(v) {
		sm := pyval.Obj(e)
		if sm == nil {
			continue
		}
		r := pyval.Str(sm["repo"])
		if r == "" {
			r = repo
		}
		t.addSymbol(Symbol{Repo: r, Path: pyval.First(sm, "path", "file"), Name: pyval.First(sm, "symbol", "name"), Kind: pyval.Str(sm["kind"])})
	}
}

// chunkOf reads {file|path, line_start|start_line|start, line_end|…}.
func chunkOf(m map[string]any, repo, label string) Chunk {
	r := pyval.Str(m["repo"])
	if r == "" {
		r = repo
	}
	c := Chunk{Repo: r, Path: pyval.First(m, "file", "path", "file_path"), Label: label}
	for _, k := range []string{"line_start", "start_line", "start"} {
		if n, ok := pyval.AnyInt(m[k]); ok {
			c.Start = n
			break
		}
	}
	for _, k := range []string{"line_end", "end_line", "end"} {
		if n, ok := pyval.AnyInt(m[k]); ok {
			c.End = n
			break
		}
	}
	if c.End == 0 && c.Start > 0 {
		c.End = c.Start // a single line
	}
	return c
}

// checklistFiles recovers paths from schema B's regex patterns the way
// CodeScaleBench does: un-escape "\.", "\-", "\(", "\)" and keep patterns
// that contain "/".
func checklistFiles(v any) []string {
	var out []string
	for _, ref := range pyval.List(v) {
		for _, p := range pyval.List(pyval.Obj(ref)["patterns"]) {
			s, ok := p.(string)
			if !ok {
				continue
			}
			s = strings.NewReplacer(`\.`, ".", `\-`, "-", `\(`, "(", `\)`, ")").Replace(s)
			if strings.Contains(s, "/") {
				out = append(out, s)
			}
		}
	}
	return out
}

// oracleAnswer reads tests/oracle_answer.json (MCP suites): files, chain
// and symbols entries of {repo, path|file[, symbol]}.
func oracleAnswer(t *Truth, v any) error {
	m := pyval.Obj(v)
	if m == nil {
		return fmt.Errorf("expected an object with files, chain or symbols")
	}
	t.Variant, t.Confidence, t.Type = "oracle_answer", "high", "evidence"
	if strings.Contains(pyval.Str(pyval.Path(m, "_metadata", "oracle_type")), "keyword_presence") {
		t.Type = "answer"
	}
	items(t, m["files"], "")
	items(t, m["chain"], "")
	symbols(t, m["symbols"], "")
	return nil
}

// taskSpec reads task_spec.json's artifacts.oracle: required_files,
// required_symbols and dependency_chains[].steps (CodeScaleBench's
// retrieval.py load_oracle_items).
func taskSpec(t *Truth, v any) error {
	m := pyval.Obj(v)
	oracle := pyval.Obj(pyval.Path(m, "artifacts", "oracle"))
	if oracle == nil {
		return fmt.Errorf("artifacts.oracle: expected an object with required_files")
	}
	t.Variant, t.Confidence, t.Type = "task_spec", "high", "evidence"
	items(t, oracle["required_files"], "")
	symbols(t, oracle["required_symbols"], "")
	for _, ch := range pyval.List(oracle["dependency_chains"]) {
		items(t, pyval.Obj(ch)["steps"], "")
	}
	return nil
}

// expectedDefects reads expected_defects.json: a list of {id, file,
// line_start, line_end, defect_type, …} (the form the code reads), or
// {"defects": [...]} (the form a pipeline doc shows). Each defect with
// lines is a chunk labelled by its defect_type; CodeScaleBench keeps chunk
// annotations only for its enum of defect types, the file for all.
func expectedDefects(t *Truth, v any) error {
	l, ok := v.([]any)
	if !ok {
		l, ok = pyval.Obj(v)["defects"].([]any)
		if !ok {
			return fmt.Errorf("expected a list of defects ({file, line_start, line_end, defect_type})")
		}
		t.Variant = "expected_defects.defects"
	} else {
		t.Variant = "expected_defects"
	}
	t.Confidence, t.Type = "high", "edit"
	for i, d := range l {
		dm := pyval.Obj(d)
		if dm == nil {
			return fmt.Errorf("[%d]: expected a defect object", i)
		}
		label := pyval.First(dm, "defect_type", "type", "id")
		t.addChunk(chunkOf(dm, "", label))
	}
	return nil
}

// expectedChanges reads expected_changes.json: expected_files (paths or
// {file|path}) or the single expected_file with expected_line_range [a, b].
// CodeScaleBench reads only expected_files, so the real single-file sample
// gives it nothing; here it gives the file and its range.
func expectedChanges(t *Truth, v any) error {
	m := pyval.Obj(v)
	if m == nil {
		return fmt.Errorf("expected an object with expected_files or expected_file")
	}
	t.Variant, t.Confidence, t.Type = "expected_changes", "high", "edit"
	items(t, m["expected_files"], "")
	if f := pyval.Str(m["expected_file"]); f != "" {
		t.Variant = "expected_changes.expected_file"
		c := Chunk{Path: f}
		if r := pyval.List(m["expected_line_range"]); len(r) == 2 {
			c.Start, _ = pyval.AnyInt(r[0])
			c.End, _ = pyval.AnyInt(r[1])
		}
		t.addChunk(c)
	}
	if m["expected_files"] == nil && m["expected_file"] == nil {
		return fmt.Errorf("expected an object with expected_files or expected_file")
	}
	return nil
}

// instance reads DIBench's tests/instance.json build_files.
func instance(t *Truth, v any) error {
	m := pyval.Obj(v)
	if m == nil || m["build_files"] == nil {
		return fmt.Errorf("expected an object with build_files")
	}
	t.Variant, t.Confidence, t.Type = "instance.build_files", "high", "edit"
	items(t, m["build_files"], "")
	return nil
}
