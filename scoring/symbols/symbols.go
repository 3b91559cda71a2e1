// Package symbols extracts definition nodes from source files with
// tree-sitter, reproducing ContextBench's extractors/treesitter.py: the same
// extension map, the same DEF_NODES table, the same traversal and the same
// naming heuristic. A symbol's identity in the metrics is
// (file, Type, Start, End); Name is only used to resolve symbol names that a
// trajectory mentions.
package symbols

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"
	"unicode"

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
	"github.com/trajscope/trajscope/internal/pystr"
)

// Def is one definition node.
type Def struct {
	Type  string // tree-sitter node type, e.g. "function_definition"
	Start int    // start byte, inclusive
	End   int    // end byte, exclusive (tree-sitter's end_byte)
	Name  string // upstream _best_name_for_def; "" when it finds none
}

// extMap is upstream LANG_MAP, keyed by the lower-cased extension.
var extMap = map[string]string{
	".py": "python", ".js": "javascript", ".jsx": "javascript", ".ts": "typescript",
	".tsx": "tsx", ".java": "java", ".go": "go", ".rs": "rust", ".c": "c", ".h": "c",
	".cpp": "cpp", ".cc": "cpp", ".hpp": "cpp", ".cs": "c_sharp", ".php": "php",
	".rb": "ruby", ".swift": "swift", ".kt": "kotlin", ".scala": "scala",
}

// defNodes is upstream DEF_NODES, verbatim: it includes types no grammar
// produces (python async_function_definition) and over-broad ones
// (javascript arrow_function, c struct_specifier), because parity needs them.
var defNodes = map[string][]string{
	"python":     {"function_definition", "class_definition", "async_function_definition"},
	"javascript": {"function_declaration", "class_declaration", "method_definition", "arrow_function"},
	"typescript": {"function_declaration", "class_declaration", "method_definition", "interface_declaration"},
	"tsx":        {"function_declaration", "class_declaration", "method_definition", "interface_declaration"},
	"java":       {"method_declaration", "class_declaration", "interface_declaration", "constructor_declaration"},
	"go":         {"function_declaration", "method_declaration", "type_declaration"},
	"rust":       {"function_item", "impl_item", "struct_item", "trait_item"},
	"c":          {"function_definition", "struct_specifier"},
	"cpp":        {"function_definition", "class_specifier", "struct_specifier"},
	"c_sharp":    {"method_declaration", "class_declaration", "interface_declaration"},
	"php":        {"function_definition", "method_declaration", "class_declaration"},
	"ruby":       {"method", "class", "module"},
	"swift":      {"function_declaration", "class_declaration", "protocol_declaration"},
	"kotlin":     {"function_declaration", "class_declaration"},
	"scala":      {"function_definition", "class_definition", "trait_definition"},
}

// identRank is upstream's rank_map over _IDENTIFIER_TYPES: lower wins, and
// the identifier types without an explicit rank share rank 100.
var identRank = map[string]int{
	"identifier":           0,
	"field_identifier":     1,
	"property_identifier":  2,
	"method_identifier":    3,
	"type_identifier":      100,
	"scoped_identifier":    100,
	"namespace_identifier": 100,
	"constant_identifier":  100,
}

// DefTypes returns the upstream DEF_NODES entry for lang (a value of
// Language), or nil for an unmapped language.
func DefTypes(lang string) []string {
	return append([]string(nil), defNodes[lang]...)
}

// Language maps a path to the upstream language name by its extension, as
// LANG_MAP.get(os.path.splitext(path.lower())[1]) does; "" when unmapped.
func Language(path string) string {
	return extMap[pyLower(pySplitExt(path))]
}

// pySplitExt returns the extension as posixpath.splitext computes it: the
// last dot after the last slash, unless the base name up to that dot is
// only dots (".py" and "..py" have no extension).
func pySplitExt(p string) string {
	sep := strings.LastIndexByte(p, '/')
	dot := strings.LastIndexByte(p, '.')
	if dot <= sep {
		return ""
	}
	for i := sep + 1; i < dot; i++ {
		if p[i] != '.' {
			return p[dot:]
		}
	}
	return ""
}

// pyLower lower-cases like Python's str.lower as far as the extension keys
// care. Go maps U+0130 to a plain 'i' where Python gives "i\u0307", which
// would wrongly turn ".SWİFT" into ".swift"; every other rune that lowers to
// ASCII (such as the Kelvin sign) agrees.
func pyLower(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\u0130' {
			return r
		}
		return unicode.ToLower(r)
	}, s)
}

