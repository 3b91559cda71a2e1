package model

// Tree is a repository's files at one commit, read-only: what scoring reads
// and source provides (from a git object store, a plain directory or an
// fs.FS). Paths are slash-separated and relative to the repository root.
type Tree interface {
	// ReadFile returns the content of the regular file at path.
	ReadFile(path string) ([]byte, error)
	// IsFile reports whether path names a regular file, following symlinks
	// only while they stay inside the tree.
	IsFile(path string) bool
}

// FactStore keeps small facts across processes (the persistent cache under
// the user cache directory): Get returns what Put stored under key. Only
// what a key fixes is stored (what a path names at a commit, a content's
// line offsets and definitions), so a stored answer is the computed one;
// readers check every value as they decode it and recompute one that does
// not decode. Implementations must be comparable (pointers, typically).
type FactStore interface {
	Get(key string) ([]byte, bool)
	Put(key string, value []byte)
}
