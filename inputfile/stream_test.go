package inputfile

import (
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// lines collects what EachLine hands on: the line, or "!" and the error.
func lines(t *testing.T, path string, from, to int) []string {
	t.Helper()
	var got []string
	err := EachLine(path, from, to, func(n int, line []byte, err error) error {
		if err != nil {
			got = append(got, "!"+err.Error())
			return nil
		}
		got = append(got, string(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// A stream has no bound on its size, only on each line: a file past the
// whole-file bound is read line by line, a line past the line bound is one
// error and the lines after it still come, plain, gzip, zstd or on
// standard input alike; a slice hands on only its lines.
func TestStreamBoundsLinesNotFiles(t *testing.T) {
	defer func(b int64, l int) { maxBytes, maxLine = b, l }(maxBytes, maxLine)
	maxBytes, maxLine = 32, 16
	text := "one\ntwo\n" + strings.Repeat("x", 40) + "\nthree\n\nfour" // 60 bytes, past the whole-file bound, one line too long, no final newline
	dir := t.TempDir()
	plain := filepath.Join(dir, "p.jsonl")
	os.WriteFile(plain, []byte(text), 0o644)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(text))
	w.Close()
	os.WriteFile(plain+".gz", gz.Bytes(), 0o644)
	enc, _ := zstd.NewWriter(nil)
	os.WriteFile(plain+".zst", enc.EncodeAll([]byte(text), nil), 0o644)
	enc.Close()
	if _, err := Read(plain); err == nil {
		t.Fatal("the fixture is within the whole-file bound")
	}
	want := []string{"one", "two", "!" + plain + ": line 3: line too long (more than 0 MiB)", "three", "", "four"}
	// gzip data on standard input, or under a name that does not say so,
	// is known by its first bytes.
	os.WriteFile(plain+".data", gz.Bytes(), 0o644)
	for _, p := range []string{plain, plain + ".gz", plain + ".zst", plain + ".data", Stdin} {
		if p == Stdin {
			defer UseStdin(bytes.NewReader(gz.Bytes()))()
		}
		got := lines(t, p, 1, 0)
		want[2] = "!" + p + ": line 3: line too long (more than 0 MiB)"
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("%s: %q, want %q", p, got, want)
		}
		if n, err := CountLines(plainOr(p, plain)); err != nil || n != 6 {
			t.Errorf("%s: %d lines (%v), want 6", p, n, err)
		}
	}
	if got := lines(t, plain, 4, 6); strings.Join(got, "|") != "three|" {
		t.Errorf("lines 4-5: %q", got)
	}
	var tooLong error
	EachLine(plain, 3, 4, func(_ int, _ []byte, err error) error { tooLong = err; return nil })
	if !errors.Is(tooLong, ErrLineTooLong) {
		t.Errorf("line 3: %v, want ErrLineTooLong", tooLong)
	}
	os.WriteFile(filepath.Join(dir, "bad.gz"), []byte("not gzip"), 0o644)
	if _, err := Stream(filepath.Join(dir, "bad.gz")); err == nil || !strings.Contains(err.Error(), "not gzip data") {
		t.Errorf("a .gz that is not gzip: %v", err)
	}
}

// plainOr is p, except standard input, which the test has read already.
func plainOr(p, plain string) string {
	if p == Stdin {
		return plain
	}
	return p
}

// BenchmarkStream reads 32,000 lines of 3.5 KB (a 110 MB predictions file)
// whole, and as the last of 4 shards, which passes over three quarters of
// the lines without keeping them: memory a buffer and a line, whatever the
// file.
func BenchmarkStream(b *testing.B) {
	path := filepath.Join(b.TempDir(), "preds.jsonl")
	line := `{"instance_id": "o__r-1", "traj_data": {"pred_steps": [], "pred_files": []}, "pad": "` + strings.Repeat("x", 3500) + `"}` + "\n"
	os.WriteFile(path, []byte(strings.Repeat(line, 32000)), 0o644)
	for _, c := range []struct {
		name     string
		from, to int
	}{{"whole", 1, 0}, {"shard4of4", 24001, 0}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(32000 * len(line)))
			b.ReportAllocs()
			for range b.N {
				n := 0
				if err := EachLine(path, c.from, c.to, func(int, []byte, error) error { n++; return nil }); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("count", func(b *testing.B) {
		b.SetBytes(int64(32000 * len(line)))
		b.ReportAllocs()
		for range b.N {
			if _, err := CountLines(path); err != nil {
				b.Fatal(err)
			}
		}
	})
}
