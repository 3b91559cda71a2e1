package viewdata

import (
	"math"
	"testing"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

func demoTask(t *testing.T) *scoring.Analysis {
	t.Helper()
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The timeline's +n and ↺, the metrics bar's redundancy counter and the
// summary all read Analyze's per-action counters; the gutter reads the
// first-read tables built here. Counted again from those tables, line by
// line, the counters must come out the same under both lenses, and the
// ContextBench lens's new gold lines must add up to its scored line
// coverage.
func TestCountersMatchGutter(t *testing.T) {
	a := demoTask(t)
	d := New(story.Tell(a))
	for _, l := range model.Lenses {
		cumRead, cumReread, newGold := 0, 0, 0
		for i, v := range a.Lenses[l].Actions {
			read, reread, gold := 0, 0, 0
			for _, fl := range v.Lines {
				fd := d.File(fl.File)
				for _, iv := range fl.Spans {
					for line := iv.Start; line <= iv.End; line++ {
						read++
						switch first := fd.FirstRead(l, line); {
						case first < i:
							reread++
						case first == i && fd.IsGold(line):
							gold++
						}
					}
				}
			}
			cumRead += read
			cumReread += reread
			newGold += gold
			pure := read > 0 && reread == read
			if v.ReadLines() != read || int(v.Reread) != reread || int(v.NewGold) != gold || v.PureReread() != pure || v.CumRead != cumRead || v.CumReread != cumReread {
				t.Errorf("%s action %d: Analyze read=%d reread=%d new=%d pure=%v cum=%d/%d; gutter %d %d %d %v %d/%d", l, i+1,
					v.ReadLines(), v.Reread, v.NewGold, v.PureReread(), v.CumReread, v.CumRead, read, reread, gold, pure, cumReread, cumRead)
			}
		}
		if l != model.LensContextBench {
			continue
		}
		goldLines := 0
		for _, ivs := range a.Gold.Lines.All() {
			goldLines += model.TotalLength(ivs)
		}
		curve := a.Lenses[l].Curve(model.GranLine)
		if got, want := curve[len(curve)-1], float64(newGold)/float64(goldLines); math.Abs(got-want) > 1e-12 || newGold == 0 {
			t.Errorf("%s: line coverage %v, but the timeline's new gold lines add up to %d/%d", l, got, newGold, goldLines)
		}
	}
}

// The demo's story, as the gold panel tells it: every diagnosis category
// appears under both lenses, each with the action that came closest (where
// enter in the gold panel goes), and the per-step "found @k" agrees with it.
func TestDemoGold(t *testing.T) {
	d := New(story.Tell(demoTask(t)))
	cb, obs := model.LensContextBench, model.LensObserved
	type lensWant struct {
		cat     diagnose.Category
		closest int // 1-based action, 0 none
		found   int // first read, 1-based action, 0 never
	}
	cases := []struct {
		file       string
		start, end int
		cb, obs    lensWant
		inFinal    bool
	}{
		// The docs the PR quotes: no command ever names README.md.
		{"README.md", 12, 14, lensWant{diagnose.NeverOpened, 0, 0}, lensWant{diagnose.NeverOpened, 0, 0}, false},
		// Only the first find lists it.
		{"pricebook/__init__.py", 3, 5, lensWant{diagnose.SearchedNotRead, 1, 0}, lensWant{diagnose.SearchedNotRead, 1, 0}, false},
		// Read at step 6 (grep showed two of its lines at 2), not kept.
		{"pricebook/cart.py", 45, 49, lensWant{diagnose.ReadThenDropped, 6, 6}, lensWant{diagnose.ReadThenDropped, 2, 2}, false},
		{"pricebook/discounts.py", 49, 62, lensWant{diagnose.Found, 4, 4}, lensWant{diagnose.Found, 2, 2}, true},
		{"pricebook/discounts.py", 65, 70, lensWant{diagnose.ReadThenDropped, 4, 4}, lensWant{diagnose.ReadThenDropped, 2, 2}, false},
		// Step 4 stops at line 75, three lines short; grep tier showed 75
		// at step 2.
		{"pricebook/discounts.py", 78, 84, lensWant{diagnose.NearMiss, 4, 0}, lensWant{diagnose.NearMiss, 2, 0}, false},
		// grep percent_of hits its line 45: searched under the evaluator's
		// steps, one line read under the observed lens.
		{"pricebook/money.py", 45, 53, lensWant{diagnose.SearchedNotRead, 7, 0}, lensWant{diagnose.ReadThenDropped, 7, 7}, false},
	}
	if len(d.Gold) != len(cases) {
		t.Fatalf("%d gold spans, want %d", len(d.Gold), len(cases))
	}
	for k, c := range cases {
		g := &d.Gold[k]
		if g.File() != c.file || g.Start() != c.start || g.End() != c.end || g.FileLevel() {
			t.Errorf("span %d is %s %d-%d, want %s %d-%d", k, g.File(), g.Start(), g.End(), c.file, c.start, c.end)
			continue
		}
		if g.InFinal(model.LensContextBench) != c.inFinal {
			t.Errorf("%s %d-%d: in final %v, want %v", c.file, c.start, c.end, g.InFinal(model.LensContextBench), c.inFinal)
		}
		for _, lw := range []struct {
			l    model.Lens
			want lensWant
		}{{cb, c.cb}, {obs, c.obs}} {
			got := lensWant{g.Category(lw.l), g.Closest(lw.l) + 1, g.FoundAt(lw.l) + 1}
			if got != lw.want {
				t.Errorf("%s %d-%d (%s): %v closest %d found %d; want %v closest %d found %d", c.file, c.start, c.end, lw.l,
					got.cat, got.closest, got.found, lw.want.cat, lw.want.closest, lw.want.found)
			}
			// A span read during the run was first read where the diagnosis
			// says it was first shown: the panel's two columns agree.
			if cat := g.Category(lw.l); (cat == diagnose.Found || cat == diagnose.ReadThenDropped) && g.FoundAt(lw.l) != g.Closest(lw.l) {
				t.Errorf("%s %d-%d (%s): found at %d but diagnosed at %d", c.file, c.start, c.end, lw.l, g.FoundAt(lw.l)+1, g.Closest(lw.l)+1)
			}
		}
	}
	if sp := d.Gold[5].Span[cb]; sp.Distance != 3 {
		t.Errorf("near miss distance %d, want 3", sp.Distance)
	}
	for l, want := range map[model.Lens]diagnose.Counts{cb: {1, 2, 1, 2, 1}, obs: {1, 1, 1, 3, 1}} {
		if got := d.Diag[l].SpanCounts; got != want {
			t.Errorf("%s span counts %v, want %v", l, got, want)
		}
	}
	// Partial reads count line by line, as of the current action.
	money := &d.Gold[6]
	if n, n6 := money.ReadBy(obs, 19), money.ReadBy(obs, 5); n != 1 || n6 != 0 {
		t.Errorf("money.py gold lines read (observed) = %d by the end, %d by step 6; want 1 and 0", n, n6)
	}
	// The first-read marks behind the gutter.
	disc := d.File("pricebook/discounts.py")
	for _, c := range []struct {
		lens        model.Lens
		line, first int // first is 1-based, 0 never
	}{
		{cb, 1, 3}, {cb, 40, 3}, {cb, 41, 4}, {cb, 84, 0}, {obs, 60, 2}, {obs, 59, 2}, {obs, 58, 4},
	} {
		got := disc.FirstRead(c.lens, c.line)
		want := c.first - 1
		if c.first == 0 {
			want = Never
		}
		if got != want {
			t.Errorf("discounts.py:%d first read (%s) = %d, want %d", c.line, c.lens, got, want)
		}
	}
	// Reads the evaluator never saw (cat without a declaration) stay out of
	// the contextbench lens.
	if js := d.File("web/cart.js"); js.FirstRead(cb, 1) != Never || js.FirstRead(obs, 1) != 8 {
		t.Errorf("web/cart.js line 1: cb %d obs %d, want never and action 9", js.FirstRead(cb, 1), js.FirstRead(obs, 1))
	}
}

// A gold file without gold lines is one file-level entry, diagnosed at file
// granularity.
func TestFileLevelGold(t *testing.T) {
	a := demoTask(t)
	a.Gold.Files = append(a.Gold.Files, "pricebook/tax.py")
	d := New(story.Tell(a))
	var g *diagnose.GoldSpan
	for k := range d.Gold {
		if d.Gold[k].File() == "pricebook/tax.py" {
			g = &d.Gold[k]
		}
	}
	if g == nil || !g.FileLevel() {
		t.Fatalf("tax.py: %+v, want a file-level entry", g)
	}
	// Read at step 17 under the evaluator's steps (grep showed lines 7 and
	// 31 at step 7), absent from the final context.
	for l, want := range map[model.Lens]int{model.LensContextBench: 17, model.LensObserved: 7} {
		if g.Category(l) != diagnose.ReadThenDropped || g.Closest(l)+1 != want || g.FoundAt(l)+1 != want {
			t.Errorf("tax.py (%s): %v closest %d found %d, want read then dropped at %d", l, g.Category(l), g.Closest(l)+1, g.FoundAt(l)+1, want)
		}
	}
}

func TestShortCommand(t *testing.T) {
	d := New(story.Tell(demoTask(t)))
	cases := map[int]string{
		1:  "grep -rn 'tier' pricebook",
		3:  "discounts.py:41-75",
		8:  "cart.js:1-48",
		9:  "cat <<'EOF' > repro.py …",
		10: "python repro.py",
	}
	for i, want := range cases {
		if d.Short(i) != want {
			t.Errorf("action %d short = %q, want %q", i+1, d.Short(i), want)
		}
	}
}

// The gold panel's "found @k" and read fractions (diagnose.DiagnoseRun) and
// the gutter's gold marks (the first-read tables here) are two views of one
// thing: they must agree at every step.
func TestGoldListMatchesGutter(t *testing.T) {
	d := New(story.Tell(demoTask(t)))
	for k := range d.Gold {
		g := &d.Gold[k]
		if g.FileLevel() {
			continue
		}
		fd := d.File(g.File())
		for _, l := range model.Lenses {
			first := Never
			for line := max(g.Start(), 1); line <= min(g.End(), fd.Lines); line++ {
				first = min(first, fd.FirstRead(l, line))
			}
			if want := map[bool]int{true: -1, false: first}[first == Never]; g.FoundAt(l) != want {
				t.Errorf("%s %d-%d (%s): found at %d, gutter says %d", g.File(), g.Start(), g.End(), l, g.FoundAt(l), want)
			}
			for i := 0; i < d.N; i++ {
				n := 0
				for line := max(g.Start(), 1); line <= min(g.End(), fd.Lines); line++ {
					if fd.FirstRead(l, line) <= i {
						n++
					}
				}
				if got := g.ReadBy(l, i); got != n {
					t.Errorf("%s %d-%d (%s) at step %d: %d lines read, gutter says %d", g.File(), g.Start(), g.End(), l, i+1, got, n)
				}
			}
		}
	}
}
