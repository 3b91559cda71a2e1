package unified

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Append appends p as Python's json.dumps(record, ensure_ascii=False) writes
// the record the upstream converter builds, without a newline:
//
//	{"instance_id", ["original_inst_id"], "traj_data": {"pred_steps": [{"files",
//	"spans", ["symbols"]}], "pred_files", "pred_spans", ["pred_symbols"]},
//	"model_patch", ["repo_url"], ["commit"], Extra..., ["step_actions"]}
//
// Bracketed keys are written when present: original_inst_id, repo_url and
// commit when non-empty, symbols maps when non-nil. Spans are written as
// {"type": "line", "start", "end"}. Extra values are re-encoded the way Python
// would after json.loads (", "/": " separators, float repr), so a record read
// by Read and written back is byte-identical when its keys were in this order.
// The error reports an Extra value that is not valid JSON.
func Append(dst []byte, p *model.Prediction) ([]byte, error) {
	dst = append(dst, `{"instance_id": `...)
	dst = python.AppendJSONStringUnicode(dst, p.InstanceID)
	if p.OriginalInstID != "" {
		dst = append(dst, `, "original_inst_id": `...)
		dst = python.AppendJSONStringUnicode(dst, p.OriginalInstID)
	}
	dst = append(dst, `, "traj_data": {"pred_steps": `...)
	dst = appendSeq(dst, '[', ']', len(p.Steps), func(dst []byte, i int) []byte {
		st := &p.Steps[i]
		dst = append(dst, `{"files": `...)
		dst = appendStrings(dst, st.Files)
		dst = append(dst, `, "spans": `...)
		dst = appendSpans(dst, st.Spans)
		if st.Symbols != nil {
			dst = append(dst, `, "symbols": `...)
			dst = appendSymbols(dst, st.Symbols)
		}
		return append(dst, '}')
	})
	dst = append(dst, `, "pred_files": `...)
	dst = appendStrings(dst, p.Final.Files)
	dst = append(dst, `, "pred_spans": `...)
	dst = appendSpans(dst, p.Final.Spans)
	if p.Final.Symbols != nil {
		dst = append(dst, `, "pred_symbols": `...)
		dst = appendSymbols(dst, p.Final.Symbols)
	}
	dst = append(dst, `}, "model_patch": `...)
	dst = python.AppendJSONStringUnicode(dst, p.ModelPatch)
	if p.RepoURL != "" {
		dst = append(dst, `, "repo_url": `...)
		dst = python.AppendJSONStringUnicode(dst, p.RepoURL)
	}
	if p.Commit != "" {
		dst = append(dst, `, "commit": `...)
		dst = python.AppendJSONStringUnicode(dst, p.Commit)
	}
	for _, f := range p.Extra {
		dst = append(dst, ", "...)
		dst = python.AppendJSONStringUnicode(dst, f.Key)
		dst = append(dst, ": "...)
		var err error
		if dst, err = appendPyValue(dst, f.Value); err != nil {
			return dst, fmt.Errorf("unified: record %q: extra key %q: %w", p.InstanceID, f.Key, err)
		}
	}
	if p.StepActions != nil {
		// After every key the evaluator and the upstream converter know.
		dst = append(dst, `, "`+model.StepActionsKey+`": `...)
		dst = appendSeq(dst, '[', ']', len(p.StepActions), func(dst []byte, i int) []byte {
			return strconv.AppendInt(dst, int64(p.StepActions[i]), 10)
		})
	}
	return append(dst, '}'), nil
}

// appendSeq writes n items the way json.dumps separates them (", "),
// between open and close.
func appendSeq(dst []byte, open, close byte, n int, item func(dst []byte, i int) []byte) []byte {
	dst = append(dst, open)
	for i := 0; i < n; i++ {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = item(dst, i)
	}
	return append(dst, close)
}

func appendStrings(dst []byte, ss []string) []byte {
	return appendSeq(dst, '[', ']', len(ss), func(dst []byte, i int) []byte {
		return python.AppendJSONStringUnicode(dst, ss[i])
	})
}

// appendSpans writes {"file": [{"type": "line", "start": a, "end": b}, …], …}.
func appendSpans(dst []byte, spans []model.FileSpans) []byte {
	return appendSeq(dst, '{', '}', len(spans), func(dst []byte, i int) []byte {
		fs := spans[i]
		dst = python.AppendJSONStringUnicode(dst, fs.File)
		dst = append(dst, ": "...)
		return appendSeq(dst, '[', ']', len(fs.Spans), func(dst []byte, j int) []byte {
			dst = append(dst, `{"type": "line", "start": `...)
			dst = strconv.AppendInt(dst, int64(fs.Spans[j].Start), 10)
			dst = append(dst, `, "end": `...)
			dst = strconv.AppendInt(dst, int64(fs.Spans[j].End), 10)
			return append(dst, '}')
		})
	})
}

// appendSymbols writes {"file": ["name", …], …}.
func appendSymbols(dst []byte, syms []model.FileSymbols) []byte {
	return appendSeq(dst, '{', '}', len(syms), func(dst []byte, i int) []byte {
		dst = python.AppendJSONStringUnicode(dst, syms[i].File)
		dst = append(dst, ": "...)
		return appendStrings(dst, syms[i].Symbols)
	})
}

// appendPyValue re-encodes a raw JSON value as json.dumps(json.loads(raw),
// ensure_ascii=False) would: member order kept, a repeated key once (first
// place, last value), integers exact, floats in Python repr.
func appendPyValue(dst []byte, raw []byte) ([]byte, error) {
	v, err := jsontree.Parse(raw)
	if err != nil {
		return dst, fmt.Errorf("invalid JSON value %.40q", raw)
	}
	return appendValue(dst, v), nil
}

func appendValue(dst []byte, v *jsontree.Value) []byte {
	switch v.Kind {
	case jsontree.Object:
		return appendSeq(dst, '{', '}', len(v.Obj), func(dst []byte, i int) []byte {
			dst = python.AppendJSONStringUnicode(dst, v.Obj[i].Key)
			dst = append(dst, ": "...)
			return appendValue(dst, v.Obj[i].Val)
		})
	case jsontree.Array:
		return appendSeq(dst, '[', ']', len(v.Arr), func(dst []byte, i int) []byte {
			return appendValue(dst, v.Arr[i])
		})
	case jsontree.String:
		return python.AppendJSONStringUnicode(dst, v.Str)
	case jsontree.Bool:
		return strconv.AppendBool(dst, v.Bool)
	case jsontree.Null:
		return append(dst, "null"...)
	}
	if !strings.ContainsAny(v.Str, ".eEIN") {
		// A Python int: exact digits; "-0" is 0.
		if v.Str == "-0" {
			return append(dst, '0')
		}
		return append(dst, v.Str...)
	}
	// Out-of-range values parse to ±Inf or 0 as in Python.
	f, _ := v.Float()
	return python.AppendJSONFloat(dst, f)
}
