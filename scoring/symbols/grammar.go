package symbols

import (
	"fmt"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"
	"github.com/smacker/go-tree-sitter/c"
	"github.com/smacker/go-tree-sitter/cpp"
	"github.com/smacker/go-tree-sitter/csharp"
	"github.com/smacker/go-tree-sitter/golang"
	"github.com/smacker/go-tree-sitter/java"
	"github.com/smacker/go-tree-sitter/javascript"
	"github.com/smacker/go-tree-sitter/kotlin"
	"github.com/smacker/go-tree-sitter/php"
	"github.com/smacker/go-tree-sitter/python"
	"github.com/smacker/go-tree-sitter/ruby"
	"github.com/smacker/go-tree-sitter/rust"
	"github.com/smacker/go-tree-sitter/scala"
	"github.com/smacker/go-tree-sitter/swift"
	"github.com/smacker/go-tree-sitter/typescript/tsx"
	"github.com/smacker/go-tree-sitter/typescript/typescript"
)

// symClass flags, per grammar symbol.
const (
	clsDef         = 1 << iota // in DEF_NODES for the language
	clsComment                 // type contains "comment": skipped with its subtree
	clsPureVirtual             // cpp's pure_virtual_clause
	clsNamed                   // a named node's symbol
)

// grammar is one mapped language, with its parser pool and a per-symbol
// classification, so nodes are classified by symbol id without building
// type strings.
type grammar struct {
	name  string
	lang  *sitter.Language
	defs  map[string]bool
	pool  sync.Pool // *sitter.Parser; parsers are not goroutine-safe
	once  sync.Once
	class []uint8  // by symbol id, clsNamed included
	types []string // by symbol id
	ranks []int16  // identifier rank by symbol id, -1 when not an identifier type
	// nameField and declaratorField: whether the grammar has these fields
	// (a look-up of a field it lacks finds nothing, but costs a call).
	nameField, declaratorField bool
	dropPureVirtual            bool
	// query finds the defs ("[(t1) (t2) …] @def"); qerr says why there is
	// none.
	query *sitter.Query
	qerr  error
}

// languages are the mapped grammars.
var languages = []struct {
	name string
	get  func() *sitter.Language
}{
	{"python", python.GetLanguage},
	{"javascript", javascript.GetLanguage},
	{"typescript", typescript.GetLanguage},
	{"tsx", tsx.GetLanguage},
	{"java", java.GetLanguage},
	{"go", golang.GetLanguage},
	{"rust", rust.GetLanguage},
	{"c", c.GetLanguage},
	{"cpp", cpp.GetLanguage},
	{"c_sharp", csharp.GetLanguage},
	{"php", php.GetLanguage},
	{"ruby", ruby.GetLanguage},
	{"swift", swift.GetLanguage},
	{"kotlin", kotlin.GetLanguage},
	{"scala", scala.GetLanguage},
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
)

func loadGrammars() {
	grammars = make(map[string]*grammar, len(languages))
	for _, l := range languages {
		g := &grammar{name: l.name, lang: l.get(), defs: map[string]bool{}}
		for _, t := range defNodes[l.name] {
			g.defs[t] = true
		}
		lang := g.lang
		g.pool.New = func() any {
			p := sitter.NewParser()
			p.SetLanguage(lang)
			return p
		}
		grammars[l.name] = g
	}
}

func grammarFor(lang string) *grammar {
	grammarsOnce.Do(loadGrammars)
	g := grammars[lang]
	if g != nil {
		g.once.Do(g.classify)
	}
	return g
}

// classify names every symbol once. ts_node_type is the name of the node's
// public symbol, so classifying by symbol id is the same as by type string.
//
// The pinned upstream grammar (tree-sitter-cpp of early 2024) parses
// "virtual void f() = 0;" and "int x = 0;" in a class body as
// field_declaration; go-tree-sitter's v0.22.3 makes both a
// function_definition holding a pure_virtual_clause, which upstream never
// sees, so for cpp those are dropped.
func (g *grammar) classify() {
	n := int(g.lang.SymbolCount())
	g.class = make([]uint8, n)
	g.types = make([]string, n)
	g.ranks = make([]int16, n)
	for i := 0; i < n; i++ {
		t := g.lang.SymbolName(sitter.Symbol(i))
		g.types[i] = t
		g.class[i] = classOf(g, t)
		// A node is named when its (public, alias-aware) symbol is: what
		// ts_node_is_named answers, read from the table instead of a call
		// a node.
		if g.lang.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular {
			g.class[i] |= clsNamed
		}
		g.ranks[i] = rankOf(t)
	}
	for i := 1; ; i++ {
		f := g.lang.FieldName(i)
		if f == "" {
			break
		}
		g.nameField = g.nameField || f == "name"
		g.declaratorField = g.declaratorField || f == "declarator"
	}
	g.dropPureVirtual = g.name == "cpp"
	g.query, g.qerr = g.defQuery()
}

// defQuery builds "[(t1) (t2) …] @def" over the table's types that the
// grammar has as named symbols; a query naming an unknown type (python's
// async_function_definition) would not compile.
func (g *grammar) defQuery() (*sitter.Query, error) {
	var alts []string
	for _, t := range defNodes[g.name] {
		for i, name := range g.types {
			if name == t && g.class[i]&clsNamed != 0 {
				alts = append(alts, "("+t+")")
				break
			}
		}
	}
	if len(alts) == 0 {
		return nil, nil
	}
	q, err := sitter.NewQuery([]byte("["+strings.Join(alts, " ")+"] @def"), g.lang)
	if err != nil {
		// Every type was checked against the grammar, so only a grammar
		// upgrade gets here; fail loudly rather than find no symbols.
		return nil, fmt.Errorf("symbols: definition query for %s: %w", g.name, err)
	}
	return q, nil
}

// info returns the type, class and identifier rank of a node from the
// tables, by strings for symbols outside them (ERROR is 65535).
func (g *grammar) info(n *sitter.Node) (string, uint8, int16) {
	s := int(n.Symbol())
	if s < len(g.types) {
		return g.types[s], g.class[s], g.ranks[s]
	}
	t := n.Type()
	c := classOf(g, t)
	if n.IsNamed() {
		c |= clsNamed
	}
	return t, c, rankOf(t)
}

func classOf(g *grammar, t string) uint8 {
	var c uint8
	if g.defs[t] {
		c |= clsDef
	}
	if strings.Contains(t, "comment") {
		c |= clsComment
	}
	if t == "pure_virtual_clause" {
		c |= clsPureVirtual
	}
	return c
}

func rankOf(t string) int16 {
	if r, ok := identRank[t]; ok {
		return int16(r)
	}
	return -1
}
