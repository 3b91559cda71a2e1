package groundtruth

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/parsers/internal/jsontree"
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
func groundTruth(t *Truth, v *jsontree.Value) error {
	if v.Is(jsontree.Array) {
		t.Variant, t.Confidence, t.Type = "ground_truth.list", "medium", "edit"
		for i, e := range v.Arr {
			s, ok := e.AsString()
			if !ok {
				if m := e.Object(); m != nil {
					t.add(m.Get("repo").Text(), m.First("path", "file"))
					continue
				}
				return fmt.Errorf("[%d]: expected a path string", i)
			}
			t.add("", s)
		}
		return nil
	}
	m := v.Object()
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
		if _, ok := m.Lookup(s.key); ok {
			t.Variant, t.Confidence, t.Type = s.variant, s.confidence, s.typ
			break
		}
	}
	if t.Variant == "" {
		for _, k := range topicKeys {
			if _, ok := m.Lookup(k); ok {
				t.Variant, t.Confidence, t.Type = "ground_truth.topics", "low", "generate"
				break
			}
		}
	}
	if t.Variant == "" {
		return fmt.Errorf("expected a ground-truth object (files, buggy_files, file_references, entries, file_path, canonical_path, steps, chunks, scoring_categories or topic keys)")
	}
	if c := m.Get("confidence").Text(); c != "" {
		t.Confidence = c
	}
	if g := m.Get("gt_type").Text(); g != "" {
		t.Type = g
	}
	repo := m.Get("repo").Text()
	for _, k := range []string{"files", "expected_edit_files", "root_cause_files", "entry_points",
		"data_flow", "dependency_chain", "buggy_files", "output_files", "evidence_files"} {
		items(t, m.Get(k), repo)
	}
	for _, e := range m.Get("entries").Items() {
		if em := e.Object(); em != nil {
			t.add(em.Get("repo").Text(), em.First("file", "path"))
		}
	}
	items(t, m.Get("steps"), repo)
	if s := m.Get("file_path").Text(); s != "" {
		t.add(repo, s)
		if fn := m.First("target_function", "function_name"); fn != "" {
			t.addSymbol(Symbol{Repo: repo, Path: s, Name: fn, Kind: "function"})
		}
	}
	if s := m.Get("canonical_path").Text(); s != "" {
		t.add(repo, s)
		if fn := m.First("name", "function_name"); fn != "" {
			t.addSymbol(Symbol{Repo: repo, Path: s, Name: fn, Kind: "function"})
		}
	}
	for _, f := range checklistFiles(m.Get("file_references")) {
		t.add(repo, f)
	}
	for _, c := range m.Get("chunks").Items() {
		cm := c.Object()
		if cm == nil {
			continue
		}
		t.addChunk(chunkOf(cm, repo, cm.First("annotation", "label")))
	}
	symbols(t, m.Get("symbols"), repo)
	return nil
}

// items adds a list of files given as path strings or {repo, path|file}
// objects.
func items(t *Truth, v *jsontree.Value, repo string) {
	for _, e := range v.Items() {
		switch x := e; x.Kind {
		case jsontree.String:
			t.add(repo, x.Str)
		case jsontree.Object:
			r := x.Get("repo").Text()
			if r == "" {
				r = repo
			}
			p := x.First("path", "file", "file_path")
			if sym := x.First("symbol", "name"); sym != "" && p != "" {
				t.addSymbol(Symbol{Repo: r, Path: p, Name: sym, Kind: x.Get("kind").Text()})
				continue
			}
			t.add(r, p)
		}
	}
}

// symbols adds {file|path, symbol|name, repo, kind} items.
func symbols(t *Truth, v *jsontree.Value, repo string) {
	for _, e := range v.Items() {
		sm := e.Object()
		if sm == nil {
			continue
		}
		r := sm.Get("repo").Text()
		if r == "" {
			r = repo
		}
		t.addSymbol(Symbol{Repo: r, Path: sm.First("path", "file"), Name: sm.First("symbol", "name"), Kind: sm.Get("kind").Text()})
	}
}

