package html

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// chromium finds a Chromium to test the page in. Without one the browser
// tests skip, except in CI, whose script installs it: there a missing
// browser fails rather than passing unseen.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("no Chromium: .ci/run installs the chromium package")
	}
	t.Skip("no Chromium installed (apt-get install chromium)")
	return ""
}

// browser is a page open in headless Chromium, with what it did: every
// network request, dialog, uncaught exception and browser log entry (a
// Content-Security-Policy violation is one).
type browser struct {
	t   *testing.T
	ctx context.Context
	url string

	mu         sync.Mutex
	requests   []string
	dialogs    []string
	exceptions []string
	logs       []string
}

func open(t *testing.T, a *scoring.Analysis, o Options) *browser {
	t.Helper()
	path := filepath.Join(t.TempDir(), "run.html")
	if err := os.WriteFile(path, render(t, a, o), 0o644); err != nil {
		t.Fatal(err)
	}
	return openFile(t, path)
}

// openFile opens a page file in a new headless Chromium.
func openFile(t *testing.T, path string) *browser {
	t.Helper()
	exe := chromium(t)
	alloc, cancel := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1400, 900))
	t.Cleanup(cancel)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(cancel)
	b := &browser{t: t, ctx: ctx, url: "file://" + path}
	// The first call starts the browser; it must not carry a timeout.
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("starting Chromium: %v", err)
	}
	if err := chromedp.Listen(ctx, b.record); err != nil {
		t.Fatal(err)
	}
	for _, err := range []error{
		call(ctx, network.Enable, network.EnableParams{}),
		call(ctx, log.Enable, cdp.Empty{}),
		call(ctx, page.Enable, page.EnableParams{}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	b.do(chromedp.Navigate(b.url))
	// Navigate returns once the page has loaded, and the page's script
	// renders while it loads.
	if !eval[bool](b, "document.querySelector('#tl .row.cur') !== null") {
		b.mu.Lock()
		defer b.mu.Unlock()
		t.Fatalf("the page did not render the run: %q %q", b.exceptions, b.logs)
	}
	return b
}

func call[P any](ctx context.Context, cmd cdp.Command[P, cdp.Empty], p P) error {
	_, err := chromedp.Call(ctx, cmd, p)
	return err
}

// record runs in the tab's message loop: it only notes events. A dialog is
// dismissed from another goroutine, so the page does not block.
func (b *browser) record(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch ev := ev.(type) {
	case *network.EventRequestWillBeSent:
		b.requests = append(b.requests, ev.Request.URL)
	case *page.EventJavascriptDialogOpening:
		b.dialogs = append(b.dialogs, ev.Message)
		go chromedp.Call(b.ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	case *runtime.EventExceptionThrown:
		b.exceptions = append(b.exceptions, ev.ExceptionDetails.Text+" "+fmt.Sprint(ev.ExceptionDetails.Exception))
	case *log.EventEntryAdded:
		b.logs = append(b.logs, string(ev.Entry.Source)+": "+ev.Entry.Text)
	}
}

func (b *browser) do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

func eval[T any](b *browser, js string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 60*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js))
	if err != nil {
		b.t.Fatalf("%s: %v", js, err)
	}
	return v
}

func (b *browser) text(sel string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf("document.querySelector(%q).textContent", sel))
}

func (b *browser) press(keys string) {
	b.t.Helper()
	b.do(chromedp.KeyEvent(keys))
}

// quiet checks that the page loaded nothing but itself, opened no dialog,
// threw nothing and broke no policy.
func (b *browser) quiet() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, u := range b.requests {
		if u != b.url {
			b.t.Errorf("the page requested %s", u)
		}
	}
	if len(b.dialogs) > 0 {
		b.t.Errorf("dialogs opened: %q", b.dialogs)
	}
	if len(b.exceptions) > 0 {
		b.t.Errorf("uncaught exceptions: %q", b.exceptions)
	}
	for _, l := range b.logs {
		if strings.Contains(l, "Content Security Policy") || strings.Contains(l, "Refused") {
			b.t.Errorf("policy violation: %s", l)
		}
	}
}

