package gold

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/shell"
)

// IsPatch reports whether data is a patch rather than gold rows: a unified
// diff (git's or diff -u's) or Codex's apply_patch envelope.
func IsPatch(name string, data []byte) bool {
	head := data[:min(len(data), 64<<10)]
	if bytes.HasPrefix(head, []byte("diff --git ")) || bytes.HasPrefix(head, []byte("*** Begin Patch")) {
		return true
	}
	if ext := filepath.Ext(name); ext == ".diff" || ext == ".patch" {
		return true // named so: read as one, and said so when it is not
	}
	if !bytes.HasPrefix(head, []byte("--- ")) {
		return false
	}
	return bytes.Contains(head, []byte("\n+++ ")) && bytes.Contains(head, []byte("\n@@"))
}

// loadPatch makes a reference patch the target of every run: the regions
// its hunks change, located in each run's repository when it is scored
// (model.Gold.Changes).
func loadPatch(path string, data []byte) (*Set, error) {
	// Counted while read: a patch of more hunks than a gold may have is
	// refused before they are all built.
	changes, more := shell.PatchChangesUpTo(string(data), model.MaxGoldSpans)
	if more {
		return nil, fmt.Errorf("%s: more than %d hunks, the most a gold may have", path, model.MaxGoldSpans)
	}
	if len(changes) == 0 {
		if bytes.HasPrefix(data, []byte("@@")) || bytes.Contains(data, []byte("\n@@")) {
			return nil, fmt.Errorf("%s: hunks without a file header (expected \"+++ b/FILE\" before each file's \"@@ -a,b +c,d @@\" hunks)", path)
		}
		return nil, fmt.Errorf("%s: a patch with no hunks (expected a unified diff: \"+++ b/FILE\" then \"@@ -a,b +c,d @@\" hunks)", path)
	}
	s := newSet()
	s.patch = &model.Gold{From: model.GoldFromPatch, Changes: changes, Patch: strings.TrimPrefix(string(data), "\xef\xbb\xbf")}
	return s, nil
}

// patchFor is the patch gold as the gold of instance id.
func (s *Set) patchFor(id string) *model.Gold {
	g := *s.patch
	g.ID, g.InstID = id, id
	return &g
}

// IsPatch reports a set made of a reference patch: one target for every
// run.
func (s *Set) IsPatch() bool { return s != nil && s.patch != nil }
