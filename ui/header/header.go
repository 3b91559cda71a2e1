// Package header is the explorer's top line: the instance, then the step,
// the lens, who ran it, how it ended and what it cost, the format and the
// semantics, always in that order.
package header

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
)

// Model is the header.
type Model struct {
	ctx *pane.Context
	w   int
	// usage is the run's tokens and cost, worded once.
	usage string
	// stepW and lensW are the widest the step and lens values get over the
	// run under either lens, so that neither the fields kept nor their
	// places change as the user steps or switches lens.
	stepW, lensW, lensShortW int
}

// New returns a header for the context's run.
func New(ctx *pane.Context) *Model {
	m := &Model{ctx: ctx, usage: usage(ctx.Data.S.Outcome.Spend)}
	n := ctx.Data.N
	m.stepW = len(fmt.Sprintf("%d/%d", n, n))
	for _, l := range model.Lenses {
		steps := ctx.Data.S.Lenses[l].Steps
		m.lensW = max(m.lensW, len(lensLong(l, steps, steps)))
		m.lensShortW = max(m.lensShortW, len(lensShort(l, steps, steps)))
	}
	return m
}

// SetWidth sets the header's width (it is one row).
func (m *Model) SetWidth(w int) { m.w = w }

func lensLong(l model.Lens, done, all int) string {
	return fmt.Sprintf("%s (%d/%d steps)", l, done, all)
}

func lensShort(l model.Lens, done, all int) string {
	return fmt.Sprintf("%s %d/%d", l, done, all)
}

// usage words the run's recorded tokens (every token, the cache's
// included) and cost, "" when it records neither.
func usage(sp story.Spend) string {
	sp.Timed = false // the header has no room for the time
	return display.SpendWords(sp)
}

// field is one header field. Fields show in the order of the list; which
// of them fit is decided in the order of keep.
type field struct {
	label string
	// forms are the field's values, longest first, each padded to the
	// width it reserves; form is the one shown, -1 when left out.
	forms []string
	form  int
}

// Field indexes, in display order.
const (
	fID = iota
	fStep
	fLive
	fLens
	fWho
	fExit
	fUsage
	fFormat
	fSem
	fPlay
	fUnread
	fGold
	numFields
)

// keep is the order in which fields claim room after the instance, each in
// the longest form that fits while the instance keeps its share: the step,
// the lens, autoplay while it runs (a presenter must see it), how the run
// ended (down to one glyph) and who ran the run beside an instance cut to
// minID cells; what it cost beside one of midID; what the screen shows
// elsewhere only beside the whole instance. Every form reserves the widest
// value it takes over the run, so which fields show depends on the width
// alone, never on the step or the lens.
var keep = []struct{ f, idW int }{
	{fStep, minID}, {fLive, minID}, {fLens, minID}, {fPlay, minID}, {fExit, minID}, {fWho, minID},
	{fUnread, midID}, {fGold, midID}, {fUsage, midID},
	{fFormat, 1 << 20}, {fSem, 1 << 20},
}

// The instance's shares of the line (see keep).
const minID, midID = 24, 48

