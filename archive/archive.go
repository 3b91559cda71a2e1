// Package archive reads runs straight from a .tar.gz, .tgz, .tar or .zip:
// its members are decompressed into memory and mounted under the archive's
// path (package inputfile), never extracted to disk. Member names are
// untrusted: an absolute name, one that climbs out (".."), a link, a device
// or a directory is skipped and said so; sizes are bounded before anything
// is kept.
package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
)

// Bounds on what one archive may hold: entries of any kind (directories
// and links count: five million directory entries are a bomb too), and
// bytes once decompressed in all. An archive is one input held in memory,
// so it is bounded as one file is (model.MaxFileBytes), and the memory
// promise (3 × the largest input + 150 MB) holds with it.
const (
	MaxMembers = 100_000
	MaxTotal   = model.MaxFileBytes
	// maxSkipped bounds the lines that say what was skipped; the rest are
	// counted in one more.
	maxSkipped = 20
)

// Is reports a name an archive of runs has.
func Is(name string) bool {
	n := strings.ToLower(name)
	for _, ext := range []string{".tar.gz", ".tgz", ".tar", ".zip"} {
		if strings.HasSuffix(n, ext) {
			return true
		}
	}
	return false
}

// Mount reads the archive at name and mounts its regular members, returning
// their paths (name + "/" + member) in name order; skipped names what was
// left out and why.
func Mount(name string) (paths []string, skipped []string, err error) {
	data, err := inputfile.Read(name)
	if err != nil {
		return nil, nil, err
	}
	files := map[string][]byte{}
	total := int64(0)
	entries, more := 0, 0
	skip := func(line string) {
		if len(skipped) < maxSkipped {
			skipped = append(skipped, line)
			return
		}
		more++
	}
	// count counts an entry of any kind against MaxMembers, before it is
	// looked at.
	count := func() error {
		if entries++; entries > MaxMembers {
			return fmt.Errorf("%s: more than %d entries; trajscope reads archives of at most %d", name, MaxMembers, MaxMembers)
		}
		return nil
	}
	add := func(member string, size int64, r io.Reader) error {
		clean, why := safeName(member)
		if why != "" {
			skip(fmt.Sprintf("%s: member %q %s, skipped", name, member, why))
			return nil
		}
		if Is(clean) {
			skip(fmt.Sprintf("%s: member %q is an archive inside the archive, not read (unpack it first)", name, clean))
			return nil
		}
		if _, dup := files[clean]; dup {
			skip(fmt.Sprintf("%s: member %q appears twice (as %q), the first kept", name, clean, member))
			return nil
		}
		if size > model.MaxFileBytes {
			return fmt.Errorf("%s: member %q is %d bytes, more than the %d trajscope reads from one file", name, clean, size, int64(model.MaxFileBytes))
		}
		if total+size > MaxTotal {
			return fmt.Errorf("%s: more than %d bytes once decompressed; trajscope reads archives of at most that (unpack it and give the folder)", name, int64(MaxTotal))
		}
		// The size in the header is the writer's word: read no further.
		b, err := io.ReadAll(io.LimitReader(r, size+1))
		if err != nil {
			return fmt.Errorf("%s: member %q: %w", name, clean, err)
		}
		if int64(len(b)) != size {
			return fmt.Errorf("%s: member %q: the archive says %d bytes, holds %d", name, clean, size, len(b))
		}
		total += size
		files[clean] = b
		return nil
	}
	a := reader{name: name, add: add, skip: skip, count: count}
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		err = a.zip(data)
	default:
		err = a.tar(data)
	}
	if more > 0 {
		skipped = append(skipped, fmt.Sprintf("%s: %d more members skipped", name, more))
	}
	if err != nil {
		return nil, skipped, err
	}
	if entries == 0 {
		return nil, skipped, fmt.Errorf("%s: an empty archive: no members", name)
	}
	for member, b := range files {
		p := name + "/" + member
		inputfile.Mount(p, b)
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, skipped, nil
}

// reader walks one archive's entries.
type reader struct {
	name  string
	add   func(member string, size int64, r io.Reader) error
	skip  func(line string)
	count func() error
}

