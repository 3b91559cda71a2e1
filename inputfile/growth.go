package inputfile

import (
	"bytes"
	"fmt"
	"io"
	"os"
)

// Growth is what a file gained since a reader last looked at it.
type Growth struct {
	// Data is the bytes from the offset asked for up to the file's last
	// newline: whole lines only, a half-written last line waits.
	Data []byte
	// Info is the file as it was opened, to tell a replaced file from the
	// one read before (os.SameFile).
	Info os.FileInfo
	// Shrunk is true when the file is now shorter than the offset: it was
	// truncated or rewritten, and must be read again from the start.
	Shrunk bool
	// More is true when whole lines past Data were left for a later read
	// (ReadGrowth's most).
	More bool
}

// ReadGrowth reads the whole lines a regular file gained past off, the
// offset of the end of the last line read before; before is the bytes just
// under off as read then, checked again so that a file rewritten in place
// to the same length or longer is noticed (Shrunk). A file that grows past
// the bound is refused as Read refuses it. most > 0 reads about that many
// bytes at most (the line reaching past it read to its end), leaving the
// rest for a later read (More): a long session shows its start while the
// rest is read.
func ReadGrowth(path string, off int64, before []byte, most int64) (Growth, error) {
	f, err := OpenRegular(path) // a FIFO put in its place: seen, not waited on
	if err != nil {
		return Growth{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Growth{}, err
	}
	if !st.Mode().IsRegular() {
		return Growth{}, NotRegular(path, st.Mode())
	}
	g := Growth{Info: st}
	if st.Size() < off {
		g.Shrunk = true
		return g, nil
	}
	if st.Size() > maxBytes {
		return Growth{}, tooLarge(path)
	}
	if n := int64(len(before)); n > 0 && off >= n {
		was := make([]byte, n)
		if _, err := f.ReadAt(was, off-n); err != nil || !bytes.Equal(was, before) {
			g.Shrunk = true
			return g, nil
		}
	}
	// The file may grow while it is read: what is read stays within the
	// size seen, so the bound holds.
	size := st.Size() - off
	if most > 0 && most < size {
		size = most
	}
	data := make([]byte, size)
	n, err := f.ReadAt(data, off)
	if err != nil && err != io.EOF {
		return Growth{}, fmt.Errorf("%s: %w", path, err)
	}
	data = data[:n]
	if end := off + int64(n); end < st.Size() {
		// Cut short: at least one whole line, the first if it runs past
		// most (sought 4 KiB at a time, or as much as was read: the line is
		// bounded by the file).
		for bytes.IndexByte(data, '\n') < 0 && end < st.Size() {
			more := make([]byte, min(st.Size()-end, max(int64(len(data)), 4096)))
			k, err := f.ReadAt(more, end)
			if err != nil && err != io.EOF {
				return Growth{}, fmt.Errorf("%s: %w", path, err)
			}
			if k == 0 {
				break
			}
			data, end = append(data, more[:k]...), end+int64(k)
		}
		// Bytes left unread may hold whole lines; a half line at the
		// end of a file read to its end waits as it always does.
		g.More = end < st.Size()
	}
	g.Data = data[:bytes.LastIndexByte(data, '\n')+1]
	return g, nil
}
