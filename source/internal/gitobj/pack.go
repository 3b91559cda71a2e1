package gitobj

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Pack object types beyond the four plain ones.
const (
	ofsDelta = 6
	refDelta = 7
)

// pack is one .pack file and its .idx, both read with positioned reads.
type pack struct {
	name string // path without extension
	idx  *index
	f    *os.File
	size int64
}

func openPack(base string) (*pack, error) {
	idx, err := openIndex(base + ".idx")
	if err != nil {
		return nil, err
	}
	f, err := os.Open(base + ".pack")
	if err != nil {
		idx.close()
		return nil, err
	}
	p := &pack{name: base, idx: idx, f: f}
	if err := p.check(); err != nil {
		p.close()
		return nil, fmt.Errorf("pack %s: %w", base, err)
	}
	return p, nil
}

// check reads the pack header: signature, version and object count, which
// must agree with the index.
func (p *pack) check() error {
	st, err := p.f.Stat()
	if err != nil {
		return err
	}
	p.size = st.Size()
	var h [12]byte
	if _, err := p.f.ReadAt(h[:], 0); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if string(h[:4]) != "PACK" {
		return errors.New("not a pack file")
	}
	if v := binary.BigEndian.Uint32(h[4:]); v != 2 && v != 3 {
		return fmt.Errorf("pack version %d not supported", v)
	}
	if n := binary.BigEndian.Uint32(h[8:]); n != p.idx.count {
		return fmt.Errorf("pack holds %d objects, its index %d", n, p.idx.count)
	}
	return nil
}

func (p *pack) close() error {
	return errors.Join(p.f.Close(), p.idx.close())
}

// entry is a pack entry's header.
type entry struct {
	typ      int8
	size     int64 // inflated size (of the delta, for deltas)
	baseOff  int64 // ofsDelta
	baseHash plumbing.Hash
}

// open parses the entry header at off and returns a reader positioned at
// its zlib stream: one positioned read usually covers header and data. The
// reader goes back to bufPool after use (see inflate).
func (p *pack) open(off int64) (entry, *bufio.Reader, error) {
	if off < 12 || off >= p.size {
		return entry{}, nil, fmt.Errorf("offset %d outside the pack", off)
	}
	br := bufPool.Get().(*bufio.Reader)
	br.Reset(io.NewSectionReader(p.f, off, p.size-off))
	e, err := parseHeader(br, off)
	if err != nil {
		bufPool.Put(br)
		return entry{}, nil, err
	}
	return e, br, nil
}

func parseHeader(br *bufio.Reader, off int64) (entry, error) {
	bad := func(what string) (entry, error) {
		return entry{}, fmt.Errorf("offset %d: bad %s header", off, what)
	}
	c, err := br.ReadByte()
	if err != nil {
		return bad("object")
	}
	e := entry{typ: int8(c>>4) & 7, size: int64(c & 15)}
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, err = br.ReadByte(); err != nil || shift > 56 {
			return bad("object")
		}
		e.size |= int64(c&0x7f) << shift
	}
	switch e.typ {
	case ofsDelta:
		if c, err = br.ReadByte(); err != nil {
			return bad("delta")
		}
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = br.ReadByte(); err != nil || rel > 1<<50 {
				return bad("delta")
			}
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		e.baseOff = off - rel
		if rel <= 0 || e.baseOff < 12 {
			return entry{}, fmt.Errorf("offset %d: delta base outside the pack", off)
		}
	case refDelta:
		if _, err := io.ReadFull(br, e.baseHash[:]); err != nil {
			return bad("delta")
		}
	case int8(Commit), int8(Tree), int8(Blob), int8(Tag):
	default:
		return entry{}, fmt.Errorf("offset %d: unknown object type %d", off, e.typ)
	}
	return e, nil
}

var (
	bufPool  = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 16<<10) }}
	zlibPool sync.Pool // of io.ReadCloser implementing zlib.Resetter
)

