package toolcall

import (
	"bytes"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Text flattens message content: a string, or a list of content parts
// ({"type":"text","text":…}, Anthropic blocks, OpenAI parts), joined by
// newlines. Parts without text (images) are skipped.
func Text(v *jsontree.Value) string {
	switch {
	case v.Is(jsontree.String):
		return v.Str
	case v.Is(jsontree.Array):
		var parts []string
		for _, p := range v.Arr {
			if s, ok := p.AsString(); ok {
				parts = append(parts, s)
			} else if s, ok := p.Get("text").AsString(); ok {
				parts = append(parts, s)
			} else if c, ok := p.Lookup("content"); ok {
				if s := Text(c); s != "" {
					parts = append(parts, s)
				}
			}
		}
		return strings.Join(parts, "\n")
	}
	return v.Get("text").Text()
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

// Decode parses one JSON document; a leading byte-order mark is ignored.
// Its errors say where (line, column) and what was expected.
func Decode(data []byte) (*jsontree.Value, error) { return DecodeAt(data, 1) }

// DecodeAt is Decode for a document that starts on line first of its file.
func DecodeAt(data []byte, first int) (*jsontree.Value, error) {
	return jsontree.ParseAt(bytes.TrimPrefix(data, []byte("\ufeff")), first)
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
						if name := v.Get("task_name").Text(); name != "" {
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

// Relative makes the paths an action names under the session's working
// directory cwd (the repository's root for a coding agent) relative to it,
// as the repository names them; other paths stay as they are.
func Relative(a *model.Action, cwd string) {
	cwd = strings.TrimRight(toSlash(cwd), "/")
	if cwd == "" {
		return
	}
	rel := func(p string) string {
		if r, ok := strings.CutPrefix(toSlash(p), cwd+"/"); ok && r != "" {
			return r
		}
		return p
	}
	for i := range a.Reads {
		a.Reads[i].File = rel(a.Reads[i].File)
	}
	for i := range a.Searches {
		a.Searches[i].File = rel(a.Searches[i].File)
	}
	for i := range a.Edits {
		a.Edits[i] = rel(a.Edits[i])
	}
	for i := range a.Changes {
		a.Changes[i].File = rel(a.Changes[i].File)
	}
}

// NameByFile gives a run whose file records no instance id the file's
// name without its extension, and its prediction the run's id.
func NameByFile(run *model.Run, file string) {
	if run.InstanceID == "" {
		base := filepath.Base(file)
		run.InstanceID = strings.TrimSuffix(base, filepath.Ext(base))
	}
	run.Prediction.InstanceID = run.InstanceID
}

// FirstLine is s's first non-blank line, trimmed.
func FirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i]
	}
	return s
}

// AgentDescription is a sub-agent's description as a run's agent table
// keeps it: its first line, at most 80 characters.
func AgentDescription(s string) string {
	return termsafe.Cut(FirstLine(s), 80)
}

// NotJSON says why a line of a JSON-lines session that does not start a
// record is skipped, naming what it holds: "line 7 skipped: not a JSON
// record (text: "Error: …")", or binary data. Text between records (a
// CLI's stderr teed into the file) is named as a malformed record is.
func NotJSON(no int, line []byte) string {
	if !utf8.Valid(line) || bytes.IndexByte(line, 0) >= 0 {
		return fmt.Sprintf("line %d skipped: not a JSON record (%d bytes of binary data)", no, len(line))
	}
	s := termsafe.Cut(string(line), 60)
	return fmt.Sprintf("line %d skipped: not a JSON record (text: %q)", no, s)
}
