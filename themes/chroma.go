package themes

import (
	"bytes"
	"embed"

	"github.com/alecthomas/chroma/v2"
)

// The syntax styles are read from copies of chroma's own style files
// (chroma/COPYING), when a theme is first built: chroma's styles package
// parses all of its seventy styles at start-up, which cost more than the
// rest of the explorer's first frame.
//
//go:embed chroma/*.xml
var chromaFS embed.FS

// SyntaxStyle is the named syntax style as the themes read it (from their
// copies of chroma's style files), or nil when it cannot be read: exports
// use it rather than chroma's styles package, whose registry of every style
// costs each process 11 ms to initialise (`trajscope --version` included).
func SyntaxStyle(name string) *chroma.Style { return chromaStyle(name) }

// chromaStyle returns the named syntax style, or nil when it cannot be read
// (the code is then shown without syntax colours).
func chromaStyle(name string) *chroma.Style {
	data, err := chromaFS.ReadFile("chroma/" + name + ".xml")
	if err != nil {
		return nil
	}
	st, err := chroma.NewXMLStyle(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	return st
}
