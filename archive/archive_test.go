package archive

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"reflect"
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
