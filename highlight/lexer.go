package highlight

// chroma's lexers.Match tries every filename glob of every lexer with
// filepath.Match, each also with a dozen backup suffixes: several
// milliseconds for one name, which the explorer's first frame would wait
// for. match gives the same answer from an index of the same globs, built
// once.

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// analyseBytes is how much of a file chroma's content analysers see when
// no file name matches.
const analyseBytes = 64 << 10

// lexerFor returns the lexer for the file at path with content head (its
// start is enough), or nil: the lexer whose file name patterns match, as
// lexers.Match picks it, else the one chroma's analysers rate highest.
func lexerFor(path, head string) chroma.Lexer {
	if l := match(path); l != nil {
		return l
	}
	return lexers.Analyse(head[:min(len(head), analyseBytes)])
}

// match is lexers.Match(path) without trying every glob: the same lexer,
// found from the index.
func match(path string) chroma.Lexer {
	name := filepath.Base(path)
	ix := index()
	for _, globs := range [][]glob{ix.primary, ix.alias} {
		var matched chroma.PrioritisedLexers
		for i := range globs {
			if globs[i].matches(name) {
				matched = append(matched, globs[i].lexer)
			}
		}
		if len(matched) > 0 {
			// The same candidates in the same order as lexers.Match, so
			// the same sort picks the same one among equal priorities.
			sort.Sort(matched)
			return matched[0]
		}
	}
	return nil
}

// backupSuffixes are the endings lexers.Match also accepts after a glob
// (chroma's ignoredSuffixes: editor and package-manager backups).
var backupSuffixes = []string{
	"~", ".bak", ".old", ".orig",
	".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new", ".ucf-old",
	".rpmnew", ".rpmorig", ".rpmsave",
	".in",
}

// glob is one filename pattern of one lexer, in the registry's order.
type glob struct {
	lexer   chroma.Lexer
	pattern string
	// kind says how the pattern is tested: a name ending in lit ("*.py"),
	// a name equal to lit ("Makefile"), or filepath.Match for the rest.
	kind int
	lit  string
}

const (
	suffix = iota
	exact
	general
)

// matches reports what lexers.Match tests: the pattern, else the pattern
// followed by one of the backup suffixes.
func (g *glob) matches(name string) bool {
	if g.test(name) {
		return true
	}
	for _, s := range backupSuffixes {
		if g.kind == general {
			if ok, _ := filepath.Match(g.pattern+s, name); ok {
				return true
			}
		} else if strings.HasSuffix(name, s) && g.test(name[:len(name)-len(s)]) {
			return true
		}
	}
	return false
}

func (g *glob) test(name string) bool {
	switch g.kind {
	case suffix:
		return strings.HasSuffix(name, g.lit)
	case exact:
		return name == g.lit
	}
	ok, _ := filepath.Match(g.pattern, name)
	return ok
}

type globIndex struct{ primary, alias []glob }

var index = sync.OnceValue(func() globIndex {
	var ix globIndex
	for _, l := range lexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, p := range c.Filenames {
			ix.primary = append(ix.primary, newGlob(l, p))
		}
		for _, p := range c.AliasFilenames {
			ix.alias = append(ix.alias, newGlob(l, p))
		}
	}
	return ix
})

func newGlob(l chroma.Lexer, p string) glob {
	const meta = `*?[\`
	switch {
	case !strings.ContainsAny(p, meta):
		return glob{lexer: l, pattern: p, kind: exact, lit: p}
	case strings.HasPrefix(p, "*") && !strings.ContainsAny(p[1:], meta) && !strings.Contains(p, "/"):
		return glob{lexer: l, pattern: p, kind: suffix, lit: p[1:]}
	}
	return glob{lexer: l, pattern: p, kind: general}
}

// Prewarm readies, in the background, the lexers of the given files: the
// name index and each lexer's rules, which chroma compiles on first use.
// The explorer calls it while it is still reading the run, so its first
// frame does not wait for them (BENCHMARKS.md, "Syntax highlighting").
func Prewarm(paths []string) {
	go func() {
		seen := map[chroma.Lexer]bool{}
		for _, p := range paths {
			if l := match(p); l != nil && !seen[l] {
				seen[l] = true
				// Tokenising compiles the rules (under the lexer's own lock).
				l.Tokenise(nil, "")
			}
		}
	}()
}
