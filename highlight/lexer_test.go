package highlight

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// match is chroma's lexers.Match: the same lexer for a name each glob of
// each lexer spells (as itself, inside a longer name, with a backup suffix
// chroma accepts and with one it does not), and for this repository's
// files. chroma's Match tries every glob, so every fifth glob is spelt (a
// different fifth in each of the four spellings).
func TestMatchIsChromasMatch(t *testing.T) {
	names := map[string]bool{"": true, ".": true, "x": true, "README": true, "a.b.c": true}
	k := 0
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, p := range append(append([]string(nil), c.Filenames...), c.AliasFilenames...) {
			// Spell the glob: each wildcard as letters, a class as its
			// first member.
			n := strings.NewReplacer("*", "zz", "?", "q").Replace(p)
			if i := strings.IndexByte(n, '['); i >= 0 {
				if j := strings.IndexByte(n[i:], ']'); j > 1 {
					n = n[:i] + n[i+1:i+2] + n[i+j+1:]
				}
			}
			k++
			for i, spelt := range []string{n, "a" + n, n + backupSuffixes[k%len(backupSuffixes)], n + []string{".dpkg", ".tmp", "x"}[k%3]} {
				if (k+i)%5 == 0 {
					names[spelt] = true
				}
			}
		}
	}
	files, _ := filepath.Glob("../../*/*.go")
	for _, f := range files {
		names[f] = true
	}
	if len(names) < 400 {
		t.Fatalf("only %d names: the glob list was not read", len(names))
	}
	list := make([]string, 0, len(names))
	for n := range names {
		list = append(list, n)
	}
	// Two halves at once: chroma's Match is the slow side.
	var wg sync.WaitGroup
	var mu sync.Mutex
	differ := 0
	for h := range 2 {
		wg.Go(func() {
			for i := h; i < len(list); i += 2 {
				n := list[i]
				want, got := name(lexers.Match(n)), name(match(n))
				if want != got {
					mu.Lock()
					differ++
					if differ <= 10 {
						t.Errorf("Match(%q) = %q, chroma's lexers.Match = %q", n, got, want)
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	if differ > 0 {
		t.Errorf("%d of %d names differ", differ, len(list))
	}
}

// name is a lexer's name ("" for none): the registry holds one lexer per
// name.
func name(l chroma.Lexer) string {
	if l == nil {
		return ""
	}
	return l.Config().Name
}

func TestLexerFallsBackToContent(t *testing.T) {
	tests := []struct{ path, head, want string }{
		{"tool.py", "", "Python"},
		{"run", "#!/bin/bash\necho hi\n", "Bash"},
		{"Makefile", "", "Makefile"},
		{"notes.unknownext", "plain words", ""},
	}
	for _, tt := range tests {
		if got := For(tt.path, tt.head).Name(); got != tt.want {
			t.Errorf("Lexer(%q, %q) = %q, want %q", tt.path, tt.head, got, tt.want)
		}
	}
}

// Prewarm compiles the rules in the background; a lexer used at once
// afterwards still tokenises correctly (chroma guards its compilation).
func TestPrewarmThenTokenise(t *testing.T) {
	Prewarm([]string{"a.py", "b.go", "c.py", "unknown.zzz"})
	it, err := match("x.go").Tokenise(nil, "package main\n")
	if err != nil {
		t.Fatal(err)
	}
	if toks := it.Tokens(); len(toks) < 3 || toks[0].Value != "package" {
		t.Errorf("tokens %v", toks)
	}
}

func BenchmarkMatch(b *testing.B) {
	index()
	for b.Loop() {
		match("xarray/core/weighted.py")
	}
}

func BenchmarkChromaMatch(b *testing.B) {
	for b.Loop() {
		lexers.Match("xarray/core/weighted.py")
	}
}
