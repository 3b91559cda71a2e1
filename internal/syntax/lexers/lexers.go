// Package lexers is chroma v2.27.0's lexers package with one change: the
// registry is built on first use, from configurations generated into Go
// (configs.go), instead of at package initialisation from XML.
//
// Upstream parses the <config> of all 279 embedded XML lexers when the
// package initialises: about 7 ms and 30,000 allocations in every process
// that links it, including `trajscope score` and `--version`, which never
// highlight anything. Here nothing happens at start, and the first look-up
// registers every lexer in about 0.6 ms. Everything else is upstream's
// code; README.md lists the changes and how to take a new chroma version.
package lexers

import (
	"embed"
	"encoding/xml"
	"fmt"
	"math"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
)

//go:generate go run gen.go

//go:embed embedded
var embedded embed.FS

// registered holds the lexers the Go files register while the package
// initialises, in order; loaded holds what must run once the registry
// exists (analysers attached to XML lexers). Both are only appended to
// during package initialisation, so they need no lock.
var (
	registered []chroma.Lexer
	loaded     []func(reg *chroma.LexerRegistry)
)

// registry is upstream's GlobalLexerRegistry, built on first use: the XML
// lexers first, then the Go ones in the order they registered, exactly
// as upstream's package initialisation does.
var registry = sync.OnceValue(func() *chroma.LexerRegistry {
	reg := chroma.NewLexerRegistry()
	registerXML(reg)
	for _, l := range registered {
		reg.Register(l)
	}
	for _, f := range loaded {
		f(reg)
	}
	return reg
})

// registerXML registers the embedded XML lexers, as upstream does at
// package initialisation, but from their configurations compiled into Go
// (configs.go): upstream parses each file's <config> first, 6 ms for all.
// A lexer's rules are read from its file when it first tokenises.
func registerXML(reg *chroma.LexerRegistry) {
	for _, x := range xmlConfigs {
		l := chroma.MustNewLexer(x.config, x.rules)
		if x.config.Analyse != nil {
			l.SetAnalyser(analyser(x.config))
		}
		reg.Register(l)
	}
}

// xmlConfig is one embedded XML lexer: its file and its <config>.
type xmlConfig struct {
	file   string
	config *chroma.Config
}

// rules reads the lexer's rules from its file, as upstream's XML lexers
// do when they first tokenise.
func (x xmlConfig) rules() chroma.Rules {
	var lexer struct {
		chroma.Config
		Rules chroma.Rules `xml:"rules"`
	}
	data, err := embedded.ReadFile(x.file)
	if err == nil {
		err = xml.Unmarshal(data, &lexer)
	}
	if err != nil {
		panic(fmt.Errorf("%s: %w", x.file, err))
	}
	return lexer.Rules
}

// analyser is upstream's analyser of an XML lexer (chroma's NewXMLLexer),
// its regular expressions compiled on first use instead of at start.
func analyser(config *chroma.Config) func(string) float32 {
	type regexAnalyse struct {
		re    *regexp2.Regexp
		score float32
	}
	compile := sync.OnceValue(func() []regexAnalyse {
		regexFlags := regexp2.None
		if config.CaseInsensitive {
			regexFlags = regexp2.IgnoreCase
		}
		regexAnalysers := make([]regexAnalyse, 0, len(config.Analyse.Regexes))
		for _, ra := range config.Analyse.Regexes {
			re := regexp2.MustCompile(ra.Pattern, regexFlags)
			regexAnalysers = append(regexAnalysers, regexAnalyse{re, ra.Score})
		}
		return regexAnalysers
	})
	return func(text string) float32 {
		var score float32

		for _, ra := range compile() {
			ok, err := ra.re.MatchString(text)
			if err != nil {
				return 0
			}

			if ok && config.Analyse.First {
				return float32(math.Min(float64(ra.score), 1.0))
			}

			if ok {
				score += ra.score
			}
		}

		return float32(math.Min(float64(score), 1.0))
	}
}

// Registry returns the registry of all lexers (upstream's
// GlobalLexerRegistry), building it on the first call.
func Registry() *chroma.LexerRegistry { return registry() }

// Names of all lexers, optionally including aliases.
func Names(withAliases bool) []string {
	return registry().Names(withAliases)
}

// Aliases of all the lexers, and skip those lexers who do not have any aliases,
// or show their name instead
func Aliases(skipWithoutAliases bool) []string {
	return registry().Aliases(skipWithoutAliases)
}

// Get a Lexer by name, alias or file extension.
//
// Note that this if there isn't an exact match on name or alias, this will
// call Match(), so it is not efficient.
func Get(name string) chroma.Lexer {
	return registry().Get(name)
}

// MatchMimeType attempts to find a lexer for the given MIME type.
func MatchMimeType(mimeType string) chroma.Lexer {
	return registry().MatchMimeType(mimeType)
}

// Match returns the first lexer matching filename.
//
// Note that this iterates over all file patterns in all lexers, so it's not
// particularly efficient.
func Match(filename string) chroma.Lexer {
	return registry().Match(filename)
}

// Register a Lexer with the registry. Only the package's own variables
// call it, while the package initialises; the lexer joins the registry
// when the registry is built.
func Register(lexer chroma.Lexer) chroma.Lexer {
	registered = append(registered, lexer)
	return lexer
}

// onLoad runs f on the registry once it is built (upstream ran these in
// init functions, against the already-built registry).
func onLoad(f func(reg *chroma.LexerRegistry)) {
	loaded = append(loaded, f)
}

// Analyse text content and return the "best" lexer..
func Analyse(text string) chroma.Lexer {
	return registry().Analyse(text)
}

// PlaintextRules is used for the fallback lexer as well as the explicit
// plaintext lexer.
func PlaintextRules() chroma.Rules {
	return chroma.Rules{
		"root": []chroma.Rule{
			{Pattern: `.+`, Type: chroma.Text},
			{Pattern: `\n`, Type: chroma.Text},
		},
	}
}

// Fallback lexer if no other is found.
var Fallback chroma.Lexer = chroma.MustNewLexer(&chroma.Config{
	Name:      "fallback",
	Filenames: []string{"*"},
	Priority:  -1,
}, PlaintextRules)
