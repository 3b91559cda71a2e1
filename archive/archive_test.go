package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/inputfile"
)

type member struct {
	name, body string
	link       bool
}

var members = []member{
	{name: "runs/a.traj.json", body: "A"},
	{name: "runs/sub/b.jsonl", body: "BB"},
	{name: "../escape.txt", body: "no"},
	{name: "/etc/passwd", body: "no"},
	{name: "runs/../../up.txt", body: "no"},
	{name: "runs/link", link: true},
}

func writeTarGz(t testing.TB, path string) {
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, m := range members {
		h := &tar.Header{Name: m.name, Mode: 0o644, Size: int64(len(m.body)), Typeflag: tar.TypeReg}
		if m.link {
			h = &tar.Header{Name: m.name, Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(m.body))
	}
	tw.Close()
	gz.Close()
	os.WriteFile(path, b.Bytes(), 0o644)
}

func writeZip(t testing.TB, path string) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, m := range members {
		if m.link {
			h := &zip.FileHeader{Name: m.name}
			h.SetMode(os.ModeSymlink | 0o777)
			w, _ := zw.CreateHeader(h)
			w.Write([]byte("/etc/passwd"))
			continue
		}
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(m.body))
	}
	zw.Close()
	os.WriteFile(path, b.Bytes(), 0o644)
}

// An archive's regular members are read into memory under the archive's
// path, nothing written beside it; names that are absolute or climb out,
// and links, are skipped and said so.
func TestMount(t *testing.T) {
	for _, c := range []struct {
		name  string
		write func(testing.TB, string)
	}{{"runs.tar.gz", writeTarGz}, {"runs.zip", writeZip}} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, c.name)
			c.write(t, p)
			if !Is(p) {
				t.Fatal("not taken for an archive")
			}
			paths, skipped, err := Mount(p)
			if err != nil {
				t.Fatal(err)
			}
			if want := []string{p + "/runs/a.traj.json", p + "/runs/sub/b.jsonl"}; !reflect.DeepEqual(paths, want) {
				t.Errorf("members %q, want %q", paths, want)
			}
			if len(skipped) != 4 || !strings.Contains(strings.Join(skipped, "\n"), `"../escape.txt" climbs out`) || !strings.Contains(strings.Join(skipped, "\n"), `"/etc/passwd" is an absolute path`) {
				t.Errorf("skipped %q", skipped)
			}
			if b, err := inputfile.Read(p + "/runs/sub/b.jsonl"); err != nil || string(b) != "BB" {
				t.Errorf("the member reads %q, %v", b, err)
			}
			if st, err := inputfile.Stat(p + "/runs/a.traj.json"); err != nil || !st.Mode().IsRegular() || st.Size() != 1 {
				t.Errorf("stat: %v %v", st, err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("something was written beside the archive: %d entries", len(entries))
			}
			if _, err := os.Stat(filepath.Join(dir, "escape.txt")); err == nil {
				t.Error("a member escaped")
			}
		})
	}
}

// A file that is not an archive, under an archive's name, is one clear
// error.
func TestNotAnArchive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.tar.gz")
	os.WriteFile(p, []byte("\x1f\x8bnot gzip at all"), 0o644)
	if _, _, err := Mount(p); err == nil || !strings.Contains(err.Error(), "x.tar.gz") {
		t.Errorf("err = %v", err)
	}
	z := filepath.Join(t.TempDir(), "y.zip")
	os.WriteFile(z, []byte("PK\x03\x04broken"), 0o644)
	if _, _, err := Mount(z); err == nil || !strings.Contains(err.Error(), "not a readable zip archive") {
		t.Errorf("err = %v", err)
	}
}

// tarHeader is a raw ustar header, for the entries archive/tar's writer
// will not write (sparse members).
func tarHeader(name string, size int64, flag byte) []byte {
	h := make([]byte, 512)
	copy(h, name)
	copy(h[100:], "0000644\x00")
	copy(h[108:], "0000000\x00")
	copy(h[116:], "0000000\x00")
	copy(h[124:], fmt.Sprintf("%011o\x00", size))
	copy(h[136:], "00000000000\x00")
	h[156] = flag
	copy(h[257:], "ustar\x0000")
	for i := 148; i < 156; i++ {
		h[i] = ' '
	}
	sum := 0
	for _, c := range h {
		sum += int(c)
	}
	copy(h[148:], fmt.Sprintf("%06o\x00 ", sum))
	return h
}

// paxRecord is one PAX record, its length included.
func paxRecord(k, v string) string {
	n := len(k) + len(v) + 3
	for {
		s := fmt.Sprintf("%d %s=%s\n", n, k, v)
		if len(s) == n {
			return s
		}
		n = len(s)
	}
}