// symClass flags, per grammar symbol.
const (
	clsDef     = 1 << iota // in DEF_NODES for the language
	clsComment             // type contains "comment": skipped with its subtree
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
	class []uint8       // by symbol id
	types []string      // by symbol id
	ranks []int16       // identifier rank by symbol id, -1 when not an identifier type
	query *sitter.Query // matches every named node of a DEF_NODES type
	qerr  error
	// dropPureVirtual is set for cpp. The pinned upstream grammar (tree-sitter-cpp of early 2024) parses
	// "virtual void f() = 0;" and "int x = 0;" in a class body as
	// field_declaration; go-tree-sitter's v0.22.3 makes both a
	// function_definition holding a pure_virtual_clause, which upstream
	// never sees, so those are dropped.
	dropPureVirtual bool
}

var (
	grammarsOnce sync.Once
	grammars     map[string]*grammar
)

func loadGrammars() {
	langs := map[string]func() *sitter.Language{
		"python":     python.GetLanguage,
		"javascript": javascript.GetLanguage,
		"typescript": typescript.GetLanguage,
		"tsx":        tsx.GetLanguage,
		"java":       java.GetLanguage,
		"go":         golang.GetLanguage,
		"rust":       rust.GetLanguage,
		"c":          c.GetLanguage,
		"cpp":        cpp.GetLanguage,
		"c_sharp":    csharp.GetLanguage,
		"php":        php.GetLanguage,
		"ruby":       ruby.GetLanguage,
		"swift":      swift.GetLanguage,
		"kotlin":     kotlin.GetLanguage,
		"scala":      scala.GetLanguage,
	}
	grammars = make(map[string]*grammar, len(langs))
	for name, get := range langs {
		g := &grammar{name: name, lang: get(), defs: map[string]bool{}}
		for _, t := range defNodes[name] {
			g.defs[t] = true
		}
		lang := g.lang
		g.pool.New = func() any {
			p := sitter.NewParser()
			p.SetLanguage(lang)
			return p
		}
		grammars[name] = g
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
func (g *grammar) classify() {
	n := int(g.lang.SymbolCount())
	g.class = make([]uint8, n)
	g.types = make([]string, n)
	g.ranks = make([]int16, n)
	for i := 0; i < n; i++ {
		t := g.lang.SymbolName(sitter.Symbol(i))
		g.types[i] = t
		g.class[i] = classOf(g, t)
		g.ranks[i] = rankOf(t)
	}
	g.query, g.qerr = g.defQuery()
	g.dropPureVirtual = g.name == "cpp"
}

// hasChild reports whether n has a direct child of type typ.
func (g *grammar) hasChild(cur *sitter.TreeCursor, n *sitter.Node, typ string) bool {
	cur.Reset(n)
	for ok := cur.GoToFirstChild(); ok; ok = cur.GoToNextSibling() {
		if t, _, _ := g.info(cur.CurrentNode()); t == typ {
			return true
		}
	}
	return false
}

// defQuery builds "[(t1) (t2) …] @def" over the table's types that the
// grammar has as named symbols; a query naming an unknown type (python's
// async_function_definition) would not compile.
func (g *grammar) defQuery() (*sitter.Query, error) {
	var alts []string
	for _, t := range defNodes[g.name] {
		for i, name := range g.types {
			if name == t && g.lang.SymbolType(sitter.Symbol(i)) == sitter.SymbolTypeRegular {
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

func classOf(g *grammar, t string) uint8 {
	var c uint8
	if g.defs[t] {
		c |= clsDef
	}
	if strings.Contains(t, "comment") {
		c |= clsComment
	}
	return c
}

func rankOf(t string) int16 {
	if r, ok := identRank[t]; ok {
		return int16(r)
	}
	return -1
}

// info returns the type, class and identifier rank of a node, falling back
// to strings for symbols outside the table (ERROR is 65535).
func (g *grammar) info(n *sitter.Node) (string, uint8, int16) {
	s := int(n.Symbol())
	if s < len(g.types) {
		return g.types[s], g.class[s], g.ranks[s]
	}
	t := n.Type()
	return t, classOf(g, t), rankOf(t)
}

// ErrTooLarge is returned for content tree-sitter cannot address (its byte
// offsets are 32-bit).
var ErrTooLarge = errors.New("symbols: file larger than 4 GiB")

// DefaultTimeout bounds the work for one file in Defs and NamedDefs (the
// parse budget, --parse-timeout). Some grammars loop for minutes or forever
// on rare malformed input (swift on testdata/hang/mutated_tsx.swift), where
// upstream would hang; real files parse at well under a second per
// megabyte, and the largest source files of real repositories in a few
// hundred milliseconds.
const DefaultTimeout = 2 * time.Second

// Defs returns the definition nodes of content, read as the file at path,
// in the order of upstream extract_defs: depth-first pre-order from the
// root, skipping (with their subtrees) anonymous nodes and nodes whose type
// contains "comment", and still descending into every definition. Each
// Def's Name follows upstream _best_name_for_def. An unmapped language gives
// nil, nil. Upstream turns a parse error into an empty list, so callers
// should treat an error the same way; after DefaultTimeout the error wraps
// context.DeadlineExceeded.
func Defs(path string, content []byte) ([]Def, error) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	return extract(ctx, path, content, false)
}

// DefsContext is Defs without the default timeout: it stops when ctx is done.
func DefsContext(ctx context.Context, path string, content []byte) ([]Def, error) {
	return extract(ctx, path, content, false)
}

// NamedDefs returns the definitions with a non-empty name, as upstream
// extract_named_defs (used to resolve symbol names). Upstream walks every
// node here, including inside the subtrees that extract_defs skips, so this
// is Defs filtered by Name plus any definition nested in an anonymous or
// comment node; no fixture produces one.
func NamedDefs(path string, content []byte) ([]Def, error) {
	ctx, cancel := context.WithTimeout(context.Background(), DefaultTimeout)
	defer cancel()
	return extract(ctx, path, content, true)
}

// NamedDefsContext is NamedDefs without the default timeout.
func NamedDefsContext(ctx context.Context, path string, content []byte) ([]Def, error) {
	return extract(ctx, path, content, true)
}

func extract(ctx context.Context, path string, content []byte, named bool) ([]Def, error) {
	g := grammarFor(Language(path))
	if g == nil {
		return nil, nil
	}
	if g.qerr != nil || g.query == nil {
		return nil, g.qerr
	}
	tree, err := g.parse(ctx, content)
	if err != nil {
		return nil, fmt.Errorf("symbols: parsing %s: %w", path, err)
	}
	defer tree.Close()

	root := tree.RootNode()
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	nameCur := sitter.NewTreeCursor(root)
	defer nameCur.Close()

	// The query engine visits every node in pre-order in C, which is about
	// three times cheaper than stepping a cursor from Go; a single-node
	// pattern completes on entry, so matches arrive in upstream's order.
	qc.Exec(g.query, root)
	var nodes []*sitter.Node
	var tracker *pathTracker
	if !named {
		tracker = newPathTracker(g, root)
		defer tracker.close()
	}
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		for _, c := range m.Captures {
			// extract_defs never enters the subtree of an anonymous or
			// comment node; extract_named_defs walks everything.
			if !named && tracker.hidden(c.Node) {
				continue
			}
			if g.dropPureVirtual && g.hasChild(nameCur, c.Node, "pure_virtual_clause") {
				continue
			}
			nodes = append(nodes, c.Node)
		}
	}

	// Name the defs innermost first, so a def whose name search covers its
	// whole subtree leaves a summary that enclosing searches reuse instead
	// of walking that subtree again (nested nameless arrows would otherwise
	// be quadratic).
	names := make([]string, len(nodes))
	memo := map[*sitter.Node]nameHit{}
	for i := len(nodes) - 1; i >= 0; i-- {
		name, err := g.bestName(ctx, nodes[i], content, nameCur, memo)
		if err != nil {
			return nil, fmt.Errorf("symbols: naming defs in %s: %w", path, err)
		}
		names[i] = name
	}
	out := make([]Def, 0, len(nodes))
	for i, n := range nodes {
		if named && names[i] == "" {
			continue
		}
		out = append(out, Def{Type: g.typeOf(n), Start: int(n.StartByte()), End: int(n.EndByte()), Name: names[i]})
	}
	if len(out) == 0 {
		return nil, nil
	}
	return out, nil
}

// parse runs a pooled parser over content, stopping when ctx is done.
//
// go-tree-sitter watches a cancellable context from a goroutine that may
// still raise the parser's cancel flag after the parse has finished, if the
// context ends just then; a pooled parser would then abort its next parse.
// So the parse gets a private context that is cancelled only through
// AfterFunc, and a parser whose private context may have been cancelled is
// never reused.
func (g *grammar) parse(ctx context.Context, content []byte) (*sitter.Tree, error) {
	if uint64(len(content)) > math.MaxUint32 {
		return nil, ErrTooLarge
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := g.pool.Get().(*sitter.Parser)
	pctx, pcancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, pcancel)
	tree, err := p.ParseCtx(pctx, nil, content)
	if !stop() {
		// pcancel ran: the flag may be raised at any time from now on.
		p.Close()
		if tree != nil {
			tree.Close()
		}
		return nil, ctx.Err()
	}
	if err != nil {
		// A stopped parse keeps its state for resuming: drop the parser.
		p.Close()
		return nil, err
	}
	g.pool.Put(p)
	return tree, nil
}

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
		if s := pystr.StripSpace(nodeText(src, nn)); s != "" {
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
			if s := pystr.StripSpace(nodeText(src, n)); s != "" {
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
	return pystr.Decode(src[s:e])
}
