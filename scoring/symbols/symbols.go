// Package symbols extracts definition nodes from source files with
// tree-sitter, reproducing ContextBench's extractors/treesitter.py: the same
// extension map, the same DEF_NODES table, the same traversal and the same
// naming heuristic. A symbol's identity in the metrics is
// (file, Type, Start, End); Name is only used to resolve symbol names that a
// trajectory mentions.
package symbols

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
)

// Def is one definition node.
type Def struct {
	Type  string // tree-sitter node type, e.g. "function_definition"
	Start int    // start byte, inclusive
	End   int    // end byte, exclusive (tree-sitter's end_byte)
	Name  string // upstream _best_name_for_def; "" when it finds none
}

// extMap is upstream LANG_MAP, keyed by the lower-cased extension.
var extMap = map[string]string{
	".py": "python", ".js": "javascript", ".jsx": "javascript", ".ts": "typescript",
	".tsx": "tsx", ".java": "java", ".go": "go", ".rs": "rust", ".c": "c", ".h": "c",
	".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp", ".cs": "c_sharp", ".php": "php",
	".rb": "ruby", ".swift": "swift", ".kt": "kotlin", ".scala": "scala",
}

// defNodes is upstream DEF_NODES, verbatim: it includes types no grammar
// produces (python async_function_definition) and over-broad ones
// (javascript arrow_function, c struct_specifier), because parity needs them.
var defNodes = map[string][]string{
	"python":     {"function_definition", "class_definition", "async_function_definition"},
	"javascript": {"function_declaration", "class_declaration", "method_definition", "arrow_function"},
	"typescript": {"function_declaration", "class_declaration", "method_definition", "interface_declaration"},
	"tsx":        {"function_declaration", "class_declaration", "method_definition", "interface_declaration"},
	"java":       {"method_declaration", "class_declaration", "interface_declaration", "constructor_declaration"},
	"go":         {"function_declaration", "method_declaration", "type_declaration"},
	"rust":       {"function_item", "impl_item", "struct_item", "trait_item"},
	"c":          {"function_definition", "struct_specifier"},
	"cpp":        {"function_definition", "class_specifier", "struct_specifier"},
	"c_sharp":    {"method_declaration", "class_declaration", "interface_declaration"},
	"php":        {"function_definition", "method_declaration", "class_declaration"},
	"ruby":       {"method", "class", "module"},
	"swift":      {"function_declaration", "class_declaration", "protocol_declaration"},
	"kotlin":     {"function_declaration", "class_declaration"},
	"scala":      {"function_definition", "class_definition", "trait_definition"},
}

// identRank is upstream's rank_map over _IDENTIFIER_TYPES: lower wins, and
// the identifier types without an explicit rank share rank 100.
var identRank = map[string]int{
	"identifier":           0,
	"field_identifier":     1,
	"property_identifier":  2,
	"method_identifier":    3,
	"type_identifier":      100,
	"scoped_identifier":    100,
	"namespace_identifier": 100,
	"constant_identifier":  100,
}

// Language maps a path to the upstream language name by its extension, as
// LANG_MAP.get(os.path.splitext(path.lower())[1]) does; "" when unmapped.
func Language(path string) string {
	return extMap[pyLower(pySplitExt(path))]
}

// pySplitExt returns the extension as posixpath.splitext computes it: the
// last dot after the last slash, unless the base name up to that dot is
// only dots (".py" and "..py" have no extension).
func pySplitExt(p string) string {
	sep := strings.LastIndexByte(p, '/')
	dot := strings.LastIndexByte(p, '.')
	if dot <= sep {
		return ""
	}
	for i := sep + 1; i < dot; i++ {
		if p[i] != '.' {
			return p[dot:]
		}
	}
	return ""
}

// pyLower lower-cases like Python's str.lower as far as the extension keys
// care. Go maps U+0130 to a plain 'i' where Python gives "i\u0307", which
// would wrongly turn ".SWİFT" into ".swift"; every other rune that lowers to
// ASCII (such as the Kelvin sign) agrees.
func pyLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\u0130' {
			return r
		}
		return unicode.ToLower(r)
	}, s)
}

// ErrTooLarge is returned for content tree-sitter cannot address (its byte
// offsets are 32-bit).
var ErrTooLarge = errors.New("symbols: file larger than 4 GiB")

// DefaultTimeout bounds the work for one file in Defs and NamedDefs (the
// parse budget, --parse-timeout). Some grammars loop for minutes or forever
// on rare malformed input (swift on testdata/hang/mutated_tsx.swift), where
// upstream would hang; real files parse at well under a second per
// megabyte, and the largest source files of real repositories in a few
// hundred milliseconds.
const DefaultTimeout = 2 * time.Second

// BytesPerSecond is how much source one second of the parse budget admits.
// tree-sitter parsed 2–5 MB a second here on 2026-11-24 (a 20 MB Python file
// took 9 s) and holds about 55 bytes of memory per byte parsed, so a file past
// BudgetBytes could not be parsed within the budget anyway: it is given up
// at once instead of after the whole budget and gigabytes of parser memory.
const BytesPerSecond = 16 << 20

// BudgetBytes is the largest file a parse budget of timeout admits.
func BudgetBytes(timeout time.Duration) int64 {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if timeout >= time.Duration(math.MaxInt64/BytesPerSecond) {
		return math.MaxInt64
	}
	return int64(timeout) * BytesPerSecond / int64(time.Second)
}

// Defs returns the definition nodes of content, read as the file at path,
// in the order of upstream extract_defs: depth-first pre-order from the
// root, skipping (with their subtrees) anonymous nodes and nodes whose type
// contains "comment", and still descending into every definition. Each
// Def's Name follows upstream _best_name_for_def. An unmapped language gives
// nil, nil. Upstream turns a parse error into an empty list, so callers
// should treat an error the same way; when ctx ends the error wraps its
// cause (context.DeadlineExceeded for a parse budget).
func Defs(ctx context.Context, path string, content []byte) ([]Def, error) {
	return extract(ctx, path, content)
}

func extract(ctx context.Context, path string, content []byte) ([]Def, error) {
	g := grammarFor(Language(path))
	if g == nil {
		return nil, nil
	}
	defs, err := g.walk(ctx, content)
	if err != nil {
		return nil, fmt.Errorf("symbols: parsing %s: %w", path, err)
	}
	return defs, nil
}
