package symbols

import (
	"context"
	"math"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/trajscope/trajscope/internal/python"
)

func (g *grammar) typeOf(n *sitter.Node) string {
	t, _, _ := g.info(n)
	return t
}

// nameHit is the result of an identifier search over a whole subtree: the
// first best-ranked identifier in pre-order.
type nameHit struct {
	text string
	rank int16
}

// bestName is upstream _best_name_for_def: the stripped text of the "name"
// field if non-empty; otherwise the best identifier-like named node in a
// pre-order walk of the "declarator" field (or of the def itself, which
// counts as its own first descendant), where a lower rank wins, the first
// one wins a tie and a rank-0 identifier ends the search.
//
// memo holds whole-subtree results of defs named earlier (deeper ones, as
// the caller goes innermost first). The walk takes such a result in place
// of the def's subtree, which gives the same answer: it is the first best
// node of that stretch of the pre-order.
func (g *grammar) bestName(ctx context.Context, def *sitter.Node, src []byte, cur *sitter.TreeCursor, memo map[*sitter.Node]nameHit) (string, error) {
	if nn := def.ChildByFieldName("name"); nn != nil {
		if s := python.StripSpace(nodeText(src, nn)); s != "" {
			return s, nil
		}
	}
	root := def
	if d := def.ChildByFieldName("declarator"); d != nil {
		root = d
	}
	cur.Reset(root)
	best := nameHit{rank: math.MaxInt16}
	for steps := 1; ; steps++ {
		if steps%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return "", err
			}
		}
		n := cur.CurrentNode()
		_, cls, r := g.info(n)
		descend := true
		if hit, ok := memoHit(memo, n, cls); ok && n != root {
			if hit.rank < best.rank {
				best = hit
			}
			descend = false
		} else if r >= 0 && r < best.rank && n.IsNamed() {
			if s := python.StripSpace(nodeText(src, n)); s != "" {
				best = nameHit{s, r}
			}
		}
		if best.rank == 0 || !(descend && cur.GoToFirstChild()) && !nextInWalk(cur) {
			break
		}
	}
	if root == def {
		memo[def] = best
	}
	return best.text, nil
}

func memoHit(memo map[*sitter.Node]nameHit, n *sitter.Node, cls uint8) (nameHit, bool) {
	if cls&clsDef == 0 {
		return nameHit{}, false // only defs are memoized: skip the map lookup
	}
	hit, ok := memo[n]
	return hit, ok
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

// nodeText is src[start:end].decode("utf-8", errors="replace"), with
// Python's slice clamping.
func nodeText(src []byte, n *sitter.Node) string {
	s, e := int(n.StartByte()), int(n.EndByte())
	e = min(e, len(src))
	if s >= e {
		return ""
	}
	return python.DecodeUTF8(src[s:e])
}
