package toolcall

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
	"time"

	"github.com/trajscope/trajscope/parsers/internal/pyval"
	"github.com/trajscope/trajscope/parsers/internal/rawjson"
)

// Text flattens message content: a string, or a list of content parts
// ({"type":"text","text":…}, Anthropic blocks, OpenAI parts), joined by
// newlines. Parts without text (images) are skipped.
func Text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var parts []string
		for _, p := range x {
			switch q := p.(type) {
			case string:
				parts = append(parts, q)
			case map[string]any:
				if s, ok := q["text"].(string); ok {
					parts = append(parts, s)
				} else if c, ok := q["content"]; ok {
					if s := Text(c); s != "" {
						parts = append(parts, s)
					}
				}
			}
		}
		return strings.Join(parts, "\n")
	case map[string]any:
		if s, ok := x["text"].(string); ok {
			return s
		}
	}
	return ""
}

// ParseTime reads an ISO 8601 timestamp as seconds since the epoch; 0 when
// it cannot be read.
func ParseTime(s string) float64 {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return float64(t.UnixNano()) / 1e9
		}
	}
	return 0
}

// Decode unmarshals one JSON value, keeping the error's byte offset. A
// leading byte-order mark is ignored.
func Decode(data []byte) (any, error) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var v any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, &json.SyntaxError{Offset: dec.InputOffset()}
	}
	return v, nil
}

// Offset returns the byte offset a JSON error points at, or -1.
func Offset(err error) int64 {
	switch e := err.(type) {
	case *json.SyntaxError:
		return e.Offset
	case *json.UnmarshalTypeError:
		return e.Offset
	}
	return -1
}

// Line is one physical line of a JSONL file.
type Line struct {
	No   int // 1-based
	Text []byte
}

// Lines splits data on "\n" only. Records may hold U+2028 or U+2029 (legal
// raw in JSON strings); a reader that breaks lines there would cut a record
// in two, so nothing but "\n" ends a line. A trailing "\r" is dropped and
// blank lines are skipped.
func Lines(data []byte) []Line {
	var out []Line
	no := 0
	for len(data) > 0 {
		no++
		var line []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			line, data = data, nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		out = append(out, Line{No: no, Text: line})
	}
	return out
}

// TrialName returns the Harbor trial directory of a file inside it
// (<trial>/agent/… or <trial>/agent_output/…), or "". The trial's
// result.json names the task when it is there.
func TrialName(file string, readFile func(string) ([]byte, error)) string {
	dir := path.Dir(toSlash(file))
	for i := 0; i < 8 && dir != "." && dir != "/" && dir != ""; i++ {
		base := path.Base(dir)
		if base == "agent" || base == "agent_output" {
			trial := path.Dir(dir)
			if trial == "." || trial == "/" || trial == "" {
				return ""
			}
			if readFile != nil {
				if data, err := readFile(trial + "/result.json"); err == nil && len(data) < 1<<22 {
					if v, err := Decode(data); err == nil {
						if name := pyval.Str(pyval.Obj(v)["task_name"]); name != "" {
							return name
						}
					}
				}
			}
			return path.Base(trial)
		}
		dir = path.Dir(dir)
	}
	return ""
}

func toSlash(p string) string { return strings.ReplaceAll(p, "\\", "/") }

// Place names where a JSON error is: "path:line", or "path:line (end of
// file)" for input that stops mid-value.
func Place(path string, data []byte, err error) string {
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return fmt.Sprintf("%s:%d (end of file)", path, bytes.Count(data, []byte("\n"))+1)
	}
	if off := Offset(err); off >= 0 {
		return fmt.Sprintf("%s:%d", path, rawjson.LineAt(data, int(off)))
	}
	return path
}
