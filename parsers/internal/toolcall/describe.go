package toolcall

import (
	"sort"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Describe renders a call as a one-line command for the timeline: the
// shell command itself, or the tool name with its main arguments. Long
// payloads (file contents, edit strings) are left out.
func Describe(name string, in *jsontree.Value) string {
	if kindOf(name) == kBash {
		if cmd := shellCommand(in); cmd != "" {
			return cmd
		}
	}
	var b strings.Builder
	b.WriteString(name)
	keys := make([]string, 0, len(in.Members()))
	for _, m := range in.Members() {
		keys = append(keys, m.Key)
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
		switch v := in.Get(k); v.Kind {
		case jsontree.String:
			// Cut before a word, never inside one: half a key in a
			// description would slip past --redact.
			val = strconv.Quote(termsafe.Cut(v.Str, 200))
		case jsontree.Number, jsontree.Bool:
			val = v.Compact()
		case jsontree.Array:
			if len(v.Arr) <= 4 {
				if raw := v.Compact(); len(raw) <= 80 {
					val = raw
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
