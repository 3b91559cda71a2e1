package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestCommitReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("target changed before Commit: %q", b)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("after Commit: %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
	f.Abort() // no-op after Commit
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Fatalf("Abort after Commit removed the file: %q", b)
	}
	assertOnly(t, dir, "out.jsonl")
}

func TestAbortKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.jsonl")
	os.WriteFile(p, []byte("old"), 0o644)
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half")
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Fatalf("after Abort: %q", b)
	}
	assertOnly(t, dir, "out.jsonl")
}

func TestCreateFailsEarly(t *testing.T) {
	if _, err := Create(filepath.Join(t.TempDir(), "missing", "out.jsonl")); err == nil {
		t.Fatal("no error for a missing directory")
	}
}

func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a")
	os.WriteFile(a, []byte("x"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(a, link)
	hard := filepath.Join(dir, "hard")
	os.Link(a, hard)
	b := filepath.Join(dir, "b")
	os.WriteFile(b, []byte("x"), 0o644)
	tests := []struct {
		path   string
		others []string
		want   bool
	}{
		{a, []string{b, a}, true},
		{link, []string{a}, true},
		{hard, []string{a}, true},
		{filepath.Join(dir, ".", "a"), []string{a}, true},
		{b, []string{a}, false},
		{filepath.Join(dir, "new"), []string{a}, false},
		{a, []string{""}, false},
	}
	for _, tc := range tests {
		if _, got := SameFile(tc.path, tc.others...); got != tc.want {
			t.Errorf("SameFile(%s, %v) = %v, want %v", tc.path, tc.others, got, tc.want)
		}
	}
}

func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	if len(ents) != len(names) {
		var got []string
		for _, e := range ents {
			got = append(got, e.Name())
		}
		t.Fatalf("dir holds %v, want %v (a temporary file was left)", got, names)
	}
}

func TestWriteFileAndIsTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "entry")
	if err := WriteFile(p, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("v2")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "v2" {
		t.Fatalf("got %q", b)
	}
	assertOnly(t, dir, "entry")
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("no error for a missing directory")
	}
	f, err := Create(filepath.Join(dir, "out.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Abort()
	for name, want := range map[string]bool{filepath.Base(f.f.Name()): true, "entry": false, ".hidden": false, "a.tmp-1": false} {
		if IsTemp(name) != want {
			t.Errorf("IsTemp(%q) = %v, want %v", name, !want, want)
		}
	}
}

// A symbolic link is followed: its target gets the new content and the
// link stays a link.
func TestCreateFollowsSymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.jsonl")
	os.WriteFile(target, []byte("old"), 0o644)
	link := filepath.Join(dir, "link.jsonl")
	if err := os.Symlink("real.jsonl", link); err != nil {
		t.Skip(err)
	}
	f, err := Create(link)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target: %q", b)
	}
	// A dangling link creates its target.
	dangling := filepath.Join(dir, "dangling")
	os.Symlink("made.jsonl", dangling)
	f, err = Create(dangling)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("x")
	f.Commit()
	if b, _ := os.ReadFile(filepath.Join(dir, "made.jsonl")); string(b) != "x" {
		t.Fatalf("dangling link's target: %q", b)
	}
}

// A FIFO (as a device such as /dev/null) is written in place, never
// replaced by a regular file; the test makes its own rather than risk
// /dev/null, which a regression run as root would replace.
func TestCreateSpecialFilesInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		r, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(r)
		r.Close()
		got <- string(b)
	}()
	f, err := Create(fifo)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("through the pipe")
	f.Commit()
	select {
	case s := <-got:
		if s != "through the pipe" {
			t.Errorf("the reader got %q", s)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the reader got nothing")
	}
	if st, _ := os.Lstat(fifo); st.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v", st.Mode())
	}
	assertOnly(t, dir, "pipe")
	if _, err := Create(dir); err == nil {
		t.Error("a directory was accepted")
	}
}

// Writer writes through; Commit and Abort only end it.
func TestWriter(t *testing.T) {
	var b strings.Builder
	f := Writer(&b)
	f.WriteString("x")
	if err := f.Commit(); err != nil || b.String() != "x" {
		t.Errorf("%q %v", b.String(), err)
	}
	f.Abort()
}
