//go:build unix

package filefacts

import (
	"io/fs"
	"os"
	"syscall"
)

// ownedByUser reports a file this process's user owns.
func ownedByUser(st fs.FileInfo) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(sys.Uid) == os.Geteuid()
}

// openFlags keep an open from following a symbolic link or waiting on a
// FIFO.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