// A 10 KB tar of PAX-sparse members claiming 256 MiB each is not expanded:
// each is skipped and said so, and nothing near its claimed size is held.
func TestSparseMembersAreNotExpanded(t *testing.T) {
	var b []byte
	for i := range 4 {
		name := fmt.Sprintf("run%d.traj.json", i)
		pax := paxRecord("GNU.sparse.major", "1") + paxRecord("GNU.sparse.minor", "0") +
			paxRecord("GNU.sparse.name", name) + paxRecord("GNU.sparse.realsize", "268435456")
		b = append(b, tarHeader("PaxHeaders/"+name, int64(len(pax)), 'x')...)
		b = append(b, pax...)
		b = append(b, make([]byte, (512-len(pax)%512)%512)...)
		data := make([]byte, 1024)
		copy(data, "1\n268435455\n1\n") // one byte of data at the end
		data[512] = 'x'
		b = append(b, tarHeader(name, 1024, '0')...)
		b = append(b, data...)
	}
	b = append(b, tarHeader("ok.traj.json", 2, '0')...)
	b = append(b, append([]byte("{}"), make([]byte, 510)...)...)
	b = append(b, make([]byte, 1024)...)
	p := filepath.Join(t.TempDir(), "bomb.tar")
	os.WriteFile(p, b, 0o644)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	paths, skipped, err := Mount(p)
	runtime.ReadMemStats(&after)
	if err != nil || len(paths) != 1 || len(skipped) != 4 || !strings.Contains(skipped[0], "is a sparse file (268435456 bytes once expanded), not read") {
		t.Fatalf("paths %q, skipped %q, err %v", paths, skipped, err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
		t.Errorf("%d bytes allocated reading a 10 KB archive", grown)
	}
}

// Every entry counts against MaxMembers, directories and links too; an
// archive in an archive, a name twice and an empty archive are said, not
// passed over.
func TestEntriesCountedAndSaid(t *testing.T) {
	dir := t.TempDir()
	tarOf := func(name string, hs ...*tar.Header) string {
		var b bytes.Buffer
		tw := tar.NewWriter(&b)
		for _, h := range hs {
			tw.WriteHeader(h)
			tw.Write(make([]byte, h.Size))
		}
		tw.Close()
		p := filepath.Join(dir, name)
		os.WriteFile(p, b.Bytes(), 0o644)
		return p
	}
	var many []*tar.Header
	for i := range MaxMembers + 1 {
		many = append(many, &tar.Header{Name: fmt.Sprintf("d%d/", i), Typeflag: tar.TypeDir, Mode: 0o755})
	}
	if _, _, err := Mount(tarOf("dirs.tar", many...)); err == nil || !strings.Contains(err.Error(), "more than 100000 entries") {
		t.Errorf("100,001 directories: %v", err)
	}
	links := make([]*tar.Header, 30)
	for i := range links {
		links[i] = &tar.Header{Name: fmt.Sprintf("l%d", i), Typeflag: tar.TypeSymlink, Linkname: "x"}
	}
	_, skipped, _ := Mount(tarOf("links.tar", append(links, &tar.Header{Name: "a.json", Size: 1, Typeflag: tar.TypeReg, Mode: 0o644})...))
	if len(skipped) != maxSkipped+1 || !strings.Contains(skipped[maxSkipped], "10 more members skipped") {
		t.Errorf("30 links: %d lines, last %q", len(skipped), skipped[len(skipped)-1])
	}
	paths, skipped, err := Mount(tarOf("odd.tar",
		&tar.Header{Name: "inner.tar.gz", Size: 3, Typeflag: tar.TypeReg, Mode: 0o644},
		&tar.Header{Name: "a/run.json", Size: 3, Typeflag: tar.TypeReg, Mode: 0o644},
		&tar.Header{Name: "a/./run.json", Size: 4, Typeflag: tar.TypeReg, Mode: 0o644}))
	all := strings.Join(skipped, "\n")
	if err != nil || len(paths) != 1 || !strings.Contains(all, `"inner.tar.gz" is an archive inside the archive`) || !strings.Contains(all, `"a/run.json" appears twice (as "a/./run.json"), the first kept`) {
		t.Errorf("paths %q, skipped %q, %v", paths, skipped, err)
	}
	if _, _, err := Mount(tarOf("empty.tar")); err == nil || !strings.Contains(err.Error(), "an empty archive") {
		t.Errorf("empty tar: %v", err)
	}
}

// A zip of more entries than MaxMembers (directories, here) is refused
// from its end record, before zip.NewReader builds its directory.
func TestZipOfTooManyEntries(t *testing.T) {
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := range MaxMembers + 1 {
		zw.Create(fmt.Sprintf("d%d/", i))
	}
	zw.Close()
	if n, ok := zipEntries(b.Bytes()); !ok || n != MaxMembers+1 {
		t.Fatalf("entries read %d %v", n, ok)
	}
	p := filepath.Join(t.TempDir(), "many.zip")
	os.WriteFile(p, b.Bytes(), 0o644)
	if _, _, err := Mount(p); err == nil || !strings.Contains(err.Error(), "more than 100000 entries (100001)") {
		t.Errorf("err = %v", err)
	}
}