func (m *Model) fields() []field {
	ctx, d := m.ctx, m.ctx.Data
	run := d.Run
	ld := ctx.L()
	steps := d.S.Lenses[ctx.Lens].Steps
	pad := func(s string, w int) string { return s + strings.Repeat(" ", max(w-len(s), 0)) }
	step := fmt.Sprintf("%d/%d", ctx.Cur+1, d.N)
	done := ld.DoneAt(ctx.Cur)
	who := termsafe.Line(model.Who(run.Agent, run.Model))
	fs := make([]field, numFields)
	one := func(i int, label, v string) {
		if v != "" {
			fs[i] = field{label: label, forms: []string{v}}
		} else {
			fs[i] = field{form: -1}
		}
	}
	one(fID, "", termsafe.Line(run.InstanceID))
	if run.InstanceID == "" {
		one(fID, "", "(no instance id)")
	}
	fs[fStep] = field{label: "step", forms: []string{pad(step, m.stepW), pad(step, m.stepW)}}
	fs[fLens] = field{label: "lens", forms: []string{
		pad(lensLong(ctx.Lens, done, steps), m.lensW),
		pad(lensShort(ctx.Lens, done, steps), m.lensShortW),
	}}
	one(fWho, "", who)
	if run.Agent != "" && run.Model != "" {
		fs[fWho].forms = append(fs[fWho].forms, termsafe.Line(model.Who("", run.Model)))
	}
	fs[fExit] = field{form: -1}
	if o := &d.S.Outcome; o.ExitStatus != "" || o.Rejected > 0 {
		mark := termsafe.Line(display.OutcomeMark(o))
		glyph, _, _ := strings.Cut(mark, " ")
		fs[fExit] = field{forms: []string{"exit " + termsafe.Line(display.OutcomeWords(o)), mark, glyph}}
	}
	one(fUsage, "", m.usage)
	one(fFormat, "format", termsafe.Line(run.Format))
	one(fSem, "semantics", d.A.Sem.String())
	// What the reader did not understand, in a few words: the header is
	// where a reading that may be short is seen first.
	fs[fUnread] = field{form: -1}
	if n := len(run.Unread); n > 0 {
		total := 0
		for _, c := range run.Unread {
			total += c
		}
		fs[fUnread] = field{label: "unread", forms: []string{termsafe.Line(story.UnreadList(run, 2)), fmt.Sprintf("%d", total)}}
	}
	// Where the gold came from, when not from a gold file.
	fs[fGold] = field{form: -1}
	if from := d.S.Target.From; from != model.GoldFromFile {
		fs[fGold] = field{label: "gold from", forms: []string{from.String()}}
	}
	fs[fLive] = field{form: -1}
	switch ctx.Live {
	case "live":
		fs[fLive] = field{forms: []string{"● live"}}
	case "ended":
		fs[fLive] = field{forms: []string{"■ ended"}}
	}
	fs[fPlay] = field{form: -1}
	if ctx.Playing {
		one(fPlay, "▶", ctx.Speed)
	}
	return fs
}

// width is the line's width in cells with the instance id w cells wide.
func width(fs []field, idW int) int {
	n, total := 0, 1 // the leading space
	for i, f := range fs {
		if f.form < 0 {
			continue
		}
		w := ansi.StringWidth(f.forms[f.form])
		if i == fID {
			w = idW
		}
		if f.label != "" {
			w += ansi.StringWidth(f.label) + 1
		}
		total += w
		n++
	}
	return total + 3*max(n-1, 0) // " │ " between fields
}

// View renders the header on one line.
func (m *Model) View() string {
	if m.w <= 0 {
		return ""
	}
	t := m.ctx.Theme
	fs := m.fields()
	id := fs[fID].forms[0]
	idW := ansi.StringWidth(id)
	all := make([]int, numFields)
	for i := range fs {
		all[i], fs[i].form = fs[i].form, -1
	}
	fs[fID].form = 0
	for _, k := range keep {
		if all[k.f] < 0 {
			continue
		}
		for form := range fs[k.f].forms {
			if fs[k.f].form = form; width(fs, min(idW, k.idW)) <= m.w {
				break
			}
			fs[k.f].form = -1
		}
	}
	// The instance takes the room the others leave, cut in the middle so
	// that its distinctive end stays.
	room := m.w - width(fs, 0)
	fs[fID].forms[0] = display.Middle(id, max(room, 1))
	parts := []string{}
	for _, f := range fs {
		if f.form < 0 {
			continue
		}
		v := f.forms[f.form]
		switch {
		case f.label != "":
			parts = append(parts, t.HeaderKey.Render(f.label)+" "+t.HeaderValue.Render(v))
		default:
			parts = append(parts, t.HeaderValue.Render(v))
		}
	}
	return fit.Line(" "+strings.Join(parts, t.HeaderSep.Render(" │ ")), m.w)
}
