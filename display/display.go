// Package display is the text a run is shown with, in the explorer and in
// the plain summary alike: each action's one-line command and category, the
// glyphs that mark categories, reads and gold, and truncation to a display
// width. What it returns from a run is safe to print (package termsafe).
package display

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Glyphs. Each marker has its own glyph so that it stays legible without
// colour (NO_COLOR); colour only reinforces it.
const (
	GlyphReadNow     = "┃" // lines the current action read
	GlyphReadBefore  = "│" // lines read by an earlier action
	GlyphGoldFound   = "●" // gold, read by now
	GlyphGoldPending = "○" // gold, read later in the run
	GlyphGoldMissed  = "✗" // gold the run never reads
	GlyphReread      = "↺" // the action only re-read known lines
	GlyphReadFailed  = "┆" // lines a failed command is counted for, not displayed
	GlyphFinal       = "▪" // lines in the final context
	GlyphGoldFile    = "◆" // a gold file in the picker
	GlyphCursor      = "▸" // the focused pane / the picker cursor
)

// CategoryOrder is the order categories are listed and filtered in.
var CategoryOrder = []string{"read", "search", "edit", "run", "submit", "other"}

// Category is an action's category, "other" when the parser left it empty.
func Category(act *model.Action) model.Category {
	if act.Category == 0 {
		return model.CategoryOther
	}
	return act.Category
}

// GlyphAside marks an action that read a file that is not the
// repository's (one the run wrote, or one outside it): no lens counts it.
const GlyphAside = "◌"

// PendingWord marks a call whose result the record does not hold: still
// running while the session is followed live, else never recorded.
func PendingWord(live bool) string {
	if live {
		return "running…"
	}
	return "no result"
}

// GlyphRejected marks a submit the run's harness did not accept.
const GlyphRejected = "⊘"

// ActionGlyph is an action's timeline glyph: its category's, or
// GlyphRejected for a submit that was not accepted (model.MarkRejectedSubmits).
func ActionGlyph(act *model.Action) string {
	if act.Category == model.CategorySubmit && act.Failed() {
		return GlyphRejected
	}
	return CategoryGlyph(Category(act).String())
}

// CategoryGlyph is the timeline glyph of an action category.
func CategoryGlyph(c string) string {
	switch c {
	case "read":
		return "≡"
	case "search":
		return "⌕"
	case "edit":
		return "✎"
	case "run":
		return "$"
	case "submit":
		return "✓"
	}
	return "·"
}

// Short is action i's command on one safe line. A read shows what it
// displayed ("discounts.py:41-75"): read commands differ mostly in the file
// and lines, which a long pipeline pushes out of a narrow timeline; the full
// command is in the observation.
func Short(a *scoring.Analysis, i int) string {
	act := &a.Run.Actions[i]
	if act.Category == model.CategoryRead && len(a.Actions[i].Reads) > 0 {
		return compactRead(a.Actions[i].Reads)
	}
	return ShortCommand(act)
}

// ShortCommand is an action's command on one safe line, with the sandbox
// prefixes that only add noise removed.
func ShortCommand(act *model.Action) string {
	s := act.Command
	if s == "" {
		s = act.Tool
	}
	s = strings.TrimSpace(s)
	more := false
	if k := strings.IndexByte(s, '\n'); k >= 0 {
		s, more = s[:k], true
	}
	if len(s) > 4096 {
		// A timeline row shows a few dozen cells: the rest of a huge
		// command line is not worth a copy.
		cut := 4096
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s, more = s[:cut], true
	}
	for _, p := range []string{"cd /testbed && ", "cd /testbed; "} {
		s = strings.TrimPrefix(s, p)
	}
	s = strings.ReplaceAll(s, "/testbed/", "")
	s = strings.Join(strings.Fields(s), " ")
	if more {
		s += " …"
	}
	return termsafe.Line(s)
}

func compactRead(reads []model.FileSpans) string {
	var parts []string
	for _, fl := range reads {
		var rs []string
		// Adjacent lines read as one range (Agentless names lines one by
		// one: 199-199,200-200 is 199-200).
		for _, iv := range model.MergeIntervals(slices.Clone(fl.Spans)) {
			rs = append(rs, fmt.Sprintf("%d-%d", iv.Start, iv.End))
		}
		parts = append(parts, termsafe.Line(path.Base(fl.File))+":"+strings.Join(rs, ","))
	}
	return strings.Join(parts, " ")
}

// Truncate shortens a string to w cells with an ellipsis.
func Truncate(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// rangesRe matches a read label's line ranges ("file.py:160-210,300-310").
var rangesRe = lazyre.New(`^([^\s:]+):(\d+(?:-\d+)?(?:,\d+(?:-\d+)?)*)$`)

// FitLabel fits an action's label to w cells. A read label ("name:ranges")
// gives up its name's middle before its line ranges: "weig…py:160-210", not
// "weighted.py:160-2…". Any other label is cut at its end.
func FitLabel(s string, w int) string {
	if ansi.StringWidth(s) <= w {
		return s
	}
	if m := rangesRe().FindStringSubmatch(s); m != nil {
		if rest := w - len(m[2]) - 1; rest >= 4 {
			return Middle(m[1], rest) + ":" + m[2]
		}
	}
	return Truncate(s, w)
}

// Ratio formats a/b as a two-decimal value, "-" when b is zero.
func Ratio(a, b int) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// Middle shortens a string to w cells by cutting its middle, so that two
// paths that differ only in their last part stay different on screen: a
// path keeps its file name whole when that fits, and the cells left are
// shared between its start and the directories just above the name. Text
// that is not a path (or whose name alone is too long) keeps both ends,
// the end a little more.
func Middle(s string, w int) string {
	n := ansi.StringWidth(s)
	switch {
	case n <= w:
		return s
	case w <= 0:
		return ""
	case w == 1:
		return "…"
	}
	budget := w - 1 // the ellipsis
	tail := 0
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		if name := ansi.StringWidth(s[i:]); name <= budget {
			tail = name // "/name"
		}
	}
	rest := budget - tail
	head := (rest + 1) / 2
	if tail == 0 {
		head = rest / 2
	}
	tail += rest - head
	return ansi.Truncate(s, head, "") + "…" + ansi.TruncateLeft(s, n-tail, "")
}
