package symbols

import (
	"context"
	"errors"
	"math"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/trajscope/trajscope/internal/python"
)

// walk parses content and returns its definitions, named, stopping soon
// after ctx is done.
//
// The query engine visits every node in pre-order in C, which is cheaper
// than stepping a cursor over every node from Go (go-tree-sitter allocates
// and caches a Node for each node a cursor lands on); a single-node
// pattern completes on entry, so matches arrive in upstream's order. Only
// the paths down to the defs and the stretches their names are searched
// in are walked from Go.
func (g *grammar) walk(ctx context.Context, content []byte) ([]Def, error) {
	if uint64(len(content)) > math.MaxUint32 {
		return nil, ErrTooLarge
	}
	if g.query == nil {
		return nil, g.qerr
	}
	tree, err := g.parse(ctx, content)
	if err != nil {
		return nil, err
	}
	defer tree.Close()

	root := tree.RootNode()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	qc.Exec(g.query, root)
	tracker := newPathTracker(g, root)
	defer tracker.close()
	var nodes []*sitter.Node
	for steps := 1; ; steps++ {
		if steps%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			// extract_defs never enters the subtree of an anonymous or
			// comment node.
			if tracker.hidden(c.Node) {
				continue
			}
			if g.dropPureVirtual && g.hasChild(cur, c.Node, clsPureVirtual) {
				continue
			}
			nodes = append(nodes, c.Node)
		}
	}
	if len(nodes) == 0 {
		return nil, nil
	}

	// Name the defs innermost first, so a def whose name search covers its
	// whole subtree leaves its result for enclosing searches to reuse
	// instead of walking that subtree again (nested nameless arrows would
	// otherwise be quadratic).
	n := namer{g: g, src: content, cur: cur, memo: map[*sitter.Node]hit{}}
	out := make([]Def, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		d := nodes[i]
		h, err := n.best(ctx, d)
		if err != nil {
			return nil, err
		}
		t, _, _ := g.info(d)
		out[i] = Def{Type: t, Start: int(d.StartByte()), End: int(d.EndByte())}
		if s, e := int(h.start), min(int(h.end), len(content)); h.rank != noName && s < e {
			out[i].Name = python.StripSpace(python.DecodeUTF8(content[s:e]))
		}
	}
	return out, nil
}

// hasChild reports whether n has a direct child of class cls.
func (g *grammar) hasChild(cur *sitter.TreeCursor, n *sitter.Node, cls uint8) bool {
	cur.Reset(n)
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		if _, c, _ := g.info(cur.CurrentNode()); c&cls != 0 {
			return true
		}
	}
	return false
}

// hit is a name search's result: the first best-ranked identifier in
// pre-order (rank noName when there is none).
type hit struct {
	rank       int16
	start, end uint32
}

const noName = math.MaxInt16

// namer names one file's defs.
type namer struct {
	g    *grammar
	src  []byte
	cur  *sitter.TreeCursor
	memo map[*sitter.Node]hit // whole-subtree results of defs named so far
}

// best is upstream _best_name_for_def: the "name" field's text when it is
// not blank; else the first best-ranked, non-blank, named identifier in a
// pre-order walk of the "declarator" field or of the def itself (which
// counts as its own first descendant), a lower rank winning, the first one
// a tie, and a rank-0 identifier ending the search.
//
// A def named earlier (a deeper one) whose search covered its whole
// subtree is taken as its result instead of its subtree, which gives the
// same answer: that result is the first best node of that stretch of the
// pre-order.
func (n *namer) best(ctx context.Context, def *sitter.Node) (hit, error) {
	g := n.g
	if g.nameField {
		if nn := def.ChildByFieldName("name"); nn != nil {
			if s, e := nn.StartByte(), nn.EndByte(); !blank(n.src, s, e) {
				return hit{0, s, e}, nil
			}
		}
	}
	root := def
	if g.declaratorField {
		if d := def.ChildByFieldName("declarator"); d != nil {
			root = d
		}
	}
	cur := n.cur
	cur.Reset(root)
	best := hit{rank: noName}
	for steps := 1; ; steps++ {
		if steps%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return hit{}, err
			}
		}
		nd := cur.CurrentNode()
		_, cls, r := g.info(nd)
		descend := true
		if m, ok := n.memoized(nd, cls); ok && nd != root {
			if m.rank < best.rank {
				best = m
			}
			descend = false
		} else if r >= 0 && r < best.rank && cls&clsNamed != 0 {
			if s, e := nd.StartByte(), nd.EndByte(); !blank(n.src, s, e) {
				best = hit{r, s, e}
			}
		}
		if best.rank == 0 || !(descend && cur.GoToFirstChild()) && !nextInWalk(cur) {
			break
		}
	}
	if root == def {
		n.memo[def] = best
	}
	return best, nil
}

