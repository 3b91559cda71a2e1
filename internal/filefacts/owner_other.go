//go:build !unix

package filefacts

import "io/fs"

// ownedByUser: without Unix owners, the directory's permissions are the
// operating system's to keep.
func ownedByUser(fs.FileInfo) bool { return true }

const openFlags = 0
