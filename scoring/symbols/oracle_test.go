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
// and extract_named_defs (named=true): a cursor walk in pre-order through
// go-tree-sitter's Go API, plus the cpp pure_virtual_clause compensation.
// It is the oracle for the walk.
func walkDefs(g *grammar, content []byte, named bool) ([]Def, error) {
	p := sitter.NewParser()
	defer p.Close()
	p.SetLanguage(g.lang)
	tree, err := p.ParseCtx(context.Background(), nil, content)
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

// nodeText is src[start:end].decode("utf-8", errors="replace"), with
// Python's slice clamping.
func nodeText(src []byte, n *sitter.Node) string {
	s, e := int(n.StartByte()), min(int(n.EndByte()), len(src))
	if s >= e {
		return ""
	}
	return python.DecodeUTF8(src[s:e])
}

// checkOracle compares the walk's extraction with the literal walk.
func checkOracle(t testing.TB, path string, src []byte) {
	t.Helper()
	got, err := extract(context.Background(), path, src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := walkDefs(grammarFor(Language(path)), src, false)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the walk and the oracle differ\n the walk %v\n oracle %v", path, got, want)
	}
}

func TestWalkMatchesOracle(t *testing.T) {
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
		// Names next to what Python's strip() removes, and bytes that are
		// not UTF-8: missing (zero-width) names are blank.
		checkOracle(t, "x"+ext, []byte("def \u00a0 (\u3000): class \u2000x\u205f { fn \xc2\xa0() {} } func \xe2\x80 struct \x1c S {}; function (\xc0\xa0) {}"))
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

// TestWalkSkips: no real grammar puts a def under a skipped node, so
// pretend Python's "block" and "decorated_definition" are comments: the walk
// must leave out the defs under them, as the oracle does. And names made
// of what Python's strip() removes are no names.
func TestWalkSkips(t *testing.T) {
	g := grammarFor("python")
	fake := &grammar{name: g.name, lang: g.lang, types: g.types, ranks: g.ranks,
		class: append([]uint8(nil), g.class...), nameField: g.nameField, declaratorField: g.declaratorField,
		query: g.query}
	for i, name := range g.types {
		if name == "block" || name == "decorated_definition" {
			fake.class[i] |= clsComment
		}
	}
	fake.pool.New = g.pool.New
	// sample.py: plain (decorated), fetch, inner (in fetch's block), Outer,
	// Inner and method (in Outer's block). mod.py: alpha, Beta, gamma and
	// delta (in Beta's block).
	want := map[string][]string{
		"testdata/lang/sample.py": {"fetch", "Outer"},
		"testdata/mod.py":         {"alpha", "Beta"},
	}
	for file, names := range want {
		src := readFixture(t, file)
		got, err := fake.walk(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		oracle, err := walkDefs(fake, src, false)
		if err != nil {
			t.Fatal(err)
		}
		var gotNames []string
		for _, d := range got {
			gotNames = append(gotNames, d.Name)
		}
		if !reflect.DeepEqual(got, oracle) || !reflect.DeepEqual(gotNames, names) {
			t.Errorf("%s: the walk %v, oracle %v, want %v", file, got, oracle, names)
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
