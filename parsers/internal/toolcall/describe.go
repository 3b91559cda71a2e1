package toolcall

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

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
