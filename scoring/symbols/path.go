package symbols

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// pathTracker answers "does this def lie under a skipped node?" for defs
// given in pre-order. It keeps a cursor on the path from the root to the
// previous def and moves it up and down to the next one, so the whole pass
// costs about one walk of the paths involved. ts_node_parent, the obvious
// tool, restarts from the root on every call: quadratic on deep nesting
// (3,000 nested arrows took seconds, 2026-11-24).
type pathTracker struct {
	g     *grammar
	cur   *sitter.TreeCursor
	root  *sitter.Node
	stack []pathFrame // the cursor's path, root first
}

type pathFrame struct {
	start, end uint32
	skips      int // skipped nodes on the path down to and including this one
}

func newPathTracker(g *grammar, root *sitter.Node) *pathTracker {
	t := &pathTracker{g: g, cur: sitter.NewTreeCursor(root), root: root}
	t.reset()
	return t
}

func (t *pathTracker) close() { t.cur.Close() }

func (t *pathTracker) reset() {
	t.cur.Reset(t.root)
	t.stack = t.stack[:0]
	t.push(t.root, 0)
}

func (t *pathTracker) push(n *sitter.Node, above int) {
	f := pathFrame{start: n.StartByte(), end: n.EndByte(), skips: above}
	if _, cls, _ := t.g.info(n); cls&clsComment != 0 || cls&clsNamed == 0 {
		f.skips++
	}
	t.stack = append(t.stack, f)
}

// hidden reports whether an ancestor of def is anonymous or has "comment"
// in its type, the subtrees upstream extract_defs never enters.
func (t *pathTracker) hidden(def *sitter.Node) bool {
	s, e := def.StartByte(), def.EndByte()
	if s == e {
		// A zero-width node has no unambiguous place by byte range.
		return t.g.hiddenSlow(def)
	}
	// Go up to the deepest frame whose range holds the def. A node later
	// in pre-order that lies inside a path node's range is in its subtree,
	// because everything after that subtree starts at or past its end.
	for len(t.stack) > 1 {
		top := t.stack[len(t.stack)-1]
		if top.start <= s && e <= top.end && top.start < top.end {
			break
		}
		t.stack = t.stack[:len(t.stack)-1]
		t.cur.GoToParent()
	}
	// Go down: the first child reaching past s is the def's ancestor, as
	// siblings do not overlap.
	for found := true; found; {
		n := t.cur.CurrentNode()
		depth := len(t.stack)
		if n.ID() == def.ID() && n.StartByte() == s {
			return depth > 1 && t.stack[depth-2].skips > 0
		}
		if t.cur.GoToFirstChildForByte(s) < 0 {
			break
		}
		// The bundled tree-sitter stops at a child that ends at s, not
		// past it: step on to the one that reaches past.
		c := t.cur.CurrentNode()
		for c.EndByte() <= s {
			if found = t.cur.GoToNextSibling(); !found {
				break
			}
			c = t.cur.CurrentNode()
		}
		if found {
			t.push(c, t.stack[depth-1].skips)
		}
	}
	// Not found on the expected path (should not happen): answer the slow
	// way and start the next search from the root.
	t.reset()
	return t.g.hiddenSlow(def)
}

// hiddenSlow is hidden by parent pointers.
func (g *grammar) hiddenSlow(n *sitter.Node) bool {
	for a := n.Parent(); a != nil; a = a.Parent() {
		if _, cls, _ := g.info(a); cls&clsComment != 0 || cls&clsNamed == 0 {
			return true
		}
	}
	return false
}
