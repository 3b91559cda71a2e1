// Package export turns an analysed run into files that leave the terminal:
// a self-contained HTML page to step through in a browser (package html),
// an asciinema recording of the explorer's autoplay (package cast) and an
// SVG still of one step (package svg). The kind follows the output file's
// extension. Exports read scoring.Analysis and what the explorer computes
// from it; none counts a metric again.
package export

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/trajscope/trajscope/export/cast"
	"github.com/trajscope/trajscope/export/html"
	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/export/svg"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// Kinds are the export kinds, by file extension.
var Kinds = []string{".html", ".cast", ".svg"}

// Options configure an export; each kind uses the fields that apply to it.
type Options struct {
	// Width and Height are the terminal size of .cast and .svg, in cells.
	Width, Height int
	// Theme is auto, dark, light or contrast. An HTML page in auto follows
	// the browser's light or dark preference.
	Theme string
	Lens  model.Lens
	// Step is the 1-based action to start at (.cast), show (.svg) or open
	// at (.html); 0 is the first.
	Step int
	// Speed is the autoplay interval of a .cast (0: the explorer's).
	Speed time.Duration
	// Note, when set, hears what the user should know about the file
	// (a long run's recording samples its steps).
	Note func(string)
}

// Kind returns the export kind of an output path: its extension, when it is
// one of Kinds.
func Kind(path string) (string, error) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, k := range Kinds {
		if ext == k {
			return k, nil
		}
	}
	return "", fmt.Errorf("-o %s: the extension picks the kind: %s", path, strings.Join(Kinds, ", "))
}

// Write writes an analysed run as the kind (one of Kinds) to w.
func Write(w io.Writer, kind string, a *story.Story, o Options) error {
	so := screen.Options{Width: o.Width, Height: o.Height, Theme: o.Theme, Lens: o.Lens, Step: o.Step, Speed: o.Speed}
	switch kind {
	case ".html":
		return html.Write(w, a, html.Options{Theme: o.Theme, Lens: o.Lens, Step: o.Step})
	case ".cast":
		return cast.Write(w, a, cast.Options{Options: so, Note: o.Note})
	case ".svg":
		return svg.Write(w, a, so)
	}
	return fmt.Errorf("unknown export kind %q", kind)
}
