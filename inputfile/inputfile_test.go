package inputfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajscope/trajscope/model"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	os.WriteFile(small, []byte(`{"a": 1}`), 0o644)
	if b, err := Read(small); err != nil || string(b) != `{"a": 1}` {
		t.Errorf("small file: %q, %v", b, err)
	}
	// A sparse file past the bound is refused from its size, before a byte
	// is read.
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(model.MaxFileBytes + 1)
	f.Close()
	if _, err := Read(big); err == nil || !strings.Contains(err.Error(), "larger than 256 MiB") {
		t.Errorf("big file: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "nope")); !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
}

// /dev/zero never ends: it is read to the bound and refused, not to the end
// of memory (the bound lowered to 1 MiB, so the test reads 1 MiB).
func TestReadEndless(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	defer func(b int64) { maxBytes = b }(maxBytes)
	maxBytes = 1 << 20
	if _, err := Read("/dev/zero"); err == nil || !strings.Contains(err.Error(), "/dev/zero: larger than 1 MiB") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// A FIFO the user names is read; one found inside a folder is skipped
// without opening it (opening would block until a writer came).
func TestFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "runs.jsonl")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err == nil {
			w.WriteString("line\n")
			w.Close()
		}
	}()
	// Detection reads the head, the parser the whole file, a parquet probe
	// opens it: a FIFO gives its bytes once, and every read gets them.
	if b, err := Head(p, 2); err != nil || string(b) != "li" {
		t.Errorf("named FIFO, head: %q, %v", b, err)
	}
	if b, err := Read(p); err != nil || string(b) != "line\n" {
		t.Errorf("named FIFO, read after the head: %q, %v", b, err)
	}
	if f, err := Open(p); err != nil || f.Size() != 5 {
		t.Errorf("named FIFO, open after the read: %v", err)
	} else {
		b, _ := io.ReadAll(f)
		if string(b) != "line\n" {
			t.Errorf("named FIFO, open after the read: %q", b)
		}
	}
	done := make(chan error, 1)
	go func() { _, err := ReadRegular(p); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a FIFO") {
			t.Errorf("FIFO in a folder: %v", err)
		}
	case <-time.After(60 * time.Second): // a hang guard
		t.Fatal("ReadRegular blocked on a FIFO")
	}
}
