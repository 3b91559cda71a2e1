package site

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trajscope/trajscope/export/html"
	"github.com/trajscope/trajscope/export/internal/browsertest"
	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// writeSite writes a site of three runs: the demo twice (one task, so a
// compare page) and the hostile run, whose every text tries to break out
// of the page.
func writeSite(t *testing.T) (dir string, runs []Run) {
	t.Helper()
	dir = t.TempDir()
	lens := model.LensContextBench
	stories := []*story.Story{story.Tell(exporttest.Demo(t)), story.Tell(exporttest.Demo(t)), story.Tell(exporttest.Hostile(t))}
	for i, st := range stories {
		page := fmt.Sprintf("run-%d.html", i+1)
		f, err := os.Create(filepath.Join(dir, page))
		if err != nil {
			t.Fatal(err)
		}
		if err := html.Write(f, st, html.Options{Lens: lens, Up: "index.html"}); err != nil {
			t.Fatal(err)
		}
		f.Close()
		r := Describe(st, page, lens)
		r.Row = story.NewRow(st.A.Run)
		// Paths as deep as a results tree's: the labels that tell the two
		// demo runs apart carry them, and must not push the figures off a
		// projector's screen.
		r.Row.Pos, r.Row.Path = i+1, fmt.Sprintf("runs/%s%d.json", strings.Repeat("experiments/qwen-sweep/", 4), i+1)
		r.Row.Summarize(st)
		runs = append(runs, r)
	}
	// The second demo run scores lower: the sort has something to do. The
	// hostile one was not scored: its reason shows under its instance.
	runs[1].Row.Lenses[lens].Coverage = 0.1
	runs[2].Row.Lenses[lens].Error, runs[2].Row.Lenses[lens].Reason = "no_context_extracted", "the run declared no context"
	compare := map[string]string{runs[0].taskKey(): ComparePage(runs[0].Task, 1)}
	write := func(name string, fn func(f *os.File) error) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := fn(f); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", func(f *os.File) error { return WriteIndex(f, runs, lens, "runs/", compare) })
	write(compare[runs[0].taskKey()], func(f *os.File) error { return WriteCompare(f, runs[0].Task, runs[:2], lens) })
	return dir, runs
}

