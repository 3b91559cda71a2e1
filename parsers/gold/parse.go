package gold

import (
	"bytes"
	"fmt"

	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Parse loads gold from bytes rather than a file, for gold embedded in the
// binary (the demo task): one row object, or JSONL. name stands for the file
// in problems and errors.
func Parse(name string, data []byte) (*Set, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	set := newSet()
	if v, err := jsontree.Parse(data); err == nil && v.Is(jsontree.Object) {
		loadRow(set, v, name, 1, "")
	} else {
		loadLines(set, data, name)
	}
	if set.Len() == 0 {
		if len(set.problems) > 0 {
			return set, fmt.Errorf("%s: no gold rows loaded; first problem: %v", name, set.problems[0])
		}
		return set, fmt.Errorf("%s: no gold rows", name)
	}
	return set, nil
}