// inflate reads the zlib stream br is at, which must inflate to exactly
// size bytes (the stream's checksum is verified), and returns br to the
// pool.
func inflate(br *bufio.Reader, off, size int64) ([]byte, error) {
	defer bufPool.Put(br)
	if size < 0 || size > MaxObjectSize {
		return nil, fmt.Errorf("offset %d: object size %d out of range", off, size)
	}
	var zr io.ReadCloser
	if z, ok := zlibPool.Get().(io.ReadCloser); ok {
		if err := z.(zlib.Resetter).Reset(br, nil); err != nil {
			return nil, fmt.Errorf("offset %d: %w", off, err)
		}
		zr = z
	} else {
		z, err := zlib.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("offset %d: %w", off, err)
		}
		zr = z
	}
	defer zlibPool.Put(zr)
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("offset %d: inflate: %w", off, err)
	}
	// Reading past the end checks the stream ends here, with a good checksum.
	var one [1]byte
	if n, err := zr.Read(one[:]); n != 0 || err != io.EOF {
		if err == nil || err == io.EOF {
			err = errors.New("longer than its header says")
		}
		return nil, fmt.Errorf("offset %d: inflate: %w", off, err)
	}
	return out, nil
}

// baseKey names a cached object: by pack and offset, or (p == nil) by
// store and hash for loose objects. Never by hash alone: the cache serves
// every store, and one store must not find another's objects.
type baseKey struct {
	p     *pack
	off   int64
	store *Store
	hash  plumbing.Hash
}

// read returns the object at off, resolving its delta chain. shared is true
// when the content is also held by the cache.
func (p *pack) read(s *Store, off int64, depth int) (Type, []byte, bool, error) {
	type link struct {
		p     *pack
		off   int64
		delta []byte
	}
	var chain []link
	cur, at := p, off
	var typ Type
	var data []byte
	shared := false
	for {
		if depth+len(chain) > maxChain {
			return 0, nil, false, errors.New("delta chain too long")
		}
		if t, b, ok := bases.get(baseKey{p: cur, off: at}); ok {
			typ, data, shared = t, b, true
			break
		}
		e, br, err := cur.open(at)
		if err != nil {
			return 0, nil, false, err
		}
		body, err := inflate(br, at, e.size)
		if err != nil {
			return 0, nil, false, err
		}
		if e.typ != ofsDelta && e.typ != refDelta {
			typ, data = Type(e.typ), body
			bases.put(baseKey{p: cur, off: at}, typ, data)
			shared = true
			break
		}
		chain = append(chain, link{cur, at, body})
		if e.typ == ofsDelta {
			at = e.baseOff
			continue
		}
		if o, ok := cur.idx.find(e.baseHash); ok {
			at = o
			continue
		}
		// A base in another pack or loose (thin packs completed by a fetch).
		t, b, sh, err := s.read(e.baseHash, depth+len(chain), true)
		if err != nil {
			return 0, nil, false, fmt.Errorf("delta base %s: %w", e.baseHash, err)
		}
		typ, data, shared = t, b, sh
		break
	}
	for i := len(chain) - 1; i >= 0; i-- {
		out, err := patch(data, chain[i].delta)
		if err != nil {
			return 0, nil, false, fmt.Errorf("offset %d: %w", chain[i].off, err)
		}
		// Every result is kept: each but the last is a base of the next,
		// the next commit's versions of a file or tree are usually deltas
		// against these, and instances at other commits read the same
		// blobs.
		data = out
		bases.put(baseKey{p: chain[i].p, off: chain[i].off}, typ, data)
		shared = true
	}
	return typ, data, shared, nil
}

// patch applies a delta after checking the size it claims.
func patch(base, delta []byte) ([]byte, error) {
	src, rest, ok := uvarint(delta)
	if !ok || src != uint64(len(base)) {
		return nil, errors.New("delta does not match its base")
	}
	if dst, _, ok := uvarint(rest); !ok || dst > MaxObjectSize {
		return nil, errors.New("bad delta target size")
	}
	return packfile.PatchDelta(base, delta)
}

func uvarint(b []byte) (uint64, []byte, bool) {
	var v uint64
	for i, c := range b {
		if i >= 9 {
			return 0, nil, false
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, b[i+1:], true
		}
	}
	return 0, nil, false
}

// index is a version 2 .idx file: 256 cumulative counts by first byte, the
// sorted names, their CRCs, 31-bit offsets and a table of 64-bit offsets.
type index struct {
	f      *os.File
	count  uint32
	fanout [256]uint32
	size   int64
}

const (
	idxHeader  = 8
	idxNames   = idxHeader + 256*4
	idxTrailer = 40
)

func openIndex(path string) (*index, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	x := &index{f: f}
	if err := x.load(); err != nil {
		f.Close()
		return nil, fmt.Errorf("pack index %s: %w", path, err)
	}
	return x, nil
}