// chunkOf reads {file|path, line_start|start_line|start, line_end|…}.
func chunkOf(m *jsontree.Value, repo, label string) Chunk {
	r := m.Get("repo").Text()
	if r == "" {
		r = repo
	}
	c := Chunk{Repo: r, Path: m.First("file", "path", "file_path"), Label: label}
	for _, k := range []string{"line_start", "start_line", "start"} {
		if n, ok := m.Get(k).AnyInt(); ok {
			c.Start = n
			break
		}
	}
	for _, k := range []string{"line_end", "end_line", "end"} {
		if n, ok := m.Get(k).AnyInt(); ok {
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
func checklistFiles(v *jsontree.Value) []string {
	var out []string
	for _, ref := range v.Items() {
		for _, p := range ref.Get("patterns").Items() {
			s, ok := p.AsString()
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
func oracleAnswer(t *Truth, v *jsontree.Value) error {
	m := v.Object()
	if m == nil {
		return fmt.Errorf("expected an object with files, chain or symbols")
	}
	t.Variant, t.Confidence, t.Type = "oracle_answer", "high", "evidence"
	if strings.Contains(m.Path("_metadata", "oracle_type").Text(), "keyword_presence") {
		t.Type = "answer"
	}
	items(t, m.Get("files"), "")
	items(t, m.Get("chain"), "")
	symbols(t, m.Get("symbols"), "")
	return nil
}

// taskSpec reads task_spec.json's artifacts.oracle: required_files,
// required_symbols and dependency_chains[].steps (CodeScaleBench's
// retrieval.py load_oracle_items).
func taskSpec(t *Truth, v *jsontree.Value) error {
	m := v.Object()
	oracle := m.Path("artifacts", "oracle").Object()
	if oracle == nil {
		return fmt.Errorf("artifacts.oracle: expected an object with required_files")
	}
	t.Variant, t.Confidence, t.Type = "task_spec", "high", "evidence"
	items(t, oracle.Get("required_files"), "")
	symbols(t, oracle.Get("required_symbols"), "")
	for _, ch := range oracle.Get("dependency_chains").Items() {
		items(t, ch.Get("steps"), "")
	}
	return nil
}

// expectedDefects reads expected_defects.json: a list of {id, file,
// line_start, line_end, defect_type, …} (the form the code reads), or
// {"defects": [...]} (the form a pipeline doc shows). Each defect with
// lines is a chunk labelled by its defect_type; CodeScaleBench keeps chunk
// annotations only for its enum of defect types, the file for all.
func expectedDefects(t *Truth, v *jsontree.Value) error {
	l, ok := v.Items(), v.Is(jsontree.Array)
	if !ok {
		l, ok = v.Get("defects").Items(), v.Get("defects").Is(jsontree.Array)
		if !ok {
			return fmt.Errorf("expected a list of defects ({file, line_start, line_end, defect_type})")
		}
		t.Variant = "expected_defects.defects"
	} else {
		t.Variant = "expected_defects"
	}
	t.Confidence, t.Type = "high", "edit"
	for i, d := range l {
		dm := d.Object()
		if dm == nil {
			return fmt.Errorf("[%d]: expected a defect object", i)
		}
		label := dm.First("defect_type", "type", "id")
		t.addChunk(chunkOf(dm, "", label))
	}
	return nil
}

// expectedChanges reads expected_changes.json: expected_files (paths or
// {file|path}) or the single expected_file with expected_line_range [a, b].
// CodeScaleBench reads only expected_files, so the real single-file sample
// gives it nothing; here it gives the file and its range.
func expectedChanges(t *Truth, v *jsontree.Value) error {
	m := v.Object()
	if m == nil {
		return fmt.Errorf("expected an object with expected_files or expected_file")
	}
	t.Variant, t.Confidence, t.Type = "expected_changes", "high", "edit"
	items(t, m.Get("expected_files"), "")
	if f := m.Get("expected_file").Text(); f != "" {
		t.Variant = "expected_changes.expected_file"
		c := Chunk{Path: f}
		if r := m.Get("expected_line_range").Items(); len(r) == 2 {
			c.Start, _ = r[0].AnyInt()
			c.End, _ = r[1].AnyInt()
		}
		t.addChunk(c)
	}
	if m.Get("expected_files").IsNull() && m.Get("expected_file").IsNull() {
		return fmt.Errorf("expected an object with expected_files or expected_file")
	}
	return nil
}

// instance reads DIBench's tests/instance.json build_files.
func instance(t *Truth, v *jsontree.Value) error {
	m := v.Object()
	if m == nil || m.Get("build_files").IsNull() {
		return fmt.Errorf("expected an object with build_files")
	}
	t.Variant, t.Confidence, t.Type = "instance.build_files", "high", "edit"
	items(t, m.Get("build_files"), "")
	return nil
}
