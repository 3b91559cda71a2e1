// Package unified reads and writes ContextBench unified prediction records
// (what the evaluator's --pred reads): one JSON object per instance with the per-step
// context (traj_data.pred_steps), the final context (pred_files, pred_spans,
// pred_symbols) and the model patch. Files are JSONL (one record a line) or
// JSON (a list of records, or one record).
//
// Reading keeps what upstream keeps and where it keeps it: the key order of
// span and symbol maps (the model uses ordered slices), whether "symbols" and
// "pred_symbols" were present (nil slice = absent, empty non-nil = {}), and
// unknown top-level keys verbatim in Prediction.Extra. Writing produces the
// bytes Python's json.dumps(record, ensure_ascii=False) gives, the call the
// upstream converter (process_trajectories) uses.
package unified

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Record is one prediction record read from a file.
//
// Err is set when the record could not be used; Pred then holds whatever was
// read before the problem. Upstream would crash on such a record (a KeyError
// or TypeError); trajscope reports it and carries on with the others. Its
// message starts with the file's name and the record's line ("name:line:"),
// so callers report it as it is.
//
// Skip is set (with Err) when the record names neither instance_id nor
// original_inst_id. Upstream drops such records silently and writes nothing
// for them, so a scorer aiming at parity must drop them too.
type Record struct {
	Pred model.Prediction
	Err  error
	Skip bool
	// Line is the 1-based line of the file where the record starts.
	Line int
	// Notes say what the reader of the run this record was made from
	// skipped or did not understand (stderr's lines; not written).
	Notes []string
}

// ErrNoInstanceID is wrapped by the Err of a Skip record.
var ErrNoInstanceID = errors.New(`no "instance_id" or "original_inst_id"`)

// ReadFile opens path and reads it with Read.
func ReadFile(path string) ([]Record, error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, err
	}
	return Parse(data, path)
}

// Parse reads unified prediction records. name is used in messages and, when it
// ends in ".jsonl", forces line-by-line reading; otherwise the layout is
// detected from the content: a first line holding a whole JSON object means
// JSONL, else the content must be one JSON value, a list of records or one
// record. The returned error is for an unreadable file as a whole (I/O, or
// JSON that is not valid); a bad record only sets its Record.Err.
func Parse(data []byte, name string) ([]Record, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM is not content
	if strings.HasSuffix(name, ".jsonl") || jsontree.FirstLineIsObject(data) {
		return readLines(data, name), nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, nil
	}
	v, err := jsontree.Parse(data)
	if err != nil {
		return nil, jsontree.At(name, err)
	}
	switch v.Kind {
	case jsontree.Object:
		return []Record{finish(parseRecord(v, data), name, jsontree.LineAt(data, v.Off))}, nil
	case jsontree.Array:
		out := make([]Record, 0, len(v.Arr))
		for i, e := range v.Arr {
			line := jsontree.LineAt(data, e.Off)
			if !e.Is(jsontree.Object) {
				out = append(out, Record{Err: fmt.Errorf("%s:%d: [%d]: expected a record object, found %s", name, line, i, e.Describe()), Line: line})
				continue
			}
			out = append(out, finish(parseRecord(e, data), name, line))
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: line %d: expected a list of records or one record, found %s", name, jsontree.LineAt(data, v.Off), v.Describe())
}

func readLines(data []byte, name string) []Record {
	var out []Record
	lineNo := 0
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		lineNo++
		if r, ok := lineRecord(line, name, lineNo); ok {
			out = append(out, r)
		}
	}
	return out
}

// lineRecord reads one line of a JSONL file; ok is false for a blank line.
func lineRecord(line []byte, name string, lineNo int) (Record, bool) {
	// Python's `for line in f` keeps "\r"; json.loads treats it as space.
	if isBlank(line) {
		return Record{}, false
	}
	v, err := jsontree.ParseAt(line, lineNo)
	if err != nil {
		return Record{Err: jsontree.At(name, err), Line: lineNo}, true
	}
	if !v.Is(jsontree.Object) {
		return finish(Record{Err: ferr("", "expected an object, found %s", v.Describe())}, name, lineNo), true
	}
	return finish(parseRecord(v, line), name, lineNo), true
}

// EachLineIn reads a JSONL file of records at path one line at a time,
// calling fn with each record of the lines numbered in [from, to) (to ≤ 0:
// to the end) in file order (exactly the records ReadFile gives, for a
// file ReadFile reads as JSONL), so a file of any number of records costs
// one line's memory, and a shard of it reads only its slice (the other
// lines passed over, not decoded). The file is a stream
// (inputfile.Stream): standard input as "-", .gz and .zst decompressed,
// no bound on its size but one on each line. fn's error stops the reading.
func EachLineIn(path string, from, to int, fn func(Record) error) error {
	return inputfile.EachLine(path, from, to, func(lineNo int, line []byte, err error) error {
		if err != nil {
			// One record too large to hold: it is an unreadable record,
			// the others still score.
			return fn(Record{Err: err, Line: lineNo})
		}
		if lineNo == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a BOM is not content
		}
		if rec, ok := lineRecord(line, path, lineNo); ok {
			return fn(rec)
		}
		return nil
	})
}

