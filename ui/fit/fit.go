// Package fit sizes styled text to exact terminal cells: every pane renders
// lines of exactly its width and blocks of exactly its height, so the root
// model can join them without measuring them again.
package fit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Line truncates or pads a styled line to exactly w cells.
func Line(s string, w int) string {
	if w <= 0 {
		return ""
	}
	n := ansi.StringWidth(s)
	if n > w {
		s = ansi.Truncate(s, w, "…")
		n = ansi.StringWidth(s)
	}
	if n < w {
		s += strings.Repeat(" ", w-n)
	}
	return s
}

// Block fits lines into a w×h block, one string per row.
func Block(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = Line(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}
