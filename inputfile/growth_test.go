package inputfile

import (
	"os"
	"path/filepath"
	"testing"
)

// ReadGrowth gives whole lines past an offset; a half line waits, and a
// file truncated or rewritten under the reader says so.
func TestReadGrowth(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	write := func(s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a\nb\nhal")
	g, err := ReadGrowth(p, 0, nil)
	if err != nil || string(g.Data) != "a\nb\n" || g.Shrunk {
		t.Fatalf("first: %q %v %v", g.Data, g.Shrunk, err)
	}
	write("a\nb\nhalf\nc")
	g, err = ReadGrowth(p, 4, []byte("b\n"))
	if err != nil || string(g.Data) != "half\n" || g.Shrunk {
		t.Fatalf("grown: %q %v %v", g.Data, g.Shrunk, err)
	}
	for _, c := range []struct{ name, content string }{
		{"truncated", "a\n"},
		{"rewritten to the same length", "x\ny\nhalf\nc"},
	} {
		write(c.content)
		if g, err := ReadGrowth(p, 4, []byte("b\n")); err != nil || !g.Shrunk || g.Data != nil {
			t.Errorf("%s: %q shrunk %v, %v", c.name, g.Data, g.Shrunk, err)
		}
	}
	if _, err := ReadGrowth(filepath.Dir(p), 0, nil); err == nil {
		t.Error("a folder was read")
	}
	old := maxBytes
	maxBytes = 3
	defer func() { maxBytes = old }()
	if _, err := ReadGrowth(p, 0, nil); err == nil {
		t.Error("a file past the bound was read")
	}
}
