package source

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// treeData writes a tree object of entries in the order given.
func treeData(entries []treeEntry) []byte {
	var b []byte
	for _, e := range entries {
		mode := "100644"
		if e.mode == filemode.Dir {
			mode = "40000"
		}
		b = append(b, mode+" "+e.name+"\x00"...)
		b = append(b, e.hash[:]...)
	}
	return b
}

// gitSorted sorts entries as git writes a tree.
func gitSorted(entries []treeEntry) []treeEntry {
	slices.SortFunc(entries, func(a, b treeEntry) int {
		return gitCompare(a.name, a.mode == filemode.Dir, b.name, b.mode == filemode.Dir)
	})
	return entries
}

// A sorted tree is searched by halves and finds exactly what a scan finds,
// on names git orders around "/" (a.b, a-b and the directory a sort as
// "a-b" < "a.b" < "a/" < "a0"); a tree out of order is scanned.
func TestTreeFind(t *testing.T) {
	var entries []treeEntry
	for i, n := range []string{"a", "a.b", "a-b", "a0", "b", "ab", "a.", "z", "Z", "é", "a b"} {
		mode := filemode.Regular
		if i%3 == 0 {
			mode = filemode.Dir
		}
		entries = append(entries, treeEntry{name: n, mode: mode, hash: plumbing.Hash{byte(i + 1)}})
	}
	sorted := gitSorted(slices.Clone(entries))
	// Git's own order for these: a directory "a" sorts after "a.b".
	if i := slices.IndexFunc(sorted, func(e treeEntry) bool { return e.name == "a" }); i < 0 || sorted[i-1].name != "a.b" {
		t.Errorf("order %v: want the directory a right after a.b", sorted)
	}
	unsorted := slices.Clone(sorted)
	unsorted[0], unsorted[len(unsorted)-1] = unsorted[len(unsorted)-1], unsorted[0]
	for _, tc := range []struct {
		name    string
		entries []treeEntry
		sorted  bool
	}{{"sorted", sorted, true}, {"out of order", unsorted, false}} {
		tr, err := parseTree(treeData(tc.entries))
		if err != nil {
			t.Fatal(err)
		}
		if tr.sorted != tc.sorted {
			t.Errorf("%s: sorted = %v", tc.name, tr.sorted)
		}
		for _, e := range entries {
			if got := tr.find(e.name); got == nil || got.hash != e.hash {
				t.Errorf("%s: find(%q) = %v, want %v", tc.name, e.name, got, e.hash)
			}
		}
		for _, missing := range []string{"", "a/", "a.c", "aa", "zz", "0", "b/"} {
			if got := tr.find(missing); got != nil {
				t.Errorf("%s: find(%q) = %v, want none", tc.name, missing, got)
			}
		}
	}
}

// A million files in one directory: a lookup costs a search by halves.
func BenchmarkTreeFindHugeDirectory(b *testing.B) {
	entries := make([]treeEntry, 1_000_000)
	for i := range entries {
		entries[i] = treeEntry{name: fmt.Sprintf("f%07d.py", i), mode: filemode.Regular}
	}
	tr, err := parseTree(treeData(gitSorted(entries)))
	if err != nil || !tr.sorted {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		if tr.find(fmt.Sprintf("f%07d.py", rng.IntN(len(entries)))) == nil {
			b.Fatal("not found")
		}
	}
}