// IsJSONL reports whether the file at path is read as JSON lines: named
// .jsonl, or its first line holds a whole object (as Parse decides).
func IsJSONL(path string) bool {
	if strings.HasSuffix(path, ".jsonl") {
		return true
	}
	head, err := inputfile.Head(path, 1<<20)
	if err != nil {
		return false
	}
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		head = head[:i]
	} else if len(head) == 1<<20 {
		return false // a first line past the head: read it whole
	}
	return jsontree.FirstLineIsObject(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")))
}

// isBlank mirrors upstream's `if line.strip()`: Python strips what
// str.isspace() holds for, Unicode spaces and \x1c-\x1f included.
func isBlank(line []byte) bool {
	return len(bytes.TrimFunc(line, python.IsSpace)) == 0
}

// fieldError is a problem at a JSON path inside one record.
type fieldError struct {
	path string
	msg  string
	skip bool
	err  error
}

func (e *fieldError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

func (e *fieldError) Unwrap() error { return e.err }

func ferr(path, format string, args ...any) *fieldError {
	return &fieldError{path: path, msg: fmt.Sprintf(format, args...)}
}

// finish places a record's error at name:line.
func finish(rec Record, name string, line int) Record {
	rec.Line = line
	if rec.Err != nil {
		var fe *fieldError
		if errors.As(rec.Err, &fe) {
			rec.Skip = fe.skip
		}
		rec.Err = fmt.Errorf("%s:%d: %w", name, line, rec.Err)
	}
	return rec
}

// parseRecord reads one record object, whose text is in doc. Missing keys
// take upstream's defaults: no traj_data is an empty one, no pred_steps is
// an empty list, and so on.
func parseRecord(v *jsontree.Value, doc []byte) (rec Record) {
	p := &rec.Pred
	var instanceID, origID string
	var traj *jsontree.Value
	for _, m := range v.Obj {
		switch m.Key {
		case "instance_id", "original_inst_id", "model_patch", "repo_url", "commit":
			s, err := optString(m.Val)
			if err != nil {
				if rec.Err == nil {
					rec.Err = ferr(m.Key, "%v", err)
				}
				continue
			}
			switch m.Key {
			case "instance_id":
				instanceID = s
			case "original_inst_id":
				origID = s
			case "model_patch":
				p.ModelPatch = s
			case "repo_url":
				p.RepoURL = s
			case "commit":
				p.Commit = s
			}
		case "traj_data":
			traj = m.Val
		case model.StepActionsKey:
			// trajscope's own key; a list it cannot read is left out.
			p.StepActions = nil
			if m.Val.Kind == jsontree.Array && len(m.Val.Arr) <= model.MaxActions {
				for _, e := range m.Val.Arr {
					n, ok := e.Int()
					if !ok {
						p.StepActions = nil
						break
					}
					p.StepActions = append(p.StepActions, n)
				}
			}
		default:
			// A copy, so a small Extra does not pin the whole input.
			p.Extra = append(p.Extra, model.RawField{Key: m.Key, Value: bytes.Clone(doc[m.Val.Off:m.Val.End])})
		}
	}
	p.InstanceID = instanceID
	if p.InstanceID == "" {
		p.InstanceID = origID
	}
	p.OriginalInstID = origID
	if p.InstanceID == "" && rec.Err == nil {
		rec.Err = &fieldError{msg: ErrNoInstanceID.Error() + " (upstream skips this record)", skip: true, err: ErrNoInstanceID}
		return rec
	}
	if traj != nil && rec.Err == nil {
		if fe := parseTrajData(traj, p); fe != nil {
			rec.Err = fe
		}
	}
	return rec
}

// expected is the error for a value of the wrong kind.
func expected(what string, v *jsontree.Value) error {
	return fmt.Errorf("expected %s, found %s", what, v.Describe())
}

// optString reads a string member where null means "" (upstream's `or ""`).
func optString(v *jsontree.Value) (string, error) {
	if v.IsNull() {
		return "", nil
	}
	if s, ok := v.AsString(); ok {
		return s, nil
	}
	return "", expected("a string", v)
}

func parseTrajData(v *jsontree.Value, p *model.Prediction) *fieldError {
	if !v.Is(jsontree.Object) {
		return ferr("traj_data", "%v", expected("an object", v))
	}
	for _, m := range v.Obj {
		switch m.Key {
		case "pred_steps":
			if !m.Val.Is(jsontree.Array) {
				return ferr("traj_data.pred_steps", "%v", expected("a list", m.Val))
			}
			if n := len(m.Val.Arr); n > model.MaxActions {
				return ferr("traj_data.pred_steps", "%d steps; trajscope reads at most %d per record", n, model.MaxActions)
			}
			p.Steps = make([]model.Step, 0, len(m.Val.Arr))
			for i, el := range m.Val.Arr {
				st, fe := parseStep(el, "traj_data.pred_steps["+strconv.Itoa(i)+"]")
				if fe != nil {
					return fe
				}
				p.Steps = append(p.Steps, st)
			}
		case "pred_files":
			files, fe := parseFiles(m.Val, "traj_data.pred_files")
			if fe != nil {
				return fe
			}
			p.Final.Files = files
		case "pred_spans":
			spans, fe := parseSpans(m.Val, "traj_data.pred_spans")
			if fe != nil {
				return fe
			}
			p.Final.Spans = spans
		case "pred_symbols":
			syms, fe := parseSymbols(m.Val, "traj_data.pred_symbols")
			if fe != nil {
				return fe
			}
			p.Final.Symbols = syms
		}
	}
	return nil
}

func parseStep(v *jsontree.Value, path string) (model.Step, *fieldError) {
	var st model.Step
	if !v.Is(jsontree.Object) {
		return st, ferr(path, "%v", expected("an object", v))
	}
	for _, m := range v.Obj {
		var fe *fieldError
		switch m.Key {
		case "files":
			st.Files, fe = parseFiles(m.Val, path+".files")
		case "spans":
			st.Spans, fe = parseSpans(m.Val, path+".spans")
		case "symbols":
			st.Symbols, fe = parseSymbols(m.Val, path+".symbols")
		}
		if fe != nil {
			return st, fe
		}
	}
	return st, nil
}

// parseFiles reads a list of paths; null is an empty list (upstream `or []`).
func parseFiles(v *jsontree.Value, path string) ([]string, *fieldError) {
	if v.IsNull() {
		return []string{}, nil
	}
	if !v.Is(jsontree.Array) {
		return nil, ferr(path, "%v", expected("a list", v))
	}
	files := make([]string, 0, len(v.Arr))
	for i, el := range v.Arr {
		s, ok := el.AsString()
		if !ok {
			return nil, ferr(path+"["+strconv.Itoa(i)+"]", "%v", expected("a string", el))
		}
		files = append(files, s)
	}
	return files, nil
}

// parseSpans reads {file: [{type, start, end}, ...]}. Upstream calls .items()
// on it, so null is an error here, unlike files and symbols. Paths for
// messages are built only on error: this is the hot loop.
func parseSpans(v *jsontree.Value, path string) ([]model.FileSpans, *fieldError) {
	if !v.Is(jsontree.Object) {
		return nil, ferr(path, "%v", expected("an object", v))
	}
	out := make([]model.FileSpans, 0, len(v.Obj))
	for _, m := range v.Obj {
		fpath := func() string { return path + "[" + strconv.Quote(m.Key) + "]" }
		if !m.Val.Is(jsontree.Array) {
			return nil, ferr(fpath(), "%v", expected("a list", m.Val))
		}
		fs := model.FileSpans{File: m.Key, Spans: make([]model.Interval, 0, len(m.Val.Arr))}
		for j, el := range m.Val.Arr {
			sp, sub, msg := parseSpan(el)
			if msg != "" {
				return nil, ferr(fpath()+"["+strconv.Itoa(j)+"]"+sub, "%s", msg)
			}
			fs.Spans = append(fs.Spans, sp)
		}
		out = append(out, fs)
	}
	return out, nil
}

// parseSpan reads one span; on failure sub is the path below the span
// (".start") and msg says what was wrong.
func parseSpan(v *jsontree.Value) (sp model.Interval, sub, msg string) {
	if !v.Is(jsontree.Object) {
		return sp, "", expected("an object", v).Error()
	}
	var haveStart, haveEnd bool
	for _, m := range v.Obj {
		if m.Key != "start" && m.Key != "end" {
			continue
		}
		n, err := m.Val.Integer()
		if err != nil {
			return sp, "." + m.Key, err.Error()
		}
		if m.Key == "start" {
			sp.Start, haveStart = n, true
		} else {
			sp.End, haveEnd = n, true
		}
	}
	switch {
	case !haveStart:
		return sp, "", `missing "start"`
	case !haveEnd:
		return sp, "", `missing "end"`
	}
	return sp, "", ""
}

// parseSymbols reads {file: [name, ...]}. null is absent (upstream `or {}`);
// {} is kept as an empty non-nil slice so that writing keeps the key.
func parseSymbols(v *jsontree.Value, path string) ([]model.FileSymbols, *fieldError) {
	if v.IsNull() {
		return nil, nil
	}
	if !v.Is(jsontree.Object) {
		return nil, ferr(path, "%v", expected("an object", v))
	}
	out := make([]model.FileSymbols, 0, len(v.Obj))
	for _, m := range v.Obj {
		names, fe := parseFiles(m.Val, path+"["+strconv.Quote(m.Key)+"]")
		if fe != nil {
			return nil, fe
		}
		out = append(out, model.FileSymbols{File: m.Key, Symbols: names})
	}
	return out, nil
}
