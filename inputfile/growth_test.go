package inputfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
	g, err := ReadGrowth(p, 0, nil, 0)
	if err != nil || string(g.Data) != "a\nb\n" || g.Shrunk {
		t.Fatalf("first: %q %v %v", g.Data, g.Shrunk, err)
	}
	write("a\nb\nhalf\nc")
	g, err = ReadGrowth(p, 4, []byte("b\n"), 0)
	if err != nil || string(g.Data) != "half\n" || g.Shrunk {
		t.Fatalf("grown: %q %v %v", g.Data, g.Shrunk, err)
	}
	for _, c := range []struct{ name, content string }{
		{"truncated", "a\n"},
		{"rewritten to the same length", "x\ny\nhalf\nc"},
	} {
		write(c.content)
		if g, err := ReadGrowth(p, 4, []byte("b\n"), 0); err != nil || !g.Shrunk || g.Data != nil {
			t.Errorf("%s: %q shrunk %v, %v", c.name, g.Data, g.Shrunk, err)
		}
	}
	if _, err := ReadGrowth(filepath.Dir(p), 0, nil, 0); err == nil {
		t.Error("a folder was read")
	}
	old := maxBytes
	maxBytes = 3
	defer func() { maxBytes = old }()
	if _, err := ReadGrowth(p, 0, nil, 0); err == nil {
		t.Error("a file past the bound was read")
	}
}

// A read bounded by most gives whole lines up to about most bytes (a line
// longer than most whole) and says more is left; the reads after go on
// from there until the last says nothing is, the half line at the end
// waiting.
func TestReadGrowthAtMost(t *testing.T) {
	p := filepath.Join(t.TempDir(), "s.jsonl")
	long := strings.Repeat("b", 100<<10)
	whole := "aa\n" + long + "\ncc\n" + strings.Repeat("dd\n", 11000)
	os.WriteFile(p, []byte(whole+"hal"), 0o644)
	var got []string
	var read []byte
	for off := int64(0); len(got) < 100000; {
		g, err := ReadGrowth(p, off, nil, 4)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%.8q %v", g.Data, g.More))
		read = append(read, g.Data...)
		off += int64(len(g.Data))
		if !g.More {
			break
		}
		if len(g.Data) == 0 {
			t.Fatalf("read %d: nothing read, more left", len(got))
		}
	}
	if string(read) != whole || len(got) < 3 || got[0] != `"aa\n" true` || !strings.HasSuffix(got[len(got)-1], "false") {
		t.Errorf("%d reads: %v…; read %d bytes, want %d", len(got), got[:min(3, len(got))], len(read), len(whole))
	}
}
