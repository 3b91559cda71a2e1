package inputfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A run's referenced files are read once each (a hard link is the same
// file), never through a symbolic link, and within one budget in all.
func TestRefs(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "b.jsonl")
	os.WriteFile(a, []byte("aaaa"), 0o644)
	os.WriteFile(b, []byte("bbbbbb"), 0o644)
	os.Symlink(a, filepath.Join(dir, "link.jsonl"))
	os.Link(a, filepath.Join(dir, "hard.jsonl"))
	r := NewRefs(8)
	if data, err := r.Read(a); err != nil || string(data) != "aaaa" {
		t.Fatalf("a: %q %v", data, err)
	}
	for name, want := range map[string]error{"link.jsonl": ErrLink, "hard.jsonl": ErrReadAgain, "a.jsonl": ErrReadAgain, "b.jsonl": ErrBudget} {
		if _, err := r.Read(filepath.Join(dir, name)); !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
	// Past the budget, nothing more is read, however small.
	c := filepath.Join(dir, "c.jsonl")
	os.WriteFile(c, []byte("c"), 0o644)
	if _, err := r.Read(c); !errors.Is(err, ErrBudget) {
		t.Errorf("a small file after the budget was passed: %v", err)
	}
	if _, err := r.Read(filepath.Join(dir, "none")); err == nil {
		t.Error("a missing file: no error")
	}
}
