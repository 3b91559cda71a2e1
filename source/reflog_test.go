package source

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// HeadAt reads the HEAD reflog as git writes it: the commit checked out
// at a time, before the first move, between moves and after the last.
func TestHeadAt(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git", "logs"), 0o755)
	a, b, c := strings.Repeat("a", 40), strings.Repeat("b", 40), strings.Repeat("c", 40)
	zero := strings.Repeat("0", 40)
	log := zero + " " + a + " Ann <ann@x.io> 1000 +0100\tcommit (initial): one\n" +
		a + " " + b + " Ann <ann@x.io> 2000 +0100\tcommit: two\n" +
		"not a reflog line\n" +
		b + " " + c + " Ann <ann@x.io> 3000 -0500\tcheckout: moving from main to x\n"
	os.WriteFile(filepath.Join(dir, ".git", "logs", "HEAD"), []byte(log), 0o644)
	for _, c := range []struct {
		at   int64
		want string
	}{{500, ""}, {1000, a}, {1999, a}, {2500, b}, {9000, c}} {
		if got := HeadAt(dir, time.Unix(c.at, 0)); got != c.want {
			t.Errorf("at %d: %q, want %q", c.at, got, c.want)
		}
	}
	sub := filepath.Join(dir, "pkg", "x")
	os.MkdirAll(sub, 0o755)
	if got := WorkTree(sub); got != dir {
		t.Errorf("WorkTree(%s) = %q, want %q", sub, got, dir)
	}
	if got := HeadAt(t.TempDir(), time.Now()); got != "" {
		t.Errorf("no repository: %q", got)
	}
}
