package html

import (
	"github.com/chromedp/chromedp"
	"github.com/trajscope/trajscope/testkit/demotask"

	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/export/internal/browsertest"
	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// browser is a page open in headless Chromium (browsertest).
type browser = browsertest.Browser

func open(t *testing.T, a *scoring.Analysis, o Options) *browser {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.html")
	if err := os.WriteFile(path, render(t, a, o), 0o644); err != nil {
		t.Fatal(err)
	}
	return openFile(t, path)
}

// pageReady is true once the page has rendered its run.
const pageReady = "document.querySelector('#tl .row.cur') !== null"

// openFile opens a page file in a new headless Chromium.
func openFile(t *testing.T, path string) *browser {
	t.Helper()
	return browsertest.Open(t, path, "", pageReady)
}

func eval[T any](b *browser, js string) T {
	b.T.Helper()
	return browsertest.Eval[T](b, js)
}

// The demo page in a browser: it shows the run, its keys step through it
// as the explorer's do, and clicking a gold span goes to the step that came
// closest.
func TestBrowserDemo(t *testing.T) {
	a := exporttest.Demo(t)
	d := viewdata.New(story.Tell(a))
	lens := model.LensContextBench
	b := open(t, a, Options{Theme: "dark", Step: 3})
	defer b.Quiet()

	if n := eval[int](b, "document.querySelectorAll('#tl .row').length"); n != d.N {
		t.Fatalf("%d timeline rows, want %d", n, d.N)
	}
	cmds := eval[[]string](b, "[...document.querySelectorAll('#tl .row .cmd')].map(e => e.textContent)")
	for i := range a.Run.Actions {
		if want := display.Short(a, i); cmds[i] != want {
			t.Errorf("row %d: %q, want %q", i+1, cmds[i], want)
		}
	}
	files := eval[[]string](b, "[...document.querySelectorAll('#goldlist .gfile')].map(e => e.textContent)")
	if len(files) == 0 || !strings.Contains(strings.Join(files, "\n"), "◆ pricebook/discounts.py") {
		t.Errorf("gold files %q", files)
	}
	if got := b.Text("#h-step"); got != fmt.Sprintf("3/%d", d.N) {
		t.Errorf("opened at %q, want step 3", got)
	}

	// l: the next step, whose new gold moves the coverage curves.
	before := eval[string](b, "document.querySelector('#chart-line .past').getAttribute('points')")
	b.Press("l")
	if got := b.Text("#h-step"); got != fmt.Sprintf("4/%d", d.N) {
		t.Fatalf("after l: %q, want step 4", got)
	}
	after := eval[string](b, "document.querySelector('#chart-line .past').getAttribute('points')")
	if after == before {
		t.Error("the line coverage curve did not change")
	}
	for _, g := range model.Granularities {
		want := fmt.Sprintf("%.2f", a.Lenses[lens].CurveAt(g, 3))
		if got := b.Text("#cov-" + g.String()); got != want {
			t.Errorf("%s coverage at step 4: %q, want %q", g, got, want)
		}
	}
	if got, want := b.Text("#obs-cmd"), "$ "+a.Run.Actions[3].Command; got != want {
		t.Errorf("observation command %q, want %q", got, want)
	}

	// The gutter at step 4: the marks the explorer computes for the file
	// the step read.
	focus := d.Focus[lens][3]
	fd := d.File(focus.File)
	if want := focus.File + ":"; !strings.HasPrefix(b.Text("#src-file"), want) {
		t.Fatalf("source shows %q, want %s", b.Text("#src-file"), want)
	}
	var now, found, pending, missed, final int
	for l := 1; l <= fd.Lines; l++ {
		first := fd.FirstRead(lens, l)
		for _, fl := range a.Lenses[lens].Actions[3].Lines {
			for _, iv := range fl.Spans {
				if fl.File == focus.File && iv.Start <= l && l <= iv.End {
					now++
				}
			}
		}
		if fd.IsGold(l) {
			switch {
			case first <= 3:
				found++
			case first == viewdata.Never:
				missed++
			default:
				pending++
			}
		}
	}
	for _, fs := range a.Run.Prediction.Final.Spans {
		if a.Files.Resolve(fs.File) == focus.File {
			for _, sp := range fs.Spans {
				final += sp.End - sp.Start + 1
			}
		}
	}
	count := func(class string) int {
		return eval[int](b, fmt.Sprintf("document.querySelectorAll('#files .file:not([hidden]) .line.%s').length", class))
	}
	for class, want := range map[string]int{"r-now": now, "g-found": found, "g-pend": pending, "g-miss": missed, "fin": final} {
		if got := count(class); got != want {
			t.Errorf("%d lines marked %s, want %d", got, class, want)
		}
	}
	if found == 0 || now == 0 || final == 0 || pending+missed == 0 {
		t.Fatalf("the test step should show every kind of mark (now %d, found %d, later or never %d, final %d)", now, found, pending+missed, final)
	}
	glyph := eval[string](b, "getComputedStyle(document.querySelector('#files .file:not([hidden]) .line.g-found'), '::after').content")
	if glyph != `"`+display.GlyphGoldFound+`"` {
		t.Errorf("gold-read mark %s, want %q", glyph, display.GlyphGoldFound)
	}

	// h, G, g, j and k.
	for _, c := range []struct {
		key  string
		want int
	}{{"h", 3}, {"G", d.N}, {"g", 1}, {"j", 2}, {"k", 1}} {
		b.Press(c.key)
		if got := b.Text("#h-step"); got != fmt.Sprintf("%d/%d", c.want, d.N) {
			t.Errorf("after %s: %q, want step %d", c.key, got, c.want)
		}
	}

	// A click on a gold span goes to the step that came closest to it.
	for k := range d.Gold {
		g := &d.Gold[k]
		want := g.Closest(lens)
		if want < 0 {
			continue
		}
		eval[bool](b, fmt.Sprintf("document.querySelectorAll('#goldlist .grow')[%d].click(), true", k))
		if got := b.Text("#h-step"); got != fmt.Sprintf("%d/%d", want+1, d.N) {
			t.Errorf("gold span %d (%s:%d-%d): step %q, want %d", k, g.File(), g.Start(), g.End(), got, want+1)
		}
		if got := b.Text("#src-file"); !strings.HasPrefix(got, g.File()+":") || !strings.Contains(got, "pinned") {
			t.Errorf("gold span %d: source %q, want %s pinned", k, got, g.File())
		}
	}

	// /: search, as the explorer does: the current action when it
	// matches, else the next one that does; n the one after.
	const query = "unittest"
	var hits []int
	for i := 0; i < d.N; i++ {
		if d.Matches(i, query) {
			hits = append(hits, i)
		}
	}
	if len(hits) < 2 || hits[0] == 0 {
		t.Fatalf("the demo should match %q twice after step 1: %v", query, hits)
	}
	b.Press("g")
	b.Press("/")
	b.Press(query + "\r") // the search box has the focus
	if got := b.Text("#h-step"); got != fmt.Sprintf("%d/%d", hits[0]+1, d.N) {
		t.Errorf("after searching %s: %q, want step %d", query, got, hits[0]+1)
	}
	if st, want := b.Text("#status"), fmt.Sprintf("match 1/%d for %q", len(hits), query); st != want {
		t.Errorf("status %q, want %q", st, want)
	}
	b.Press("n")
	if got := b.Text("#h-step"); got != fmt.Sprintf("%d/%d", hits[1]+1, d.N) {
		t.Errorf("after n: %q, want step %d", got, hits[1]+1)
	}

	// At the last step a span no step read is "never", as in the explorer,
	// and v switches the lens, as in the explorer.
	b.Press("G")
	ats := eval[string](b, "[...document.querySelectorAll('#goldlist .at')].map(e => e.textContent.trim()).join(',')")
	if strings.Contains(ats, "not yet") || !strings.Contains(ats, "never") {
		t.Errorf("gold panel at the last step: %s; want never, no not yet", ats)
	}
	lensBefore := b.Text("#h-lens")
	b.Press("v")
	if after := b.Text("#h-lens"); after == lensBefore || !strings.Contains(b.Text("#status"), "lens: ") {
		t.Errorf("v: lens %q -> %q, status %q", lensBefore, after, b.Text("#status"))
	}

	// The spend chart follows the step: at the last, what the last took.
	if got, want := b.Text("#spend-now"), eval[string](b, "(() => { const D = JSON.parse(document.getElementById('data').textContent); return D.actions[D.n - 1].spend || '-' })()"); got == "" || got != want {
		t.Errorf("spend now %q, want %q", got, want)
	}

	// t opens the task and the patch, and shows the patch's gold line; t
	// again folds them.
	visible := "document.querySelector('#patch .pl.del').checkVisibility()"
	if open, shown := eval[bool](b, "document.getElementById('task').open"), eval[bool](b, visible); open || shown {
		t.Errorf("before t: open %v, patch shown %v", open, shown)
	}
	b.Press("t")
	if !eval[bool](b, "document.getElementById('task').open") || !eval[bool](b, visible) ||
		!strings.HasPrefix(b.Text("#task-text"), "Bulk discount is not applied") || b.Text("#patch .pl.del .pg") != "●" {
		t.Errorf("t: open %v, task %.40q, gold mark %q", eval[bool](b, "document.getElementById('task').open"), b.Text("#task-text"), b.Text("#patch .pl.del .pg"))
	}
	b.Press("t")
	if eval[bool](b, "document.getElementById('task').open") {
		t.Error("t again leaves the task open")
	}
}

// A run with neither gold nor repository (a common first look) still
// renders and steps.
func TestBrowserNoGoldNoRepository(t *testing.T) {
	demo := exporttest.Demo(t)
	a := scoring.Analyze(demo.Run, &model.Gold{ID: demo.Run.InstanceID}, scoring.NewFileCache(nil), model.ContextBench)
	b := open(t, a, Options{Theme: "light"})
	defer b.Quiet()
	// The words every surface says (display.EmptyTarget): without --gold
	// the target is the run's edits, so "pass --gold" told nothing.
	if got := b.Text("#goldlist"); got != "no gold context" {
		t.Errorf("gold panel %q", got)
	}
	b.Press("G")
	if got := b.Text("#h-step"); got != "20/20" {
		t.Errorf("after G: %q", got)
	}
	if got := b.Text("#src-note"); !strings.Contains(got, "no repository") {
		t.Errorf("source note %q", got)
	}
	// Against no gold there is no figure, as in the explorer: "–" and why.
	for _, g := range []string{"file", "line"} {
		if cov, fin := b.Text("#cov-"+g), b.Text("#fin-"+g); cov != "–" || fin != "no gold" {
			t.Errorf("%s: coverage %q, final %q; want – and no gold", g, cov, fin)
		}
	}
}

// The hostile run in a browser: its text is shown, and nothing in it runs,
// loads or adds an element, whatever the page is made to show.
func TestBrowserHostileRun(t *testing.T) {
	a := exporttest.Hostile(t)
	b := open(t, a, Options{})
	defer b.Quiet()
	intact := func(when string) {
		t.Helper()
		counts := eval[[]int](b, `[document.scripts.length,
			document.querySelectorAll('img,iframe,a,link,object,embed,svg[onload],form,base,meta[http-equiv=refresh]').length,
			[...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on'))).length,
			document.querySelectorAll('style').length]`)
		if counts[0] != 2 || counts[1] != 0 || counts[2] != 0 || counts[3] != 1 {
			t.Errorf("%s: scripts %d, foreign elements %d, handlers %d, styles %d", when, counts[0], counts[1], counts[2], counts[3])
		}
		if pwned := eval[bool](b, "window.pwned === true || document.title.startsWith('pwn')"); pwned {
			t.Errorf("%s: the page was changed", when)
		}
	}
	intact("opened")
	if got := eval[string](b, "document.title"); !strings.Contains(got, exporttest.Attacks[0]) {
		t.Errorf("title %q does not show the instance as text", got)
	}
	for i := 0; i < len(a.Run.Actions); i++ {
		obs := b.Text("#obs-out")
		for _, attack := range exporttest.Attacks[:7] {
			if !strings.Contains(obs, attack) {
				t.Errorf("step %d: the output does not show %q as text", i+1, attack)
			}
		}
		intact(fmt.Sprintf("step %d", i+1))
		b.Press("l")
	}
	srcs := eval[string](b, "[...document.querySelectorAll('#files .file')].map(e => e.textContent).join('\\n')")
	if !strings.Contains(srcs, "</pre></code></div><script>alert('pwn12')</script>") {
		t.Error("the hostile source is not shown as text")
	}
	for k := range exporttest.HostilePaths {
		eval[bool](b, fmt.Sprintf("document.querySelectorAll('#goldlist .grow')[%d].click(), true", k))
		intact(fmt.Sprintf("gold span %d", k))
	}
	b.Press("L")
	b.Press("/")
	b.Press("<script>\r")
	intact("searched")
	if st := b.Text("#status"); !strings.Contains(st, `"<script>"`) {
		t.Errorf("status %q does not show the query as text", st)
	}
}

// A projector's 1280x720 at 150 % zoom is an 853x480 viewport: the page
// reflows rather than scrolling sideways, keeps a screenful of source, and
// cuts neither the gold diagnosis nor the gutter legend.
func TestBrowserZoomedProjector(t *testing.T) {
	b := open(t, exporttest.Demo(t), Options{Theme: "contrast", Step: 6})
	defer b.Quiet()
	b.Do(chromedp.EmulateViewport(853, 480))
	if w := eval[int](b, "document.documentElement.scrollWidth"); w > 853 {
		t.Errorf("the page is %d px wide in an 853 px viewport: it scrolls sideways", w)
	}
	if n := eval[int](b, `(s => Math.floor(s.clientHeight / document.querySelector('#files .file:not([hidden]) .line').getBoundingClientRect().height))(document.querySelector('#source .body'))`); n < 10 {
		t.Errorf("the source pane holds %d lines, want at least 10", n)
	}
	eval[bool](b, `document.querySelector('#goldlist .grow').click() || true`)
	for _, sel := range []string{"#gold-desc", "#source h2", "#foot", "#cov-info"} {
		if cut := eval[bool](b, fmt.Sprintf(`(e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1 || e.getBoundingClientRect().right > 853)(document.querySelector(%q))`, sel)); cut {
			t.Errorf("%s is cut at 853x480", sel)
		}
	}
	if d := eval[string](b, `document.querySelector('#gold-desc').textContent`); !strings.Contains(d, "step") && !strings.Contains(d, "never") {
		t.Errorf("the gold diagnosis reads %q", d)
	}
}

// Agents that ran side by side: the page lists each one's actions under
// the call that started it, as the explorer does, named on their first
// row; l still steps in time.
func TestBrowserGroupsAgents(t *testing.T) {
	a := exporttest.Demo(t)
	if !demotask.Interleave(a.Run) {
		t.Skipf("the demo has %d actions", len(a.Run.Actions))
	}
	b := open(t, a, Options{Theme: "dark", Step: 4})
	defer b.Quiet()
	nums := eval[[]string](b, "[...document.querySelectorAll('#tl .row .num')].slice(0, 8).map(e => e.textContent.trim())")
	if got := strings.Join(nums, " "); got != "1 2 4 6 3 5 7 8" {
		t.Errorf("rows %s, want 1 2 4 6 3 5 7 8", got)
	}
	cmds := eval[[]string](b, "[...document.querySelectorAll('#tl .row .cmd')].slice(0, 8).map(e => e.textContent)")
	if !strings.HasPrefix(cmds[2], "↳ Explore#aaaa:") || !strings.HasPrefix(cmds[5], "↳ Explore#bbbb:") || strings.Contains(cmds[3], "Explore#") {
		t.Errorf("agent names on rows: %q", cmds)
	}
	b.Press("l")
	if got := b.Text("#h-step"); got != fmt.Sprintf("5/%d", len(a.Run.Actions)) {
		t.Errorf("l from step 4: %q, want step 5", got)
	}
}
