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
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
)

// Bounds on what one archive may hold: members, and bytes once
// decompressed in all (each member also within model.MaxFileBytes).
const (
	MaxMembers = 100_000
	MaxTotal   = 1 << 30
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
	add := func(member string, size int64, r io.Reader) error {
		clean, why := safeName(member)
		if why != "" {
			skipped = append(skipped, fmt.Sprintf("%s: member %q %s, skipped", name, member, why))
			return nil
		}
		if len(files) >= MaxMembers {
			return fmt.Errorf("%s: more than %d members; trajscope reads archives of at most %d", name, MaxMembers, MaxMembers)
		}
		if size > model.MaxFileBytes {
			return fmt.Errorf("%s: member %q is %d bytes, more than the %d trajscope reads from one file", name, clean, size, int64(model.MaxFileBytes))
		}
		if total+size > MaxTotal {
			return fmt.Errorf("%s: more than %d bytes once decompressed; trajscope reads archives of at most that", name, MaxTotal)
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
	switch {
	case bytes.HasPrefix(data, []byte("PK\x03\x04")) || bytes.HasPrefix(data, []byte("PK\x05\x06")):
		err = readZip(data, add, &skipped, name)
	default:
		err = readTar(data, add, &skipped, name)
	}
	if err != nil {
		return nil, skipped, err
	}
	for member, b := range files {
		p := name + "/" + member
		inputfile.Mount(p, b)
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths, skipped, nil
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

func readTar(data []byte, add func(string, int64, io.Reader) error, skipped *[]string, name string) error {
	var r io.Reader = bytes.NewReader(data)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		gz, err := gzip.NewReader(r)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
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
			return fmt.Errorf("%s: not a readable tar archive: %w", name, err)
		}
		switch h.Typeflag {
		case tar.TypeReg:
			if err := add(h.Name, h.Size, tr); err != nil {
				return err
			}
		case tar.TypeDir, tar.TypeXGlobalHeader:
		default:
			*skipped = append(*skipped, fmt.Sprintf("%s: member %q is not a regular file (a link or a device), skipped", name, h.Name))
		}
	}
}

func readZip(data []byte, add func(string, int64, io.Reader) error, skipped *[]string, name string) error {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return fmt.Errorf("%s: not a readable zip archive: %w", name, err)
	}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		if !f.Mode().IsRegular() {
			*skipped = append(*skipped, fmt.Sprintf("%s: member %q is not a regular file (a link or a device), skipped", name, f.Name))
			continue
		}
		if f.UncompressedSize64 > model.MaxFileBytes {
			return fmt.Errorf("%s: member %q is %d bytes, more than the %d trajscope reads from one file", name, f.Name, f.UncompressedSize64, int64(model.MaxFileBytes))
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("%s: member %q: %w", name, f.Name, err)
		}
		err = add(f.Name, int64(f.UncompressedSize64), rc)
		rc.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
