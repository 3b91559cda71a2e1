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
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/rawjson"
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
}

// ErrNoInstanceID is wrapped by the Err of a Skip record.
var ErrNoInstanceID = errors.New(`no "instance_id" or "original_inst_id"`)

// ReadFile opens path and reads it with Read.
func ReadFile(path string) ([]Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads unified prediction records. name is used in messages and, when it
// ends in ".jsonl", forces line-by-line reading; otherwise the layout is
// detected from the content: a first line holding a whole JSON object means
// JSONL, else the content must be one JSON value, a list of records or one
// record. The returned error is for an unreadable file as a whole (I/O, or
// JSON that is not valid); a bad record only sets its Record.Err.
func Read(r io.Reader, name string) ([]Record, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM is not content
	if strings.HasSuffix(name, ".jsonl") || rawjson.FirstLineIsObject(data) {
		return readLines(data, name), nil
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, nil
	}
	if !json.Valid(trimmed) {
		var v json.RawMessage
		err := json.Unmarshal(trimmed, &v)
		base := bytes.Index(data, trimmed[:1])
		return nil, fmt.Errorf("%s: %s: invalid JSON: %v", name, syntaxPlace(data, base, err), err)
	}
	base := len(data) - len(bytes.TrimLeft(data, " \t\r\n"))
	switch trimmed[0] {
	case '{':
		rec := parseRecord(trimmed)
		return []Record{finish(rec, name, rawjson.LineAt(data, base))}, nil
	case '[':
		return readList(data, trimmed, base, name)
	}
	return nil, fmt.Errorf("%s: line %d: expected a list of records or one record, found %s", name, rawjson.LineAt(data, base), rawjson.KindOf(trimmed))
}

func readLines(data []byte, name string) []Record {
	var out []Record
	lineNo := 0
	for len(data) > 0 {
		line, rest, _ := bytes.Cut(data, []byte{'\n'})
		data = rest
		lineNo++
		// Python's `for line in f` keeps "\r"; json.loads treats it as space.
		if isBlank(line) {
			continue
		}
		trimmed := bytes.TrimSpace(line)
		if !json.Valid(trimmed) {
			var v json.RawMessage
			err := json.Unmarshal(trimmed, &v)
			msg := "invalid JSON"
			var se *json.SyntaxError
			if errors.As(err, &se) {
				col := max(int(se.Offset)-1, 0) + len(line) - len(bytes.TrimLeft(line, " \t\r"))
				msg = fmt.Sprintf("invalid JSON at byte %d of the line: %v", col, err)
			}
			out = append(out, Record{Err: fmt.Errorf("%s:%d: %s", name, lineNo, msg), Line: lineNo})
			continue
		}
		out = append(out, finish(parseRecord(trimmed), name, lineNo))
	}
	return out
}

// isBlank mirrors upstream's `if line.strip()`: Python strips what
// str.isspace() holds for, Unicode spaces and \x1c-\x1f included.
func isBlank(line []byte) bool {
	return len(bytes.TrimFunc(line, python.IsSpace)) == 0
}

func readList(data, trimmed []byte, base int, name string) ([]Record, error) {
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if _, err := dec.Token(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []Record
	for dec.More() {
		off := int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: %s: %v", name, syntaxPlace(data, base+off, err), err)
		}
		// InputOffset is before the separating comma and spaces.
		for off < len(trimmed) && bytes.IndexByte([]byte(" \t\r\n,"), trimmed[off]) >= 0 {
			off++
		}
		line := rawjson.LineAt(data, base+off)
		if len(raw) == 0 || raw[0] != '{' {
			out = append(out, Record{Err: fmt.Errorf("%s:%d: [%d]: expected a record object, found %s", name, line, len(out), rawjson.KindOf(raw)), Line: line})
			continue
		}
		out = append(out, finish(parseRecord(raw), name, line))
	}
	return out, nil
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

// parseRecord reads one record object. Missing keys take upstream's defaults:
// no traj_data is an empty one, no pred_steps is an empty list, and so on.
func parseRecord(raw []byte) (rec Record) {
	ms, err := members(raw)
	if err != nil {
		rec.Err = ferr("", "%v", err)
		return rec
	}
	p := &rec.Pred
	var instanceID, origID string
	var trajRaw []byte
	for _, m := range ms {
		switch m.key {
		case "instance_id", "original_inst_id", "model_patch", "repo_url", "commit":
			s, err := optString(m.val)
			if err != nil {
				if rec.Err == nil {
					rec.Err = ferr(m.key, "%v", err)
				}
				continue
			}
			switch m.key {
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
			trajRaw = m.val
		default:
			// A copy, so a small Extra does not pin the whole input.
			p.Extra = append(p.Extra, model.RawField{Key: m.key, Value: bytes.Clone(m.val)})
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
	if trajRaw != nil && rec.Err == nil {
		if fe := parseTrajData(trajRaw, p); fe != nil {
			rec.Err = fe
		}
	}
	return rec
}

// optString reads a string member where null means "" (upstream's `or ""`).
func optString(raw []byte) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	return rawjson.DecodeString(raw)
}

func parseTrajData(raw []byte, p *model.Prediction) *fieldError {
	ms, err := members(raw)
	if err != nil {
		return ferr("traj_data", "%v", err)
	}
	for _, m := range ms {
		switch m.key {
		case "pred_steps":
			els, err := rawjson.Elements(m.val)
			if err != nil {
				return ferr("traj_data.pred_steps", "%v", err)
			}
			p.Steps = make([]model.Step, 0, len(els))
			for i, el := range els {
				st, fe := parseStep(el, "traj_data.pred_steps["+strconv.Itoa(i)+"]")
				if fe != nil {
					return fe
				}
				p.Steps = append(p.Steps, st)
			}
		case "pred_files":
			files, fe := parseFiles(m.val, "traj_data.pred_files")
			if fe != nil {
				return fe
			}
			p.Final.Files = files
		case "pred_spans":
			spans, fe := parseSpans(m.val, "traj_data.pred_spans")
			if fe != nil {
				return fe
			}
			p.Final.Spans = spans
		case "pred_symbols":
			syms, fe := parseSymbols(m.val, "traj_data.pred_symbols")
			if fe != nil {
				return fe
			}
			p.Final.Symbols = syms
		}
	}
	return nil
}

func parseStep(raw []byte, path string) (model.Step, *fieldError) {
	var st model.Step
	ms, err := members(raw)
	if err != nil {
		return st, ferr(path, "%v", err)
	}
	for _, m := range ms {
		var fe *fieldError
		switch m.key {
		case "files":
			st.Files, fe = parseFiles(m.val, path+".files")
		case "spans":
			st.Spans, fe = parseSpans(m.val, path+".spans")
		case "symbols":
			st.Symbols, fe = parseSymbols(m.val, path+".symbols")
		}
		if fe != nil {
			return st, fe
		}
	}
	return st, nil
}

// parseFiles reads a list of paths; null is an empty list (upstream `or []`).
func parseFiles(raw []byte, path string) ([]string, *fieldError) {
	if isNull(raw) {
		return []string{}, nil
	}
	els, err := rawjson.Elements(raw)
	if err != nil {
		return nil, ferr(path, "%v", err)
	}
	files := make([]string, 0, len(els))
	for i, el := range els {
		s, err := rawjson.DecodeString(el)
		if err != nil {
			return nil, ferr(path+"["+strconv.Itoa(i)+"]", "%v", err)
		}
		files = append(files, s)
	}
	return files, nil
}

// parseSpans reads {file: [{type, start, end}, ...]}. Upstream calls .items()
// on it, so null is an error here, unlike files and symbols. Paths for
// messages are built only on error: this is the hot loop.
func parseSpans(raw []byte, path string) ([]model.FileSpans, *fieldError) {
	ms, err := members(raw)
	if err != nil {
		return nil, ferr(path, "%v", err)
	}
	out := make([]model.FileSpans, 0, len(ms))
	for _, m := range ms {
		fpath := func() string { return path + "[" + strconv.Quote(m.key) + "]" }
		els, err := rawjson.Elements(m.val)
		if err != nil {
			return nil, ferr(fpath(), "%v", err)
		}
		fs := model.FileSpans{File: m.key, Spans: make([]model.Interval, 0, len(els))}
		for j, el := range els {
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
// (".start") and msg says what was wrong. A repeated key takes its last
// value, as in Python.
func parseSpan(raw []byte) (sp model.Interval, sub, msg string) {
	it, err := rawjson.NewObjIter(raw)
	if err != nil {
		return sp, "", err.Error()
	}
	var haveStart, haveEnd bool
	for {
		key, val, ok := it.Next()
		if !ok {
			break
		}
		isStart := rawjson.KeyIs(key, "start")
		if !isStart && !rawjson.KeyIs(key, "end") {
			continue
		}
		n, err := rawjson.DecodeInt(val)
		if err != nil {
			name := "end"
			if isStart {
				name = "start"
			}
			return sp, "." + name, err.Error()
		}
		if isStart {
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
func parseSymbols(raw []byte, path string) ([]model.FileSymbols, *fieldError) {
	if isNull(raw) {
		return nil, nil
	}
	ms, err := members(raw)
	if err != nil {
		return nil, ferr(path, "%v", err)
	}
	out := make([]model.FileSymbols, 0, len(ms))
	for _, m := range ms {
		names, fe := parseFiles(m.val, path+"["+strconv.Quote(m.key)+"]")
		if fe != nil {
			return nil, fe
		}
		out = append(out, model.FileSymbols{File: m.key, Symbols: names})
	}
	return out, nil
}
