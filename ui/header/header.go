// Package header is the explorer's top line: instance, agent and model,
// format, step k/N, lens and semantics.
package header

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/ui/fit"
	"github.com/trajscope/trajscope/ui/pane"
)

// Model is the header.
type Model struct {
	ctx *pane.Context
	w   int
}

// New returns a header.
func New(ctx *pane.Context) *Model { return &Model{ctx: ctx} }

// SetWidth sets the header's width (it is one row).
func (m *Model) SetWidth(w int) { m.w = w }

type item struct {
	label, value string
	// prio: items with a lower value are dropped first when space runs out.
	prio int
}

// items returns the header's fields, most important first.
func (m *Model) items() []item {
	ctx, d := m.ctx, m.ctx.Data
	run := d.Run
	ld := ctx.L()
	step := fmt.Sprintf("%d/%d", ctx.Cur+1, d.N)
	lensSteps := fmt.Sprintf("%s (%d/%d steps)", ctx.Lens, ld.StepsDone[ctx.Cur], ld.NumSteps)
	who := run.Agent
	if run.Model != "" {
		if who != "" {
			who += " · "
		}
		// "hosted_vllm/Qwen/Qwen3-Coder" → "Qwen3-Coder": the provider
		// path says little and costs a third of a narrow header.
		who += path.Base(run.Model)
	}
	items := []item{
		{"", run.InstanceID, 5},
		{"step", step, 9},
		{"lens", lensSteps, 8},
		{"", who, 4},
		{"format", run.Format, 2},
		{"semantics", d.A.Sem.String(), 3},
	}
	if ctx.Playing {
		items = append(items, item{"▶", ctx.Speed, 7})
	}
	return items
}

// View renders the header on one line, dropping the least important fields
// until it fits.
func (m *Model) View() string {
	if m.w <= 0 {
		return ""
	}
	t := m.ctx.Theme
	items := m.items()
	// The app's name goes first when space runs out.
	items = append([]item{{"", "trajscope", 1}}, items...)
	render := func(items []item, plain bool) string {
		parts := []string{}
		for _, it := range items {
			if it.value == "" {
				continue
			}
			if it.value == "trajscope" && it.prio == 1 {
				if plain {
					parts = append(parts, it.value)
				} else {
					parts = append(parts, t.AppName.Render(it.value))
				}
				continue
			}
			v := termsafe.Line(it.value)
			switch {
			case plain && it.label != "":
				parts = append(parts, it.label+" "+v)
			case plain:
				parts = append(parts, v)
			case it.label != "":
				parts = append(parts, t.HeaderKey.Render(it.label)+" "+t.HeaderValue.Render(v))
			default:
				parts = append(parts, t.HeaderValue.Render(v))
			}
		}
		sep := " │ "
		if !plain {
			sep = t.HeaderSep.Render(sep)
		}
		return " " + strings.Join(parts, sep)
	}
	// Keep the most important fields that fit, in their display order.
	keep := make([]bool, len(items))
	order := make([]int, len(items))
	for k := range order {
		order[k] = k
	}
	sort.SliceStable(order, func(a, b int) bool { return items[order[a]].prio > items[order[b]].prio })
	kept := func() []item {
		var out []item
		for k, it := range items {
			if keep[k] {
				out = append(out, it)
			}
		}
		return out
	}
	for n, k := range order {
		keep[k] = true
		if n > 0 && ansi.StringWidth(render(kept(), true)) > m.w {
			keep[k] = false
		}
	}
	items = kept()
	return fit.Line(render(items, false), m.w)
}
