package textstore

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
)

// TestRoundTrip: every text reads back as added, in any order, whatever
// its size against the block size: empty, within a block, across a block
// boundary, several blocks long; out-of-range indices read as "".
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var texts []string
	for i := range 3000 {
		n := rng.IntN(200)
		switch i % 97 {
		case 0:
			n = 0
		case 1:
			n = BlockSize - 1 + rng.IntN(3)
		case 2:
			n = 3*BlockSize + rng.IntN(BlockSize)
		}
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(string(rune('a' + rng.IntN(26))))
			if rng.IntN(9) == 0 {
				b.WriteString("\n     12\tdef f(x):")
			}
		}
		texts = append(texts, b.String()[:n])
	}
	b := NewBuilder(len(texts))
	total := 0
	for _, s := range texts {
		b.Add(s)
		total += len(s)
	}
	s := b.Store()
	if s.Len() != len(texts) || s.ends[len(s.ends)-1] != uint64(total) {
		t.Fatalf("Len %d, %d bytes, want %d %d", s.Len(), s.ends[len(s.ends)-1], len(texts), total)
	}
	if c := compressed(s); c >= total/2 {
		t.Errorf("compressed %d of %d bytes: repetitive text should shrink", c, total)
	}
	for _, i := range append(rng.Perm(len(texts)), 0, len(texts)-1) {
		if got := s.Text(i); got != texts[i] {
			t.Fatalf("text %d: %d bytes, want %d", i, len(got), len(texts[i]))
		}
	}
	for _, i := range []int{-1, len(texts), 1 << 40} {
		if got := s.Text(i); got != "" {
			t.Errorf("Text(%d) = %q, want \"\"", i, got)
		}
	}
	// Concurrent readers share the decoded block safely (run with -race).
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 500 {
				i := (k*7919 + g) % len(texts)
				if s.Text(i) != texts[i] {
					t.Errorf("concurrent read of text %d differs", i)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestEmpty: a store of nothing, and of empty texts only.
func TestEmpty(t *testing.T) {
	if s := NewBuilder(0).Store(); s.Len() != 0 || s.Text(0) != "" || compressed(s) != 0 {
		t.Errorf("empty store: Len %d", s.Len())
	}
	b := NewBuilder(3)
	for range 3 {
		b.Add("")
	}
	if s := b.Store(); s.Len() != 3 || s.Text(1) != "" || compressed(s) != 0 {
		t.Errorf("empty texts: Len %d, %d bytes compressed", s.Len(), compressed(s))
	}
}

// compressed is the memory a store's blocks take.
func compressed(s *Store) int {
	n := 0
	for _, b := range s.blocks {
		n += len(b)
	}
	return n
}

// A store of a few short texts costs about their size, not blocks of 64
// KB: a folder of 100,000 small runs builds 200,000 of them.
func TestSmallStoreIsSmall(t *testing.T) {
	allocs := testing.Benchmark(func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			bl := NewBuilder(2)
			bl.Add("x = 1\n")
			bl.Add("")
			s := bl.Store()
			if s.Text(0) != "x = 1\n" {
				b.Fatal("text lost")
			}
		}
	})
	if per := allocs.AllocedBytesPerOp(); per > 8<<10 {
		t.Errorf("%d bytes allocated for a store of 6 bytes", per)
	}
}
