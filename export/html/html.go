// Package html writes a run as one self-contained HTML page to step through
// in a browser: the header, the timeline, the source of every file the run
// touched or the gold names (syntax-highlighted, with the explorer's
// gutter marks), the observation, the gold with its diagnosis and the
// cumulative-coverage curves. The page loads nothing: its style and script
// are inline and allowed by hash in its Content-Security-Policy, which
// forbids everything else.
//
// Run text is untrusted. It reaches the page three ways, each escaped for
// its context: html/template escapes the few strings in the markup; the data
// the script reads is JSON with HTML escaping (no "<", so nothing can close
// its element); and the script puts strings into the page only as text
// nodes, never as markup.
package html

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// Options configure a page.
type Options struct {
	// Theme is auto (follow the browser's light or dark preference), dark,
	// light or contrast.
	Theme string
	Lens  model.Lens
	// Step is the 1-based action the page opens at (0: the first).
	Step int
	// Up, when set, is the page of the runs this one is among (a site's
	// index, relative), linked from the header.
	Up string
}

var (
	//go:embed page.tmpl
	pageTmpl string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// pageTemplate is parsed on first use: package initialisation runs in
// every process, and only exports need it.
var pageTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(pageTmpl))
})

// view is what the template fills in.
type view struct {
	CSP, Title string
	CSS        template.CSS
	JS, Data   template.JS
	Theme      string
	Data0      *pageData
	Sources    []source
	Legend     []legend
	Charts     []chart
	Categories []legend
	// The header's fixed fields; Target says where the gold came from
	// when not from a gold file (display.TargetWords).
	Who, Format, Sem, Target string
	// Up links the page of the runs (Options.Up), "" for none.
	Up string
	// The task and the submitted patch, each patch line with its gold mark.
	Task, TaskFrom, PatchSummary, GoldGlyph string
	// SpendBars chart what each step took (SpendWhat: tokens or time).
	SpendBars []bar
	SpendWhat string
	Patch     []patchLine
	// The charts' frame.
	ViewBox             string
	Base, Width, Height float64
}

type source struct {
	ID   int
	HTML template.HTML
}

type legend struct{ Class, Glyph, Text string }

// patchLine is one line of the patch: its text, its class (add, del, hunk,
// head or ctx) and whether it is a gold line.
type patchLine struct {
	Text, Class string
	Gold        bool
}

// taskAndPatch fills the page's task and patch section.
func (v *view) taskAndPatch(a *scoring.Analysis) {
	text, from := a.Task()
	v.Task, v.TaskFrom, v.GoldGlyph = termsafe.Text(text), from, display.GlyphGoldFound
	p := a.Run.Patch()
	if p == "" {
		return
	}
	lines, removed, gold := a.PatchLines(p)
	v.PatchSummary = fmt.Sprintf("%d removed, %d of them gold", removed, gold)
	for i, l := range lines {
		if i == maxPatchLines {
			v.Patch = append(v.Patch, patchLine{Text: fmt.Sprintf("… %d more lines not shown", len(lines)-i), Class: "hunk"})
			break
		}
		c := "ctx"
		switch {
		case strings.HasPrefix(l.Text, "+++"), strings.HasPrefix(l.Text, "---"), strings.HasPrefix(l.Text, "diff "), strings.HasPrefix(l.Text, "index "):
			c = "head"
		case strings.HasPrefix(l.Text, "@@"):
			c = "hunk"
		case strings.HasPrefix(l.Text, "+"):
			c = "add"
		case strings.HasPrefix(l.Text, "-"):
			c = "del"
		}
		v.Patch = append(v.Patch, patchLine{Text: termsafe.Line(l.Text), Class: c, Gold: l.Gold})
	}
}

// maxPatchLines bounds the patch a page carries.
const maxPatchLines = 20000

