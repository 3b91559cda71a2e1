package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// DirTree reads files from a plain directory, such as a checked-out
// worktree. Paths never leave the root: ".." components are refused and a
// path whose symlinks resolve outside realpath(root) is not a file, which is
// upstream's realpath/commonpath check. Safe for concurrent use.
type DirTree struct {
	root string // as given, for messages
	real string // realpath of root
}

var _ model.Tree = (*DirTree)(nil)

// statDir checks that dir is a directory, in errors that name it as what
// (a "directory", a "repository"); notDir is wrapped when it is a file.
func statDir(what, dir string, notDir error) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: no such directory: %w", what, dir, fs.ErrNotExist)
	case err != nil:
		return fmt.Errorf("%s %s: %w", what, dir, err)
	case !st.IsDir() && notDir != nil:
		return fmt.Errorf("%s %s: not a directory: %w", what, dir, notDir)
	case !st.IsDir():
		return fmt.Errorf("%s %s: not a directory", what, dir)
	}
	return nil
}

// OpenDir opens the directory root as a model.Tree.
func OpenDir(root string) (*DirTree, error) {
	if err := statDir("directory", root, nil); err != nil {
		return nil, err
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %w", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %w", root, err)
	}
	return &DirTree{root: root, real: real}, nil
}

// Root returns the directory as given to OpenDir.
func (d *DirTree) Root() string { return d.root }

// IsFile reports whether p is a regular file inside the root.
func (d *DirTree) IsFile(p string) bool {
	_, ok := d.locate(p)
	return ok
}

// ReadFile returns the content of the regular file at p inside the root.
func (d *DirTree) ReadFile(p string) ([]byte, error) {
	real, ok := d.locate(p)
	if !ok {
		return nil, fmt.Errorf("directory %s: %q: no regular file inside the root: %w", d.root, p, fs.ErrNotExist)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return nil, fmt.Errorf("directory %s: %q: %w", d.root, p, err)
	}
	return b, nil
}

// Local returns the absolute path on disk of the regular file p inside the
// root, for a program that must open the real file (the explorer's `e`).
// It applies the same rules as ReadFile: no ".." out of the root, no
// symlink that resolves outside it, no directory, no missing file (an
// editor would create it).
func (d *DirTree) Local(p string) (string, bool) {
	return d.locate(p)
}

// locate returns the real path of p when it is a regular file inside root.
func (d *DirTree) locate(p string) (string, bool) {
	c, ok := cleanRel(p)
	if !ok || c == "." {
		return "", false
	}
	joined := filepath.Join(d.real, filepath.FromSlash(c))
	if _, err := os.Stat(joined); err != nil {
		// Nothing readable there, through any link: one system call
		// instead of one per path element (a large gold of absent files
		// asks for each more than once).
		return "", false
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		return "", false
	}
	if !within(d.real, real) {
		return "", false
	}
	st, err := os.Stat(real)
	if err != nil || !st.Mode().IsRegular() {
		return "", false
	}
	return real, true
}

// within reports whether path p is root or below it (both cleaned, absolute).
func within(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
