package unified

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/pyjson"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/rawjson"
)

// Write writes p as one JSONL line (Append's bytes and "\n").
func Write(w io.Writer, p *model.Prediction) error {
	b, err := Append(nil, p)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Append appends p as Python's json.dumps(record, ensure_ascii=False) writes
// the record the upstream converter builds, without a newline:
//
//	{"instance_id", ["original_inst_id"], "traj_data": {"pred_steps": [{"files",
//	"spans", ["symbols"]}], "pred_files", "pred_spans", ["pred_symbols"]},
//	"model_patch", ["repo_url"], ["commit"], Extra...}
//
// Bracketed keys are written when present: original_inst_id, repo_url and
// commit when non-empty, symbols maps when non-nil. Spans are written as
// {"type": "line", "start", "end"}. Extra values are re-encoded the way Python
// would after json.loads (", "/": " separators, float repr), so a record read
// by Read and written back is byte-identical when its keys were in this order.
// The error reports an Extra value that is not valid JSON.
func Append(dst []byte, p *model.Prediction) ([]byte, error) {
	dst = append(dst, `{"instance_id": `...)
	dst = pyjson.AppendStringUnicode(dst, p.InstanceID)
	if p.OriginalInstID != "" {
		dst = append(dst, `, "original_inst_id": `...)
		dst = pyjson.AppendStringUnicode(dst, p.OriginalInstID)
	}
	dst = append(dst, `, "traj_data": {"pred_steps": [`...)
	for i := range p.Steps {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		st := &p.Steps[i]
		dst = append(dst, `{"files": `...)
		dst = appendStrings(dst, st.Files)
		dst = append(dst, `, "spans": `...)
		dst = appendSpans(dst, st.Spans)
		if st.Symbols != nil {
			dst = append(dst, `, "symbols": `...)
			dst = appendSymbols(dst, st.Symbols)
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `], "pred_files": `...)
	dst = appendStrings(dst, p.Final.Files)
	dst = append(dst, `, "pred_spans": `...)
	dst = appendSpans(dst, p.Final.Spans)
	if p.Final.Symbols != nil {
		dst = append(dst, `, "pred_symbols": `...)
		dst = appendSymbols(dst, p.Final.Symbols)
	}
	dst = append(dst, `}, "model_patch": `...)
	dst = pyjson.AppendStringUnicode(dst, p.ModelPatch)
	if p.RepoURL != "" {
		dst = append(dst, `, "repo_url": `...)
		dst = pyjson.AppendStringUnicode(dst, p.RepoURL)
	}
	if p.Commit != "" {
		dst = append(dst, `, "commit": `...)
		dst = pyjson.AppendStringUnicode(dst, p.Commit)
	}
	for _, f := range p.Extra {
		dst = append(dst, ", "...)
		dst = pyjson.AppendStringUnicode(dst, f.Key)
		dst = append(dst, ": "...)
		var err error
		if dst, err = appendPyValue(dst, f.Value); err != nil {
			return dst, fmt.Errorf("unified: record %q: extra key %q: %w", p.InstanceID, f.Key, err)
		}
	}
	return append(dst, '}'), nil
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = pyjson.AppendStringUnicode(dst, s)
	}
	return append(dst, ']')
}

func appendSpans(dst []byte, spans []model.FileSpans) []byte {
	dst = append(dst, '{')
	for i, fs := range spans {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = pyjson.AppendStringUnicode(dst, fs.File)
		dst = append(dst, ": ["...)
		for j, sp := range fs.Spans {
			if j > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, `{"type": "line", "start": `...)
			dst = strconv.AppendInt(dst, int64(sp.Start), 10)
			dst = append(dst, `, "end": `...)
			dst = strconv.AppendInt(dst, int64(sp.End), 10)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendSymbols(dst []byte, syms []model.FileSymbols) []byte {
	dst = append(dst, '{')
	for i, fs := range syms {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = pyjson.AppendStringUnicode(dst, fs.File)
		dst = append(dst, ": "...)
		dst = appendStrings(dst, fs.Symbols)
	}
	return append(dst, '}')
}

// appendPyValue re-encodes a raw JSON value as json.dumps(json.loads(raw),
// ensure_ascii=False) would: member order kept, a repeated key once (first
// place, last value), integers exact, floats in Python repr.
func appendPyValue(dst []byte, raw []byte) ([]byte, error) {
	if !json.Valid(raw) {
		return dst, fmt.Errorf("invalid JSON value %.40q", raw)
	}
	return appendValid(dst, raw)
}

func appendValid(dst []byte, raw []byte) ([]byte, error) {
	raw = bytes.TrimSpace(raw)
	switch raw[0] {
	case '{':
		ms, err := members(raw)
		if err != nil {
			return dst, err
		}
		dst = append(dst, '{')
		for i, m := range ms {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = pyjson.AppendStringUnicode(dst, m.key)
			dst = append(dst, ": "...)
			if dst, err = appendValid(dst, m.val); err != nil {
				return dst, err
			}
		}
		return append(dst, '}'), nil
	case '[':
		els, err := rawjson.Elements(raw)
		if err != nil {
			return dst, err
		}
		dst = append(dst, '[')
		for i, el := range els {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			if dst, err = appendValid(dst, el); err != nil {
				return dst, err
			}
		}
		return append(dst, ']'), nil
	case '"':
		s, err := rawjson.DecodeString(raw)
		if err != nil {
			return dst, err
		}
		return pyjson.AppendStringUnicode(dst, s), nil
	}
	switch raw[0] {
	case 't', 'f', 'n':
		return append(dst, raw...), nil
	}
	if !strings.ContainsAny(string(raw), ".eE") {
		// A Python int: exact digits; "-0" is 0.
		if string(raw) == "-0" {
			return append(dst, '0'), nil
		}
		return append(dst, raw...), nil
	}
	// Out-of-range values parse to ±Inf or 0 as in Python; the error only
	// reports the range.
	f, _ := strconv.ParseFloat(string(raw), 64)
	return pyjson.AppendFloat(dst, f), nil
}
