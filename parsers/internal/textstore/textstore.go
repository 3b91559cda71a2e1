// Package textstore holds many texts compressed, each read back by its
// index. A run's outputs and thoughts are most of its file and are shown one
// at a time, and the run list holds every run it loaded: kept this way they
// take about a tenth of their size.
//
// The texts are one stream cut into blocks of BlockSize bytes, each
// compressed with S2 on its own. Reading a text decompresses the blocks it
// spans; the last block read is kept, so reading the texts in order
// decompresses each block once.
package textstore

import (
	"bytes"
	"strings"
	"sync"

	"github.com/klauspost/compress/s2"

	"github.com/trajscope/trajscope/model"
)

// Compress returns the first n texts of t in a Store; nil when t is nil,
// t itself when it is one already.
func Compress(t model.Texts, n int) model.Texts {
	if _, done := t.(*Store); t == nil || done {
		return t
	}
	b := NewBuilder(n)
	for i := range n {
		b.Add(t.Text(i))
	}
	return b.Store()
}

// BlockSize is how many bytes of the stream one block holds: small enough
// that reading one short text costs little, large enough to compress well.
const BlockSize = 64 << 10

// Builder collects texts in order.
type Builder struct {
	ends    []uint64
	blocks  [][]byte
	cur     []byte // the stream's bytes not yet in a block
	n       uint64
	scratch []byte // where a block is encoded before it is copied to its size
}

// NewBuilder returns a builder expecting about n texts.
func NewBuilder(n int) *Builder {
	return &Builder{ends: make([]uint64, 0, n)}
}

// Add appends s as the next text.
func (b *Builder) Add(s string) {
	b.n += uint64(len(s))
	b.ends = append(b.ends, b.n)
	for len(s) > 0 {
		if b.cur == nil {
			// Sized to what comes, not to a block: a folder of 100,000
			// small runs would otherwise zero 64 KB for each.
			b.cur = make([]byte, 0, min(BlockSize, max(len(s), 512)))
		}
		k := min(len(s), BlockSize-len(b.cur))
		b.cur = append(b.cur, s[:k]...)
		s = s[k:]
		if len(b.cur) == BlockSize {
			b.flush()
		}
	}
}

func (b *Builder) flush() {
	if len(b.cur) > 0 {
		if need := s2.MaxEncodedLen(len(b.cur)); len(b.scratch) < need {
			b.scratch = make([]byte, need)
		}
		b.blocks = append(b.blocks, bytes.Clone(s2.Encode(b.scratch, b.cur)))
		b.cur = b.cur[:0]
	}
}

// Store returns the texts added; the builder must not be used afterwards.
func (b *Builder) Store() *Store {
	b.flush()
	return &Store{ends: b.ends, blocks: b.blocks, cached: -1}
}

// Store is a list of texts, compressed. It is safe for concurrent use.
type Store struct {
	ends   []uint64 // text i is the stream's bytes [ends[i-1], ends[i])
	blocks [][]byte

	mu     sync.Mutex
	cached int // the block decoded in buf, -1 for none
	buf    []byte
}

// Len is the number of texts.
func (s *Store) Len() int { return len(s.ends) }

// Text returns text i; "" when i is out of range.
func (s *Store) Text(i int) string {
	if i < 0 || i >= len(s.ends) {
		return ""
	}
	start, end := uint64(0), s.ends[i]
	if i > 0 {
		start = s.ends[i-1]
	}
	if start == end {
		return ""
	}
	var out strings.Builder
	out.Grow(int(end - start))
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := start / BlockSize; k*BlockSize < end; k++ {
		blk := s.block(int(k))
		lo := max(start, k*BlockSize) - k*BlockSize
		hi := min(end, k*BlockSize+uint64(len(blk))) - k*BlockSize
		out.Write(blk[lo:hi])
	}
	return out.String()
}

// block returns block k decoded, from buf. The blocks were encoded here
// from memory, so they decode; a failure would be memory corruption.
func (s *Store) block(k int) []byte {
	if s.cached != k {
		if n, err := s2.DecodedLen(s.blocks[k]); err == nil && cap(s.buf) < n {
			s.buf = make([]byte, n) // a short store's one block is short
		}
		b, err := s2.Decode(s.buf[:cap(s.buf)], s.blocks[k])
		if err != nil {
			panic("textstore: a block built here does not decode: " + err.Error())
		}
		s.buf, s.cached = b, k
	}
	return s.buf
}