// memoized is the remembered result of node nd of class cls (only defs
// are remembered: others skip the look-up).
func (n *namer) memoized(nd *sitter.Node, cls uint8) (hit, bool) {
	if cls&clsDef == 0 {
		return hit{}, false
	}
	h, ok := n.memo[nd]
	return h, ok
}

// nextInWalk moves the cursor to the next node in pre-order after the
// current node's subtree; false when the walk is over.
func nextInWalk(cur *sitter.TreeCursor) bool {
	for !cur.GoToNextSibling() {
		if !cur.GoToParent() {
			return false
		}
	}
	return true
}

// blank reports whether src[s:e] (clamped to len(src), as Python slices
// are) decodes to nothing but what Python's str.strip() removes: ASCII
// whitespace, 0x1c-0x1f, and U+0085, U+00A0, U+1680, U+2000-U+200A,
// U+2028, U+2029, U+202F, U+205F, U+3000 when validly encoded. Any other
// byte is, or decodes to, a character strip() keeps (invalid UTF-8 becomes
// U+FFFD).
func blank(src []byte, s, e uint32) bool {
	e = min(e, uint32(len(src)))
	for i := s; i < e; i++ {
		b := src[i]
		if b < 0x80 {
			if (b >= 0x09 && b <= 0x0d) || (b >= 0x1c && b <= 0x20) {
				continue
			}
			return false
		}
		var b1, b2 byte
		if i+1 < e {
			b1 = src[i+1]
		}
		if i+2 < e {
			b2 = src[i+2]
		}
		switch {
		case b == 0xc2 && (b1 == 0x85 || b1 == 0xa0):
			i++
		case b == 0xe1 && b1 == 0x9a && b2 == 0x80,
			b == 0xe2 && b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8a) || b2 == 0xa8 || b2 == 0xa9 || b2 == 0xaf),
			b == 0xe2 && b1 == 0x81 && b2 == 0x9f,
			b == 0xe3 && b1 == 0x80 && b2 == 0x80:
			i += 2
		default:
			return false
		}
	}
	return true
}

var errParse = errors.New("tree-sitter returned no tree")

// checkEvery is how many steps a walk takes between looks at its context.
const checkEvery = 4096

// parse runs a pooled parser over content, stopping when ctx is done.
//
// go-tree-sitter watches a cancellable context from a goroutine that may
// raise the parser's cancel flag after the parse has finished, if the
// context ends just then; a pooled parser would then refuse its next
// parse. So the parse gets a private context cancelled only through
// AfterFunc, a parser whose private context may have been cancelled is
// never reused, and neither is one whose parse stopped (tree-sitter keeps a
// stopped parse's state for resuming).
func (g *grammar) parse(ctx context.Context, content []byte) (*sitter.Tree, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := g.pool.Get().(*sitter.Parser)
	pctx, pcancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, pcancel)
	tree, err := p.ParseCtx(pctx, nil, content)
	if !stop() {
		p.Close()
		if tree != nil {
			tree.Close()
		}
		return nil, ctx.Err()
	}
	// pctx is left alone from here: cancelling it now could still raise
	// the flag of a parser going back to the pool.
	if err != nil || tree == nil {
		p.Close()
		if err == nil {
			err = errParse
		}
		return nil, err
	}
	g.pool.Put(p)
	return tree, nil
}
