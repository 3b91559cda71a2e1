// Package growing follows files an agent appends to (a followed session's
// transcripts): each read gives the whole lines added since the last, and
// says when the file was truncated, rewritten or replaced instead.
package growing

import (
	"bytes"
	"os"
	"slices"

	"github.com/trajscope/trajscope/inputfile"
)

// File is how far one file was read.
type File struct {
	info   os.FileInfo
	off    int64  // bytes read, up to the end of a line
	before []byte // the last bytes read, to notice a file rewritten in place
	// Lines is the number of lines read so far.
	Lines int
	// Most, when above 0, bounds the bytes one Grow reads (see
	// inputfile.ReadGrowth); Behind says the last Grow left whole lines
	// for the next.
	Most   int64
	Behind bool
}

// Grow reads the whole lines the file at path gained. again is true when
// the file is not the one read so far (truncated, replaced, or rewritten
// so that the last bytes read are not where they were): its reader must
// start over; nothing is read then. An earlier part rewritten in place to
// the same length is not seen: agents append, or write a file anew.
func (f *File) Grow(path string) (data []byte, again bool, err error) {
	g, err := inputfile.ReadGrowth(path, f.off, f.before, f.Most)
	if err != nil {
		return nil, false, err
	}
	if g.Shrunk || (f.info != nil && !os.SameFile(f.info, g.Info)) {
		return nil, true, nil
	}
	f.info, f.Behind = g.Info, g.More
	f.off += int64(len(g.Data))
	if n := len(g.Data); n > 0 {
		f.before = slices.Clone(g.Data[max(0, n-64):])
	}
	f.Lines += bytes.Count(g.Data, []byte("\n"))
	return g.Data, false, nil
}
