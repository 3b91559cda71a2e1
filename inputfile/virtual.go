package inputfile

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// Files of an archive are read from memory, never written to disk: an
// archive's members are mounted under the archive's own path
// ("runs.tar.gz/run1/a.traj.json", a name no real file can have, the archive
// being a file) and every read of this package serves them from there.
var (
	virtMu sync.RWMutex
	virt   = map[string][]byte{}
	// virtDirs lists the mounted names by directory: a Glob in one
	// directory looks at its files alone (100,000 members globbed one by
	// one would otherwise cost 10^10 matches).
	virtDirs = map[string][]string{}
)

// Mount makes data readable at name by Read, Head, Open and Stat.
func Mount(name string, data []byte) {
	virtMu.Lock()
	if _, ok := virt[name]; !ok {
		d := path.Dir(name)
		virtDirs[d] = append(virtDirs[d], name)
	}
	virt[name] = data
	virtMu.Unlock()
}

func mounted(name string) ([]byte, bool) {
	virtMu.RLock()
	b, ok := virt[name]
	virtMu.RUnlock()
	return b, ok
}

// Stat is os.Stat that also knows mounted files (regular, read-only).
func Stat(name string) (fs.FileInfo, error) {
	if b, ok := mounted(name); ok {
		return memInfo{path.Base(name), int64(len(b))}, nil
	}
	return os.Stat(name)
}

// Lstat is os.Lstat that also knows mounted files (regular: an archive's
// links are never mounted).
func Lstat(name string) (fs.FileInfo, error) {
	if b, ok := mounted(name); ok {
		return memInfo{path.Base(name), int64(len(b))}, nil
	}
	return os.Lstat(name)
}

// memInfo describes a mounted file.
type memInfo struct {
	name string
	size int64
}

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }

// Glob is filepath.Glob that also finds mounted files (an archive's
// members), sorted: how a reader finds the files a run keeps beside its
// own, on disk or in the archive it came from.
func Glob(pattern string) []string {
	found, _ := filepath.Glob(pattern)
	virtMu.RLock()
	if dir := path.Dir(pattern); !strings.ContainsAny(dir, `*?[\`) {
		for _, name := range virtDirs[dir] {
			if ok, _ := path.Match(pattern, name); ok {
				found = append(found, name)
			}
		}
	} else {
		for name := range virt {
			if ok, _ := path.Match(pattern, name); ok {
				found = append(found, name)
			}
		}
	}
	virtMu.RUnlock()
	sort.Strings(found)
	return slices.Compact(found)
}