// Write writes the page of an analysed run (at least one action).
func Write(w io.Writer, st *story.Story, o Options) error {
	a := st.A
	if len(a.Run.Actions) == 0 {
		return fmt.Errorf("the run has no actions to show")
	}
	th, err := themes.Get(o.Theme, true, false)
	if err != nil {
		return err
	}
	d := viewdata.New(st)
	data := buildData(d, o)
	v := &view{Title: "trajscope · " + termsafe.Line(d.Run.InstanceID), Data0: data, Theme: pageTheme(o.Theme, th),
		Who: termsafe.Line(model.Who(d.Run.Agent, d.Run.Model)), Format: termsafe.Line(d.Run.Format), Sem: a.Sem.String(),
		ViewBox: fmt.Sprintf("-2 0 %g %g", chartW+4, chartH), Base: chartY(0), Width: chartW, Height: chartH,
		Target: display.TargetWords(&st.Target, o.Lens), Up: o.Up}
	for k := range data.Files {
		fd := &data.Files[k]
		if !fd.OK {
			continue
		}
		content, _ := a.Source(fd.raw)
		if len(content) > maxEmbed {
			fd.Large = len(content)
			continue
		}
		// source escaped every piece of text; the rest is its fixed markup.
		v.Sources = append(v.Sources, source{ID: k, HTML: template.HTML(sourceHTML(fd.raw, content))})
	}
	css := stylesheet()
	js, err := dataJSON(data)
	if err != nil {
		return err
	}
	v.CSS, v.JS, v.Data = template.CSS(css), template.JS(pageJS), template.JS(js)
	v.CSP = Policy(css, pageJS)
	v.Legend = []legend{{"r-now", display.GlyphReadNow, "read now"}, {"r-bef", display.GlyphReadBefore, "read before"},
		{"g-found", display.GlyphGoldFound, "gold read"}, {"g-pend", display.GlyphGoldPending, "gold later"},
		{"g-miss", display.GlyphGoldMissed, "gold never"}, {"fin", glyphFinal, "final context"}}
	for _, c := range display.CategoryOrder {
		v.Categories = append(v.Categories, legend{"cat-" + c, display.CategoryGlyph(c), c})
	}
	v.Charts = charts(data)
	v.taskAndPatch(a)
	v.SpendBars, v.SpendWhat = spendBars(a.Run)
	// Written as it is made: the page is several times the run's size, and
	// a half-written page is the caller's to discard (export writes it to
	// a temporary file).
	b := bufio.NewWriterSize(w, 64<<10)
	if err := pageTemplate().Execute(b, v); err != nil {
		return err
	}
	return b.Flush()
}

// glyphFinal marks lines of the final context, as in the explorer's gutter.
const glyphFinal = "▪"

// pageTheme is the page's colour scheme: a fixed one, or "auto" to follow
// the browser.
func pageTheme(name string, th *themes.Theme) string {
	switch strings.ToLower(name) {
	case "", "auto":
		return "auto"
	case "contrast", "high-contrast":
		return "contrast"
	}
	if th.Dark {
		return "dark"
	}
	return "light"
}

// stylesheet is the page's one style element: its own rules, then the
// syntax classes' colours of each of its themes (dark by default, light
// when chosen or, in auto, when the browser prefers it, and high
// contrast), taken from the explorer's themes.
func stylesheet() string {
	get := func(name string, dark bool) *themes.Theme {
		th, _ := themes.Get(name, dark, false)
		return th
	}
	light := syntaxVars(get("light", false))
	var b strings.Builder
	b.WriteString(pageCSS)
	fmt.Fprintf(&b, ":root {%s }\nhtml.theme-light {%s }\n", syntaxVars(get("dark", true)), light)
	fmt.Fprintf(&b, "@media (prefers-color-scheme: light) {\n  html.theme-auto {%s }\n}\n", light)
	fmt.Fprintf(&b, "html.theme-contrast {%s }\n", syntaxVars(get("contrast", true)))
	b.WriteString(syntaxCSS())
	return b.String()
}

// dataJSON encodes the page's data with HTML escaping ("<", ">", "&" and the
// JavaScript line terminators as \u escapes), so no run text can close the
// script element that holds it or open a comment there.
func dataJSON(p *pageData) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(true)
	if err := enc.Encode(p); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(b.String(), "\n")
	if strings.ContainsAny(s, "<>") {
		// encoding/json guarantees this; a change there must not go
		// unnoticed.
		return "", fmt.Errorf("page data: unescaped markup")
	}
	return s, nil
}

// Policy is a page's Content-Security-Policy: nothing may load or run but
// its own style and script, named by their hashes.
func Policy(css, js string) string {
	return fmt.Sprintf("default-src 'none'; style-src %s; script-src %s; img-src 'none'; font-src 'none'; connect-src 'none'; "+
		"media-src 'none'; object-src 'none'; frame-src 'none'; worker-src 'none'; manifest-src 'none'; base-uri 'none'; form-action 'none'",
		hash(css), hash(js))
}

func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}
