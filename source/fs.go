package source

import (
	"fmt"
	"io/fs"

	"github.com/trajscope/trajscope/model"
)

// FSTree adapts an io/fs.FS, such as the embedded demo, to model.Tree. Paths are
// cleaned and refused when absolute or climbing above the root. Symlinks are
// left to the FS (embed.FS has none).
type FSTree struct {
	fsys fs.FS
}

var _ model.Tree = (*FSTree)(nil)

// NewFS wraps fsys; it is safe for concurrent use when fsys is.
func NewFS(fsys fs.FS) *FSTree { return &FSTree{fsys: fsys} }

// IsFile reports whether p is a regular file in the FS.
func (f *FSTree) IsFile(p string) bool {
	c, ok := f.name(p)
	if !ok {
		return false
	}
	st, err := fs.Stat(f.fsys, c)
	return err == nil && st.Mode().IsRegular()
}

// ReadFile returns the content of the regular file at p.
func (f *FSTree) ReadFile(p string) ([]byte, error) {
	if !f.IsFile(p) {
		return nil, fmt.Errorf("fs: %q: no regular file inside the tree: %w", p, fs.ErrNotExist)
	}
	c, _ := f.name(p)
	b, err := fs.ReadFile(f.fsys, c)
	if err != nil {
		return nil, fmt.Errorf("fs: %q: %w", p, err)
	}
	return b, nil
}

// name turns p into a valid fs.FS name (fs.ValidPath) below the root.
func (f *FSTree) name(p string) (string, bool) {
	if f == nil || f.fsys == nil {
		return "", false
	}
	c, ok := cleanRel(p)
	if !ok || c == "." || !fs.ValidPath(c) {
		return "", false
	}
	return c, true
}
