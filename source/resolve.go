package source

import (
	"path"
	"strings"
)

// cleanRel cleans a slash path given to a model.Tree and reports whether it is a
// relative path that stays at or below the root. Absolute paths, NUL bytes
// and paths that climb above the root are refused; "." means the root.
func cleanRel(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.IndexByte(p, 0) >= 0 {
		return "", false
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}