// safeName cleans a member's name; why says why it cannot be read.
func safeName(member string) (string, string) {
	n := strings.ReplaceAll(member, `\`, "/")
	switch {
	case n == "" || strings.ContainsRune(n, 0):
		return "", "has no usable name"
	case strings.HasPrefix(n, "/") || len(n) > 1 && n[1] == ':':
		return "", "is an absolute path"
	}
	c := path.Clean(n)
	if c == ".." || strings.HasPrefix(c, "../") || c == "." {
		return "", "climbs out of the archive"
	}
	return c, ""
}

func (a reader) tar(data []byte) error {
	var r io.Reader = bytes.NewReader(data)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		r = gz
	}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: not a readable tar archive: %w", a.name, err)
		}
		if err := a.count(); err != nil {
			return err
		}
		switch {
		case sparse(h):
			// A sparse member's header claims its expanded size, which the
			// reader would fill with zeros: 10 KB can claim gigabytes. Run
			// files are never sparse.
			a.skip(fmt.Sprintf("%s: member %q is a sparse file (%d bytes once expanded), not read", a.name, h.Name, h.Size))
		case h.Typeflag == tar.TypeReg:
			if err := a.add(h.Name, h.Size, tr); err != nil {
				return err
			}
		case h.Typeflag == tar.TypeDir || h.Typeflag == tar.TypeXGlobalHeader:
		default:
			a.skip(fmt.Sprintf("%s: member %q is not a regular file (a link or a device), skipped", a.name, h.Name))
		}
	}
}

// sparse reports a tar member stored sparse: an old GNU sparse entry, or a
// PAX one (GNU.sparse.* records), whichever way the reader presents it.
func sparse(h *tar.Header) bool {
	if h.Typeflag == tar.TypeGNUSparse {
		return true
	}
	for k := range h.PAXRecords {
		if strings.HasPrefix(k, "GNU.sparse.") {
			return true
		}
	}
	return false
}

func (a reader) zip(data []byte) error {
	// zip.NewReader builds every directory entry before the first is seen:
	// the end record says how many there are, so a zip of millions is
	// refused before they are built.
	if n, ok := zipEntries(data); ok && n > MaxMembers {
		return fmt.Errorf("%s: more than %d entries (%d); trajscope reads archives of at most %d", a.name, MaxMembers, n, MaxMembers)
	}
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%s: not a readable zip archive: %w", a.name, err)
	}
	for _, f := range zr.File {
		if err := a.count(); err != nil {
			return err
		}
		if f.FileInfo().IsDir() {
			continue
		}
		if !f.Mode().IsRegular() {
			a.skip(fmt.Sprintf("%s: member %q is not a regular file (a link or a device), skipped", a.name, f.Name))
			continue
		}
		if f.UncompressedSize64 > model.MaxFileBytes {
			return fmt.Errorf("%s: member %q is %d bytes, more than the %d trajscope reads from one file", a.name, f.Name, f.UncompressedSize64, int64(model.MaxFileBytes))
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%s: member %q: %w", a.name, f.Name, err)
		}
		err = a.add(f.Name, int64(f.UncompressedSize64), rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// zipEntries reads the entry count a zip's end of central directory record
// gives (its zip64 record's when the count overflows 16 bits); ok is false
// when there is none to read (zip.NewReader then says what is wrong).
func zipEntries(data []byte) (n uint64, ok bool) {
	const eocdLen, maxComment = 22, 65535
	from := max(0, len(data)-eocdLen-maxComment)
	i := bytes.LastIndex(data[from:], []byte("PK\x05\x06"))
	if i < 0 || from+i+eocdLen > len(data) {
		return 0, false
	}
	i += from
	n = uint64(binary.LittleEndian.Uint16(data[i+10:]))
	if n != 0xffff || i < 20 || !bytes.Equal(data[i-20:i-16], []byte("PK\x06\x07")) {
		return n, true
	}
	// The zip64 locator gives the zip64 record's offset; the count is at
	// +32 in it.
	off := binary.LittleEndian.Uint64(data[i-20+8:])
	if off > uint64(len(data)) || off+40 > uint64(len(data)) || !bytes.Equal(data[off:off+4], []byte("PK\x06\x06")) {
		return n, true
	}
	return binary.LittleEndian.Uint64(data[off+32:]), true
}