// The demo page in a browser: it shows the run, its keys step through it
// as the explorer's do, and clicking a gold span goes to the step that came
// closest.
func TestBrowserDemo(t *testing.T) {
	a := exporttest.Demo(t)
	d := viewdata.New(story.Tell(a))
	lens := model.LensContextBench
	b := open(t, a, Options{Theme: "dark", Step: 3})
	defer b.quiet()

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
	if got := b.text("#h-step"); got != fmt.Sprintf("3/%d", d.N) {
		t.Errorf("opened at %q, want step 3", got)
	}

	// l: the next step, whose new gold moves the coverage curves.
	before := eval[string](b, "document.querySelector('#chart-line .past').getAttribute('points')")
	b.press("l")
	if got := b.text("#h-step"); got != fmt.Sprintf("4/%d", d.N) {
		t.Fatalf("after l: %q, want step 4", got)
	}
	after := eval[string](b, "document.querySelector('#chart-line .past').getAttribute('points')")
	if after == before {
		t.Error("the line coverage curve did not change")
	}
	for _, g := range model.Granularities {
		want := fmt.Sprintf("%.2f", a.Lenses[lens].CurveAt(g, 3))
		if got := b.text("#cov-" + g.String()); got != want {
			t.Errorf("%s coverage at step 4: %q, want %q", g, got, want)
		}
	}
	if got, want := b.text("#obs-cmd"), "$ "+a.Run.Actions[3].Command; got != want {
		t.Errorf("observation command %q, want %q", got, want)
	}

	// The gutter at step 4: the marks the explorer computes for the file
	// the step read.
	focus := d.Focus[lens][3]
	fd := d.File(focus.File)
	if want := focus.File + ":"; !strings.HasPrefix(b.text("#src-file"), want) {
		t.Fatalf("source shows %q, want %s", b.text("#src-file"), want)
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
		b.press(c.key)
		if got := b.text("#h-step"); got != fmt.Sprintf("%d/%d", c.want, d.N) {
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
		if got := b.text("#h-step"); got != fmt.Sprintf("%d/%d", want+1, d.N) {
			t.Errorf("gold span %d (%s:%d-%d): step %q, want %d", k, g.File(), g.Start(), g.End(), got, want+1)
		}
		if got := b.text("#src-file"); !strings.HasPrefix(got, g.File()+":") || !strings.Contains(got, "pinned") {
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
	b.press("g")
	b.press("/")
	b.press(query + "\r") // the search box has the focus
	if got := b.text("#h-step"); got != fmt.Sprintf("%d/%d", hits[0]+1, d.N) {
		t.Errorf("after searching %s: %q, want step %d", query, got, hits[0]+1)
	}
	if st, want := b.text("#status"), fmt.Sprintf("match 1/%d for %q", len(hits), query); st != want {
		t.Errorf("status %q, want %q", st, want)
	}
	b.press("n")
	if got := b.text("#h-step"); got != fmt.Sprintf("%d/%d", hits[1]+1, d.N) {
		t.Errorf("after n: %q, want step %d", got, hits[1]+1)
	}

	// At the last step a span no step read is "never", as in the explorer,
	// and v switches the lens, as in the explorer.
	b.press("G")
	ats := eval[string](b, "[...document.querySelectorAll('#goldlist .at')].map(e => e.textContent.trim()).join(',')")
	if strings.Contains(ats, "not yet") || !strings.Contains(ats, "never") {
		t.Errorf("gold panel at the last step: %s; want never, no not yet", ats)
	}
	lensBefore := b.text("#h-lens")
	b.press("v")
	if after := b.text("#h-lens"); after == lensBefore || !strings.Contains(b.text("#status"), "lens: ") {
		t.Errorf("v: lens %q -> %q, status %q", lensBefore, after, b.text("#status"))
	}

	// The spend chart follows the step: at the last, what the last took.
	if got, want := b.text("#spend-now"), eval[string](b, "(() => { const D = JSON.parse(document.getElementById('data').textContent); return D.actions[D.n - 1].spend || '-' })()"); got == "" || got != want {
		t.Errorf("spend now %q, want %q", got, want)
	}

	// t opens the task and the patch, and shows the patch's gold line; t
	// again folds them.
	visible := "document.querySelector('#patch .pl.del').checkVisibility()"
	if open, shown := eval[bool](b, "document.getElementById('task').open"), eval[bool](b, visible); open || shown {
		t.Errorf("before t: open %v, patch shown %v", open, shown)
	}
	b.press("t")
	if !eval[bool](b, "document.getElementById('task').open") || !eval[bool](b, visible) ||
		!strings.HasPrefix(b.text("#task-text"), "Bulk discount is not applied") || b.text("#patch .pl.del .pg") != "●" {
		t.Errorf("t: open %v, task %.40q, gold mark %q", eval[bool](b, "document.getElementById('task').open"), b.text("#task-text"), b.text("#patch .pl.del .pg"))
	}
	b.press("t")
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
	defer b.quiet()
	if got := b.text("#goldlist"); got != "no gold context (pass --gold)" {
		t.Errorf("gold panel %q", got)
	}
	b.press("G")
	if got := b.text("#h-step"); got != "20/20" {
		t.Errorf("after G: %q", got)
	}
	if got := b.text("#src-note"); !strings.Contains(got, "no repository") {
		t.Errorf("source note %q", got)
	}
	// Against no gold there is no figure, as in the explorer: "–" and why.
	for _, g := range []string{"file", "line"} {
		if cov, fin := b.text("#cov-"+g), b.text("#fin-"+g); cov != "–" || fin != "no gold" {
			t.Errorf("%s: coverage %q, final %q; want – and no gold", g, cov, fin)
		}
	}
}

// The hostile run in a browser: its text is shown, and nothing in it runs,
// loads or adds an element, whatever the page is made to show.
func TestBrowserHostileRun(t *testing.T) {
	a := exporttest.Hostile(t)
	b := open(t, a, Options{})
	defer b.quiet()
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
		obs := b.text("#obs-out")
		for _, attack := range exporttest.Attacks[:7] {
			if !strings.Contains(obs, attack) {
				t.Errorf("step %d: the output does not show %q as text", i+1, attack)
			}
		}
		intact(fmt.Sprintf("step %d", i+1))
		b.press("l")
	}
	srcs := eval[string](b, "[...document.querySelectorAll('#files .file')].map(e => e.textContent).join('\\n')")
	if !strings.Contains(srcs, "</pre></code></div><script>alert('pwn12')</script>") {
		t.Error("the hostile source is not shown as text")
	}
	for k := range exporttest.HostilePaths {
		eval[bool](b, fmt.Sprintf("document.querySelectorAll('#goldlist .grow')[%d].click(), true", k))
		intact(fmt.Sprintf("gold span %d", k))
	}
	b.press("L")
	b.press("/")
	b.press("<script>\r")
	intact("searched")
	if st := b.text("#status"); !strings.Contains(st, `"<script>"`) {
		t.Errorf("status %q does not show the query as text", st)
	}
}
