package symbols

import (
	"context"
	"reflect"
	"strings"
	"testing"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/trajscope/trajscope/internal/python"
)

// walkDefs is a literal transcription of upstream extract_defs (named=false)
// and extract_named_defs (named=true): a cursor walk in pre-order, from Go,
// plus the cpp pure_virtual_clause compensation. It is the oracle for the
// query-based extract.
func walkDefs(path string, content []byte, named bool) ([]Def, error) {
	g := grammarFor(Language(path))
	if g == nil {
		return nil, nil
	}
	tree, err := g.parse(context.Background(), content)
	if err != nil {
		return nil, err
	}
	defer tree.Close()

	root := tree.RootNode()
	cur := sitter.NewTreeCursor(root)
	defer cur.Close()
	nameCur := sitter.NewTreeCursor(root)
	defer nameCur.Close()

	var out []Def
	for {
		n := cur.CurrentNode()
		typ, cls, _ := g.info(n)
		// extract_defs skips an anonymous or comment node together with its
		// subtree; extract_named_defs only skips the node itself.
		skip := !n.IsNamed() || cls&clsComment != 0
		if !skip && cls&clsDef != 0 && !(g.name == "cpp" && oracleHasChild(n, "pure_virtual_clause")) {
			d := Def{Type: typ, Start: int(n.StartByte()), End: int(n.EndByte())}
			d.Name = oracleName(g, n, content, nameCur)
			if !named || d.Name != "" {
				out = append(out, d)
			}
		}
		if (named || !skip) && cur.GoToFirstChild() {
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return out, nil
			}
		}
	}
}

// checkOracle compares the query-based extraction with the literal walk.
func checkOracle(t testing.TB, path string, src []byte) {
	t.Helper()
	got, err := extract(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := walkDefs(path, src, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: query and walk differ\n query %v\n walk  %v", path, got, want)
	}
}

func TestQueryMatchesWalk(t *testing.T) {
	for p, src := range allFixtures(t) {
		checkOracle(t, p, src)
	}
	checkOracle(t, "gen.py", genPython(2000))
	checkOracle(t, "gen.js", genJS(2000))
	// Nested nameless defs exercise the naming memo.
	checkOracle(t, "deep.js", []byte("f("+strings.Repeat("() => ", 300)+"0)"))
	checkOracle(t, "deep.js", []byte(strings.Repeat("(a) => ", 100)+"(() => b)"))
	checkOracle(t, "deep.c", []byte(strings.Repeat("struct { int x; ", 200)+strings.Repeat("} y; ", 200)))
	checkOracle(t, "deep.kt", []byte(strings.Repeat("fun f(): T { ", 100)+strings.Repeat("}\n", 100)))
	for _, ext := range extByLang {
		checkOracle(t, "x"+ext, []byte("\xff\xfe garbage (((( {{ def class fn func"))
	}
}

// oracleName is upstream _best_name_for_def transcribed without memo.
func oracleName(g *grammar, def *sitter.Node, src []byte, cur *sitter.TreeCursor) string {
	if nn := def.ChildByFieldName("name"); nn != nil {
		if s := python.StripSpace(nodeText(src, nn)); s != "" {
			return s
		}
	}
	root := def
	if d := def.ChildByFieldName("declarator"); d != nil {
		root = d
	}
	cur.Reset(root)
	best, bestRank := "", int16(1<<14)
	for {
		n := cur.CurrentNode()
		if _, _, r := g.info(n); r >= 0 && r < bestRank && n.IsNamed() {
			if s := python.StripSpace(nodeText(src, n)); s != "" {
				best, bestRank = s, r
				if r == 0 {
					return best
				}
			}
		}
		if cur.GoToFirstChild() {
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() {
				return best
			}
		}
	}
}

// TestPathTrackerSkips: no real grammar puts a def under a skipped node, so
// pretend Python's "block" and "decorator"-carrying nodes are comments and
// check the cursor-path answer against parent pointers, node by node.
func TestPathTrackerSkips(t *testing.T) {
	g := grammarFor("python")
	fake := &grammar{name: g.name, lang: g.lang, types: g.types, ranks: g.ranks,
		class: append([]uint8(nil), g.class...)}
	for i, name := range g.types {
		if name == "block" || name == "decorated_definition" {
			fake.class[i] |= clsComment
		}
	}
	for _, file := range []string{"testdata/lang/sample.py", "testdata/mod.py"} {
		src := readFixture(t, file)
		tree, err := g.parse(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		qc := sitter.NewQueryCursor()
		qc.Exec(g.query, tree.RootNode())
		tr := newPathTracker(fake, tree.RootNode())
		var got []bool
		for {
			m, ok := qc.NextMatch()
			if !ok {
				break
			}
			for _, c := range m.Captures {
				h := tr.hidden(c.Node)
				if slow := fake.hiddenSlow(c.Node); h != slow {
					t.Errorf("%s: def at %d: tracker %v, parents %v", file, c.Node.StartByte(), h, slow)
				}
				got = append(got, h)
			}
		}
		tr.close()
		qc.Close()
		tree.Close()
		// sample.py: plain (decorated), fetch, inner (in fetch's block),
		// Outer, Inner and method (in Outer's block). mod.py: alpha, Beta,
		// gamma and delta (in Beta's block).
		want := map[string][]bool{
			"testdata/lang/sample.py": {true, false, true, false, true, true},
			"testdata/mod.py":         {false, false, true, true},
		}[file]
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: hidden %v, want %v", file, got, want)
		}
	}
}

func oracleHasChild(n *sitter.Node, typ string) bool {
	for i := 0; i < int(n.ChildCount()); i++ {
		if n.Child(i).Type() == typ {
			return true
		}
	}
	return false
}