func (x *index) load() error {
	st, err := x.f.Stat()
	if err != nil {
		return err
	}
	x.size = st.Size()
	buf := make([]byte, idxNames)
	if _, err := x.f.ReadAt(buf, 0); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if !bytes.Equal(buf[:4], []byte{0xff, 't', 'O', 'c'}) {
		return errors.New("not a version 2 pack index")
	}
	if v := binary.BigEndian.Uint32(buf[4:]); v != 2 {
		return fmt.Errorf("pack index version %d not supported", v)
	}
	prev := uint32(0)
	for i := range x.fanout {
		v := binary.BigEndian.Uint32(buf[idxHeader+4*i:])
		if v < prev {
			return errors.New("corrupt fan-out table")
		}
		x.fanout[i], prev = v, v
	}
	x.count = prev
	if min := int64(idxNames) + int64(x.count)*28 + idxTrailer; x.size < min {
		return fmt.Errorf("truncated: %d bytes for %d objects", x.size, x.count)
	}
	return nil
}

func (x *index) close() error { return x.f.Close() }

func (x *index) name(i uint32) (plumbing.Hash, bool) {
	var h plumbing.Hash
	_, err := x.f.ReadAt(h[:], idxNames+int64(i)*20)
	return h, err == nil
}

// bucket is the range of names starting with byte b.
func (x *index) bucket(b byte) (lo, hi uint32) {
	if b > 0 {
		lo = x.fanout[b-1]
	}
	return lo, x.fanout[b]
}

// find returns the pack offset of h: a binary search over the names,
// narrowed by positioned reads until the range fits in one small read.
func (x *index) find(h plumbing.Hash) (int64, bool) {
	lo, hi := x.bucket(h[0])
	for hi-lo > findWindow {
		mid := lo + (hi-lo)/2
		n, ok := x.name(mid)
		if !ok {
			return 0, false
		}
		switch c := bytes.Compare(n[:], h[:]); {
		case c == 0:
			return x.offset(mid)
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	if lo >= hi {
		return 0, false
	}
	var buf [findWindow * 20]byte
	names := buf[:(hi-lo)*20]
	if _, err := x.f.ReadAt(names, idxNames+int64(lo)*20); err != nil {
		return 0, false
	}
	i, found := sortSearch(int(hi-lo), func(i int) int { return bytes.Compare(names[i*20:i*20+20], h[:]) })
	if !found {
		return 0, false
	}
	return x.offset(lo + uint32(i))
}

// findWindow is how many names the last step of find reads at once.
const findWindow = 64

// sortSearch is a binary search over n sorted items by cmp (item vs target).
func sortSearch(n int, cmp func(int) int) (int, bool) {
	lo, hi := 0, n
	for lo < hi {
		mid := lo + (hi-lo)/2
		switch c := cmp(mid); {
		case c == 0:
			return mid, true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return lo, false
}

func (x *index) offset(i uint32) (int64, bool) {
	offs := int64(idxNames) + int64(x.count)*24
	var b [8]byte
	if _, err := x.f.ReadAt(b[:4], offs+int64(i)*4); err != nil {
		return 0, false
	}
	v := binary.BigEndian.Uint32(b[:4])
	if v&0x80000000 == 0 {
		return int64(v), true
	}
	large := offs + int64(x.count)*4 + int64(v&0x7fffffff)*8
	if large+8 > x.size-idxTrailer {
		return 0, false
	}
	if _, err := x.f.ReadAt(b[:], large); err != nil {
		return 0, false
	}
	o := binary.BigEndian.Uint64(b[:])
	return int64(o), o < 1<<62
}

// prefix adds to found the names starting with the hex prefix (at most two:
// more only matter as "ambiguous").
func (x *index) prefix(prefix string, found map[plumbing.Hash]bool) {
	var want plumbing.Hash // the prefix padded with zeros: the first candidate
	for i := 0; i < len(prefix); i++ {
		want[i/2] |= unhex(prefix[i]) << (4 * (1 - i%2))
	}
	lo, hi := x.bucket(want[0])
	for lo < hi { // first name >= want
		mid := lo + (hi-lo)/2
		n, ok := x.name(mid)
		if !ok {
			return
		}
		if bytes.Compare(n[:], want[:]) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	for i := lo; i < x.count && len(found) < 2; i++ {
		n, ok := x.name(i)
		if !ok || n.String()[:len(prefix)] != prefix {
			return
		}
		found[n] = true
	}
}

func unhex(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return 0
}
