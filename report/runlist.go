package report

import (
	"bufio"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// ColumnsShown says which of ListColumns a list of rows shows: agent ·
// model when some row names one, an optional column when some row fills
// it, every other column always.
func ColumnsShown(rows []story.Row) []bool {
	shown := make([]bool, len(ListColumns))
	for i := range shown {
		shown[i] = true
	}
	shown[ColWho] = false
	for i := range rows {
		shown[ColWho] = shown[ColWho] || rows[i].Who() != ""
	}
	for k, recorded := range OptionalShown {
		i := len(ListColumns) - len(OptionalShown) + k
		shown[i] = false
		for r := range rows {
			shown[i] = shown[i] || recorded(&rows[r])
		}
	}
	return shown
}

// WriteRunList prints a run list as a table, for a stdout that is not a
// terminal (`view DIR | less`): one line per run under one lens, in the
// explorer's columns (ListColumns) with the same cells.
func WriteRunList(w io.Writer, rows []story.Row, lens model.Lens) error {
	b := bufio.NewWriter(w)
	labels := story.Labels(rows)
	ws := make([]int, len(ListColumns))
	for i, c := range ListColumns {
		ws[i] = c.Width
	}
	// The instance takes its longest label (an id may carry what tells
	// duplicates apart), within reason; agent · model and the spend
	// columns show when some run fills them.
	ws[ColInstance], ws[ColWho] = len("instance"), 0
	for i := range rows {
		ws[ColInstance] = max(ws[ColInstance], ansi.StringWidth(labels[i]))
		ws[ColWho] = max(ws[ColWho], ansi.StringWidth(termsafe.Line(rows[i].Who())))
	}
	ws[ColInstance] = min(ws[ColInstance], 80)
	if ws[ColWho] > 0 {
		ws[ColWho] = min(max(ws[ColWho], ansi.StringWidth("agent · model")), 60)
	}
	for i, shown := range ColumnsShown(rows) {
		if !shown {
			ws[i] = 0
		}
	}
	fmt.Fprintf(b, "%d runs (%s lens): final line coverage, line AUC, redundancy; gold spans found / read then dropped / near miss / searched / never opened\n",
		len(rows), lens)
	var line strings.Builder
	for i, c := range ListColumns {
		if ws[i] > 0 {
			line.WriteString(cellText(c.Title, ws[i], i != ColInstance && i != ColWho) + "  ")
		}
	}
	fmt.Fprintln(b, strings.TrimRight(line.String(), " "))
	for k := range rows {
		r := &rows[k]
		line.Reset()
		for i, c := range ListColumns {
			if ws[i] == 0 {
				continue
			}
			var cell string
			switch {
			case i == ColInstance:
				cell = display.Middle(labels[k], ws[i])
			case i == ColWho:
				cell = Who(r, ws[i])
			case c.Metric && i > ColActions && !r.Analysed:
				cell = ""
			default:
				cell = c.Cell(r, lens)
			}
			line.WriteString(cellText(cell, ws[i], i != ColInstance && i != ColWho) + "  ")
		}
		if note := noteOf(r, lens); note != "" {
			line.WriteString("(" + termsafe.Line(note) + ")")
		}
		fmt.Fprintln(b, strings.TrimRight(line.String(), " "))
	}
	for i := range rows {
		if rows[i].NoRepo != "" && rows[i].Lenses[lens].Error == "" {
			fmt.Fprintln(b, NoRepoLegend)
			break
		}
	}
	return b.Flush()
}

// cellText is s in w cells, cut to fit, right-aligned for figures.
func cellText(s string, w int, right bool) string {
	s = display.Truncate(s, w)
	pad := strings.Repeat(" ", max(w-ansi.StringWidth(s), 0))
	if right {
		return pad + s
	}
	return s + pad
}

// noteOf is what the table says beside a row: the scoring error under the
// lens (why the figures are missing), then its note.
func noteOf(r *story.Row, lens model.Lens) string {
	switch e := r.Lenses[lens].Error; {
	case e == "" || !r.Analysed:
		return r.Note
	case r.Note == "" || strings.Contains(r.Note, e) || e == scoring.ErrMissingGold:
		return cmp.Or(r.Note, e) // the note says why there is no gold
	default:
		return e + "; " + r.Note
	}
}

// WriteRunListJSON prints a run list as a JSON array (view DIR --json).
func WriteRunListJSON(w io.Writer, rows []story.Row) error {
	type rowJSON struct {
		story.Row
		Lenses map[string]story.Figures `json:"lenses,omitempty"`
	}
	if len(rows) == 0 {
		_, err := io.WriteString(w, "[]\n")
		return err
	}
	// Row by row, as json.MarshalIndent of the list writes it: a list of
	// 100,000 runs is never one document in memory.
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("[\n")
	for i := range rows {
		r := rowJSON{Row: rows[i]}
		if rows[i].Analysed {
			r.Lenses = map[string]story.Figures{}
			for _, l := range model.Lenses {
				r.Lenses[l.String()] = rows[i].Lenses[l]
			}
		}
		buf, err := json.MarshalIndent(r, "  ", "  ")
		if err != nil {
			return err
		}
		bw.WriteString("  ")
		bw.Write(termsafe.JSON(buf))
		if i < len(rows)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("]\n")
	return bw.Flush()
}
