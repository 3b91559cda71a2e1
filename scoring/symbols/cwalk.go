package symbols

/*
#include <stdlib.h>
#include "walk.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync/atomic"
	"unsafe"

	"github.com/trajscope/trajscope/internal/python"
)

// cGrammar is a grammar as walk.c reads it: its tables in C memory (a
// grammar lives as long as the process).
type cGrammar struct {
	c    C.tj_grammar
	lang *C.TSLanguage
}

// newCGrammar sets up language index (tj_language's) with a class and a
// rank per symbol id.
func newCGrammar(index int, class []uint8, ranks []int16, dropPureVirtual bool) *cGrammar {
	lang := C.tj_language(C.int(index))
	if lang == nil {
		panic(fmt.Sprintf("symbols: walk.c has no grammar %d", index))
	}
	n := len(class)
	cls := (*C.uint8_t)(C.malloc(C.size_t(max(n, 1))))
	rank := (*C.int16_t)(C.malloc(C.size_t(max(n, 1) * 2)))
	copy(unsafe.Slice((*uint8)(unsafe.Pointer(cls)), n), class)
	copy(unsafe.Slice((*int16)(unsafe.Pointer(rank)), n), ranks)
	field := func(name string) C.TSFieldId {
		cs := C.CString(name)
		defer C.free(unsafe.Pointer(cs))
		return C.ts_language_field_id_for_name(lang, cs, C.uint32_t(len(name)))
	}
	return &cGrammar{lang: lang, c: C.tj_grammar{cls: cls, rank: rank, nsym: C.uint32_t(n),
		name_field: field("name"), declarator_field: field("declarator"), drop_pure_virtual: C.bool(dropPureVirtual)}}
}

// cParser is a tree-sitter parser set to one grammar, with the
// cancellation flag it watches (C memory: the parser reads it while Go
// may raise it).
type cParser struct {
	p       *C.TSParser
	flag    *C.size_t
	cleanup runtime.Cleanup
}

func (g *cGrammar) newParser() *cParser {
	cp := &cParser{p: C.ts_parser_new(), flag: (*C.size_t)(C.calloc(1, C.size_t(unsafe.Sizeof(C.size_t(0)))))}
	C.ts_parser_set_language(cp.p, g.lang)
	C.ts_parser_set_cancellation_flag(cp.p, cp.flag)
	// A pool drops parsers at a GC: their C memory goes with them.
	cp.cleanup = runtime.AddCleanup(cp, func(c cParser) { c.free() }, *cp)
	return cp
}

func (c cParser) free() {
	C.ts_parser_delete(c.p)
	C.free(unsafe.Pointer(c.flag))
}

// close frees the parser now; nothing may raise its flag any more.
func (c *cParser) close() {
	c.cleanup.Stop()
	c.free()
}

// cancel raises the flag: the parse or walk under way stops soon after.
func (c *cParser) cancel() { atomic.StoreUintptr((*uintptr)(unsafe.Pointer(c.flag)), 1) }

var errParse = errors.New("tree-sitter returned no tree")

// walk parses content and returns its definitions, named, stopping when
// ctx is done.
//
// ctx is watched through AfterFunc, which may raise a parser's flag after
// the work has finished if ctx ends just then; a parser whose flag may be
// raised is never reused, nor one whose parse stopped (tree-sitter keeps a
// stopped parse's state for resuming).
func (g *grammar) walk(ctx context.Context, content []byte) ([]Def, error) {
	if uint64(len(content)) > math.MaxUint32 {
		return nil, ErrTooLarge
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cp := g.pool.Get().(*cParser)
	stop := context.AfterFunc(ctx, cp.cancel)
	var src *C.char
	if len(content) > 0 {
		src = (*C.char)(unsafe.Pointer(&content[0]))
	}
	var out *C.tj_def
	var n C.uint32_t
	rc := C.tj_defs(cp.p, &g.cg.c, src, C.uint32_t(len(content)), cp.flag, &out, &n)
	runtime.KeepAlive(content)
	defer C.free(unsafe.Pointer(out)) // NULL unless TJ_OK
	if !stop() {
		// The flag is raised, or will be: this parser is done for.
		return nil, ctx.Err()
	}
	switch rc {
	case C.TJ_OK:
		g.pool.Put(cp)
	case C.TJ_NO_MEMORY:
		cp.close()
		return nil, errors.New("out of memory walking the tree")
	default:
		cp.close()
		return nil, errParse
	}
	if n == 0 {
		return nil, nil
	}
	cdefs := unsafe.Slice(out, int(n))
	defs := make([]Def, len(cdefs))
	for i := range cdefs {
		d := &cdefs[i]
		defs[i] = Def{Type: g.types[d.symbol], Start: int(d.start), End: int(d.end)}
		if s, e := int(d.name_start), min(int(d.name_end), len(content)); d.has_name != 0 && s < e {
			defs[i].Name = python.StripSpace(python.DecodeUTF8(content[s:e]))
		}
	}
	return defs, nil
}
