package code

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// The file picker (f): the gold files, then every other file a step read,
// each with when it was first read.

// OpenPicker shows the list of gold and read files.
func (m *Model) OpenPicker() {
	m.picking = true
	m.pick = 0
	for k, f := range m.Ctx.Data.Order {
		if f == m.file && !m.follow {
			m.pick = k + 1
		}
	}
}

func (m *Model) pickerView() string {
	ctx, t, d := m.Ctx, m.Ctx.Theme, m.Ctx.Data
	lines := []string{pane.Title(ctx, "Pick a file", "enter shows · esc closes", true, m.W)}
	body := m.body()
	items := make([]string, 0, len(d.Order)+1)
	items = append(items, "↻ follow the current step")
	for _, f := range d.Order {
		fd := d.File(f)
		mark := "  "
		if fd != nil && fd.GoldLines > 0 || isGoldFile(d, f) {
			mark = display.GlyphGoldFile + " "
		}
		info := ""
		if fd != nil {
			if first := fd.FirstAny(ctx.Lens); first != viewdata.Never {
				info = fmt.Sprintf("  read @%d", first+1)
			} else {
				info = "  never read"
			}
			if !fd.OK {
				info += "  (not in repository)"
			}
		}
		// The name is cut in the middle, so files of one directory stay
		// apart; on a pane too narrow for both, the name wins over the note.
		room := m.W - 4 - ansi.StringWidth(info)
		if name := termsafe.Line(f); room < min(ansi.StringWidth(name), 16) {
			info, room = "", m.W-4
		}
		items = append(items, mark+display.Middle(termsafe.Line(f), room)+info)
	}
	off := max(0, min(m.pick-body/2, len(items)-body))
	for k := off; k < len(items) && len(lines) < m.H; k++ {
		if k == m.pick {
			lines = append(lines, t.Selected.Render(fit.Line(display.GlyphCursor+" "+items[k], m.W)))
		} else {
			lines = append(lines, "  "+items[k])
		}
	}
	return strings.Join(fit.Block(lines, m.W, m.H), "\n")
}

func isGoldFile(d *viewdata.Data, f string) bool {
	for _, g := range d.A.Gold.Files {
		if g == f {
			return true
		}
	}
	return false
}