// The site in a browser: the index lists every run in the terminal's
// columns, sorts by a column as the terminal does, filters, opens a run
// with j and enter; a page opens at the step or gold span its address
// names; the compare page links each run at each span. Nothing loads from
// the network, nothing breaks the policy.
func TestBrowserSite(t *testing.T) {
	dir, runs := writeSite(t)
	index := filepath.Join(dir, "index.html")
	b := browsertest.Open(t, index, "", "document.querySelectorAll('#runs tbody tr').length > 0")
	defer b.Quiet()
	eval := func(js string) string { return browsertest.Eval[string](b, js) }
	rows := func() string {
		return eval(`[...document.querySelectorAll('#runs tbody tr')].filter(r => !r.hidden).map(r => r.cells[0].textContent).join(',')`)
	}
	if got := rows(); got != "1,2,3" {
		t.Fatalf("index rows %q, want the 3 runs in order", got)
	}
	// On a projector (1280x720) the figures and the compare links are on
	// screen, the unscored run says why, and the marks are explained.
	b.Do(chromedp.EmulateViewport(1280, 720))
	for _, sel := range []string{`#runs th[data-col="4"]`, `#runs thead th:last-child`, `#runs tbody a[href^="compare-"]`} {
		if right := browsertest.Eval[float64](b, fmt.Sprintf("document.querySelector(%q).getBoundingClientRect().right", sel)); right > 1280 {
			t.Errorf("at 1280x720 %s ends at x=%.0f, off screen", sel, right)
		}
	}
	if why := eval(`document.querySelectorAll('#runs tbody tr')[2].querySelector('.why').textContent`); why != "not scored: no_context_extracted (the run declared no context)" {
		t.Errorf("the unscored run says %q", why)
	}
	if legend := eval(`document.body.textContent`); !strings.Contains(legend, "- not scored under this lens") {
		t.Error("the index does not explain its - cells")
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll('#models tbody tr').length`); n != 2 {
		t.Errorf("%d rows per model, want 2 (the demo's and the hostile run's)", n)
	}
	// The hostile run's text stays text: its instance shows as written, and
	// the page has no element but its own.
	if got := eval(`document.querySelectorAll('#runs tbody tr')[2].cells[1].textContent`); !strings.Contains(got, `<script>alert("pwn1")`) {
		t.Errorf("the hostile instance shows as %q", got)
	}
	if n := browsertest.Eval[int](b, `document.querySelectorAll('script').length + document.querySelectorAll('img, iframe, svg, link, a[href^="javascript"]').length`); n != 2 {
		t.Errorf("%d scripts and foreign elements, want the page's 2 scripts", n)
	}
	// Sort by coverage: descending first, as the terminal sorts a metric.
	click := func(sel string) {
		browsertest.Eval[bool](b, fmt.Sprintf("document.querySelector(%q).click() || true", sel))
	}
	click(`#runs th[data-col="4"]`)
	if got := rows(); got != "1,2,3" {
		t.Errorf("sorted by cov: %q, want run 1 (0.15), run 2 (0.10), then the unscored run", got)
	}
	click(`#runs th[data-col="4"]`)
	if got := rows(); !strings.HasPrefix(got, "2,") {
		t.Errorf("sorted by cov, ascending: %q, want run 2 first", got)
	}
	// The filter: "/" focuses it.
	b.Press("/")
	b.Press("pwn")
	if got := rows(); got != "3" {
		t.Errorf("filtered by pwn: %q, want the hostile run", got)
	}
	b.Press("\u001b") // Escape leaves the box
	browsertest.Eval[bool](b, `(f => { f.value = ''; f.dispatchEvent(new Event('input')); return true })(document.getElementById('filter'))`)
	// j selects the first row shown, enter opens its page.
	first := strings.Split(rows(), ",")[0]
	b.Press("j")
	b.Visited("file://" + filepath.Join(dir, "run-"+first+".html"))
	b.Press("\r")
	b.WaitFor(`document.querySelector('#tl .row.cur') !== null`)
	if u := eval(`location.pathname`); !strings.HasSuffix(u, "run-"+first+".html") {
		t.Errorf("enter opened %s, want run-%s.html", u, first)
	}

	// A deep link opens at that step, and the address follows the steps.
	run1 := "file://" + filepath.Join(dir, "run-1.html")
	b.Visited(run1)
	b.Navigate(run1+"#step-4", "document.querySelector('#tl .row.cur') !== null")
	if got := b.Text("#h-step"); !strings.HasPrefix(got, "4/") {
		t.Errorf("#step-4 opened at %q", got)
	}
	b.Press("l")
	if got := eval(`location.hash`); got != "#step-5" {
		t.Errorf("after l the address says %q, want #step-5", got)
	}
	// #gold-K opens at the step that came closest to gold span K.
	st := story.Tell(exporttest.Demo(t))
	k := 0
	for k < len(st.Gold.Spans) && st.Gold.Spans[k].Closest(model.LensContextBench) < 0 {
		k++
	}
	if k == len(st.Gold.Spans) {
		t.Fatal("no gold span of the demo has a closest step")
	}
	want := st.Gold.Spans[k].Closest(model.LensContextBench) + 1
	b.Navigate(run1+fmt.Sprintf("#gold-%d", k+1), "document.querySelector('#tl .row.cur') !== null")
	if got := b.Text("#h-step"); !strings.HasPrefix(got, fmt.Sprintf("%d/", want)) {
		t.Errorf("#gold-%d opened at %q, want step %d", k+1, got, want)
	}

	// The compare page: a column per run, a link per run and span.
	cmp := "file://" + filepath.Join(dir, ComparePage(runs[0].Task, 1))
	b.Visited(cmp)
	b.Navigate(cmp, "document.querySelector('#gold') !== null")
	if n := browsertest.Eval[int](b, `document.querySelectorAll('#gold tbody tr').length`); n != len(runs[0].Gold) {
		t.Errorf("compare page: %d gold rows, want %d", n, len(runs[0].Gold))
	}
	if href := eval(`document.querySelector('#gold tbody a').getAttribute('href')`); href != "run-1.html#gold-1" {
		t.Errorf("compare page's first link %q", href)
	}
	// Columns headed by run letter and model, cells saying when each span
	// was first shown, as the terminal's compare does.
	if head := eval(`document.querySelectorAll('#gold thead th')[1].textContent`); !strings.HasPrefix(head, "A · ") || strings.Contains(head, "experiments") {
		t.Errorf("compare column head %q, want the letter and the model", head)
	}
	if cells := eval(`[...document.querySelectorAll('#gold tbody td')].map(td => td.textContent).join('|')`); !strings.Contains(cells, "@4 found 7/14 kept") {
		t.Errorf("compare cells %q lack the step a span was first shown", cells)
	}
	if right := browsertest.Eval[float64](b, `document.querySelector('#figures thead th:nth-child(5)').getBoundingClientRect().right`); right > 1280 {
		t.Errorf("compare figures end at x=%.0f at 1280x720", right)
	}
}
