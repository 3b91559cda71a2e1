// Package source gives read-only access to a repository's files at the task's
// base commit: a git object store (no checkout), a plain directory, or an
// fs.FS such as the embedded demo.
package source
