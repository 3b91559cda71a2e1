package observed_test

import (
	"io/fs"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/miniswe"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

func rng(f string, a, b int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadRange, Start: a, End: b}
}

func iv(a, b int) model.Interval { return model.Interval{Start: a, End: b} }

// lineOf returns line n (1-based) of a tree file, "" past its end.
func lineOf(t *testing.T, tr *observed.Tree, p string, n int) string {
	t.Helper()
	b, err := tr.ReadFile(p)
	if err != nil {
		t.Fatalf("ReadFile(%q): %v", p, err)
	}
	ls := strings.Split(string(b), "\n")
	if n-1 < len(ls) {
		return ls[n-1]
	}
	return ""
}

// Each way agents print numbered lines is read back to the file's lines,
// attributed to the read that asked for them.
func TestBuildFromNumberedOutput(t *testing.T) {
	cases := []struct {
		name  string
		act   obsAction
		file  string
		known []model.Interval
		lines map[int]string
	}{
		{"nl -ba", withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 3, 5)}}, "<returncode>0</returncode>\n<output>\n     3\tx = 1\n     4\t\n     5\t\tif y:\n</output>"),
			"pkg/a.py", []model.Interval{iv(3, 5)}, map[int]string{3: "x = 1", 4: "", 5: "\tif y:", 2: ""}},
		{"Claude Code Read", withObs(model.Action{Reads: []model.ObservedRead{{File: "/app/pkg/a.py", Kind: model.ReadWhole}}}, "     1→import os\n     2→\n     3→def f():"),
			"pkg/a.py", []model.Interval{iv(1, 3)}, map[int]string{1: "import os", 3: "def f():"}},
		{"Claude Code Read from offset 0", withObs(model.Action{Reads: []model.ObservedRead{rng("/app/pkg/a.py", 1, 2)}}, "0\tfirst\n1\tsecond"),
			"pkg/a.py", []model.Interval{iv(1, 2)}, map[int]string{1: "first", 2: "second"}},
		{"OpenHands window", withObs(model.Action{Reads: []model.ObservedRead{rng("/workspace/r__r-1/pkg/a.py", 1, 2)}}, "[File: /workspace/r__r-1/pkg/a.py (40 lines total)]\n1|a = 1\n2|b = 2\n(38 more lines below)"),
			"pkg/a.py", []model.Interval{iv(1, 2)}, map[int]string{2: "b = 2", 40: ""}},
		{"SWE-agent window", withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 10, 11)}}, "[File: /testbed/pkg/a.py (12 lines total)]\n(9 more lines above)\n10:    return x\n11:"),
			"pkg/a.py", []model.Interval{iv(10, 11)}, map[int]string{10: "    return x", 11: ""}},
		// SWE-agent 0.x works in /<owner>__<repo>/ (issue 47 #2).
		{"SWE-agent 0.x window", withObs(model.Action{Reads: []model.ObservedRead{rng("/sympy__sympy/sympy/core/basic.py", 371, 372)}}, "[File: /sympy__sympy/sympy/core/basic.py (372 lines total)]\n(370 more lines above)\n371:    pass\n372:"),
			"sympy/core/basic.py", []model.Interval{iv(371, 372)}, map[int]string{371: "    pass", 372: ""}},
		{"SWE-agent abbreviated view", withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 1, 2), rng("/testbed/pkg/a.py", 9, 9)}}, "<NOTE>This file is too large to display entirely. Showing abbreviated version.</NOTE>\n     1 import os\n     2 \n     3 ... eliding lines 3-8 ...\n     9 x = 9"),
			"pkg/a.py", []model.Interval{iv(1, 2), iv(9, 9)}, map[int]string{1: "import os", 2: "", 3: "", 9: "x = 9"}},
		{"grep -n over files", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 7, 7), rng("pkg/b.py", 7, 7)}}, "pkg/a.py:7:alpha = 1\npkg/b.py:7:beta = 2"),
			"pkg/b.py", []model.Interval{iv(7, 7)}, map[int]string{7: "beta = 2"}},
		{"two files, one listing each", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 1, 2), rng("pkg/b.py", 1, 1)}}, "     1\ta1\n     2\ta2\n     1\tb1"),
			"pkg/b.py", []model.Interval{iv(1, 1)}, map[int]string{1: "b1"}},
		{"plain cat", withObs(model.Action{Reads: []model.ObservedRead{{File: "pkg/a.py", Kind: model.ReadWhole}}}, "<returncode>0</returncode>\n<output>\nimport os\n\nx = 1\n</output>"),
			"pkg/a.py", []model.Interval{iv(1, 3)}, map[int]string{1: "import os", 2: "", 3: "x = 1"}},
		{"plain sed -n", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 5, 6)}}, "five\nsix\n"),
			"pkg/a.py", []model.Interval{iv(5, 6)}, map[int]string{5: "five", 6: "six"}},
		{"plain sed -n, CRLF", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 5, 7)}}, "five\r\n\r\nseven\r\n"),
			"pkg/a.py", []model.Interval{iv(5, 7)}, map[int]string{5: "five", 6: "", 7: "seven"}},
		{"numbered, CRLF", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 1, 2)}}, "     1\tone\r\n     2\ttwo\r\n"),
			"pkg/a.py", []model.Interval{iv(1, 2)}, map[int]string{1: "one", 2: "two"}},
		{"plain sed -n past any file's length", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", math.MaxInt32-1, math.MaxInt32+5)}}, "a\nb\nc\n"),
			"pkg/a.py", nil, nil},
		{"plain output cut short", withObs(model.Action{Reads: []model.ObservedRead{{File: "pkg/a.py", Kind: model.ReadWhole}}}, "<returncode>0</returncode>\n<output_head>\na\n</output_head>\n<elided_chars>\n9</elided_chars>"),
			"pkg/a.py", nil, nil},
		{"a failed read", withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 1, 2)}, Failure: "cat: pkg/a.py: No such file or directory"}, "cat: pkg/a.py: No such file or directory"),
			"pkg/a.py", nil, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := &model.Run{Actions: []model.Action{c.act.Action}, Observations: model.TextList{c.act.obs}}
			tr := observed.Build(run, scoring.GoldPaths(&model.Gold{}, model.ContextBench), "test", nil)
			if got := tr.Known(c.file); !reflect.DeepEqual(got, c.known) {
				t.Errorf("Known(%q) = %v, want %v (files %v)", c.file, got, c.known, tr.Files())
			}
			for n, want := range c.lines {
				if got := lineOf(t, tr, c.file, n); got != want {
					t.Errorf("line %d = %q, want %q", n, got, want)
				}
			}
		})
	}
}

// The tree holds the gold files and what the run showed, under their
// repository paths; paths outside every sandbox root or climbing out are
// not files of it.
func TestBuildNames(t *testing.T) {
	g := &model.Gold{Init: []model.GoldSpan{{File: "src/pkg/a.py", Start: 1, End: 2}, {File: "pkg/../../outside/secret.py", Start: 1, End: 1}}}
	run := &model.Run{Actions: []model.Action{
		{Reads: []model.ObservedRead{rng("/home/u/proj/src/pkg/a.py", 1, 1)}},
		{Reads: []model.ObservedRead{rng("/home/u/proj/src/pkg/b.py", 2, 2)}},
		{Reads: []model.ObservedRead{rng("/usr/lib/python3/os.py", 1, 1)}},
		{Reads: []model.ObservedRead{rng("../up.py", 1, 1)}},
		{Searches: []model.SearchHit{{File: "/testbed/src/c.py", Line: 4}, {File: "/testbed/src/dir"}}},
		{Searches: []model.SearchHit{{File: "/workspace/o__r__1.0/lib/d.py", Line: 1}, {File: "/workspace/src/test/e.py", Line: 1}}},
	}, Observations: model.TextList{"1\ta", "2\tb", "1\tos", "1\tup"}}
	tr := observed.Build(run, scoring.GoldPaths(g, model.ContextBench), "test", nil)
	// b.py is named under the root a.py showed ("/home/u/proj/"); c.py by
	// its grep hit under /testbed; the listed directory is no file. Under
	// /workspace, OpenHands' checkout directory (owner__repo__version) is
	// the root, else /workspace itself: src/ stays.
	want := []string{"lib/d.py", "src/c.py", "src/pkg/a.py", "src/pkg/b.py", "src/test/e.py"}
	if got := tr.Files(); !reflect.DeepEqual(got, want) {
		t.Errorf("Files() = %v, want %v", got, want)
	}
	if got := lineOf(t, tr, "src/pkg/b.py", 2); got != "b" {
		t.Errorf("b.py line 2 = %q", got)
	}
	if tr.Reason() != "test" {
		t.Errorf("Reason() = %q", tr.Reason())
	}
}

// A shown line number far past any real file does not make a file that
// long: the tree's lines are bounded, the rest dropped and reported.
func TestBuildBoundsLines(t *testing.T) {
	run := &model.Run{Actions: []model.Action{
		{Reads: []model.ObservedRead{rng("pkg/a.py", 999999999, 999999999)}},
		{Reads: []model.ObservedRead{rng("pkg/b.py", 1, 1)}},
	}, Observations: model.TextList{"999999999\thuge", "1\tsmall"}}
	tr := observed.Build(run, scoring.GoldPaths(&model.Gold{}, model.ContextBench), "test", nil)
	files := scoring.NewFileCache(tr)
	if n := files.LineCount("pkg/a.py"); n != observed.MaxLines {
		t.Errorf("a.py has %d lines, want the bound %d", n, observed.MaxLines)
	}
	if !reflect.DeepEqual(tr.Truncated, []string{"pkg/a.py", "pkg/b.py"}) || tr.Known("pkg/a.py") != nil {
		t.Errorf("Truncated %v, a.py known %v: want both truncated, nothing of a.py known", tr.Truncated, tr.Known("pkg/a.py"))
	}
	// The budget is spent: what follows gets no lines, but is still a file.
	if n := files.LineCount("pkg/b.py"); n != 0 || !tr.IsFile("pkg/b.py") {
		t.Errorf("b.py: %d lines, file %v", n, tr.IsFile("pkg/b.py"))
	}
}

// sharedFormats is where the real samples are, when this checkout has them.
const sharedFormats = "../../../shared/data/formats/"

// On a real sample of every format that prints numbered lines, the tree
// holds what the run displayed. (Checked against the repositories when
// written: xarray's 91 lines and flask's 260 match the base commit's.)
func TestBuildRealSamples(t *testing.T) {
	if _, err := os.Stat(sharedFormats); err != nil {
		t.Skip("shared data not available")
	}
	cases := []struct {
		file, path string
		known      []model.Interval // a prefix of Known
		line       int
		text       string
	}{
		{"mini-swe-agent-v1/pydata__xarray-4075.traj.json", "xarray/core/weighted.py", []model.Interval{iv(137, 145), iv(160, 210)},
			162, "    def _weighted_mean("},
		// The run cats separable.py whole (no numbers); grep -n later shows
		// line 316 with the same text.
		{"mini-swe-agent-v2/astropy__astropy-12907.traj.json", "astropy/modeling/separable.py", []model.Interval{iv(1, 317)},
			316, "_operators = {'&': _cstack, '|': _cdot, '+': _arith_oper, '-': _arith_oper,"},
		{"swe-agent/pallets__flask-5014.checkpoints.jsonl", "src/flask/blueprints.py", []model.Interval{iv(1, 46), iv(84, 91), iv(115, 251)},
			190, "            root_path=root_path,"},
		// This run's repository was /workspace itself (not OpenHands'
		// /workspace/<owner>__<repo>__<version>/): src/ is the repository's.
		{"openhands/output.jsonl#2", "src/App.css", []model.Interval{iv(1, 79)}, 1, "#root {"},
		{"claude-code/trajectory_pass.json", "maas-controller/pkg/controller/maas/providers_llmisvc.go", []model.Interval{iv(1, 6)},
			2, "Copyright 2025."},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			file, nth, _ := strings.Cut(c.file, "#")
			runs, err := parsers.Load(sharedFormats+file, "")
			if err != nil {
				t.Fatal(err)
			}
			run := &runs[0]
			if nth == "2" {
				run = &runs[1]
			}
			tr := observed.Build(run, scoring.GoldPaths(&model.Gold{}, model.ContextBench), "test", nil)
			known := tr.Known(c.path)
			if len(known) < len(c.known) || !reflect.DeepEqual(known[:len(c.known)], c.known) {
				t.Errorf("Known(%q) = %v, want it to start %v (files %v)", c.path, known, c.known, tr.Files())
			}
			if got := lineOf(t, tr, c.path, c.line); got != c.text {
				t.Errorf("line %d = %q, want %q", c.line, got, c.text)
			}
		})
	}
}

// Without the repository, file and line measures under the reference
// semantics come out as with it: on the demo run every file and line figure
// of both lenses, at every action, is the repository's.
func TestAnalysisMatchesRepository(t *testing.T) {
	fsys := demo.FS()
	names, _ := fs.Glob(fsys, "*.traj.json")
	data, _ := fs.ReadFile(fsys, names[0])
	gdata, _ := fs.ReadFile(fsys, "gold.json")
	set, err := gold.Parse("gold.json", gdata)
	if err != nil {
		t.Fatal(err)
	}
	load := func() (*model.Run, *model.Gold) {
		run, err := miniswe.Parse(names[0], data)
		if err != nil {
			t.Fatal(err)
		}
		g, _ := set.Get(run.InstanceID)
		return run, g
	}
	repo, _ := fs.Sub(fsys, "repo")
	run, g := load()
	want := scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
	run, g = load()
	got := scoring.Analyze(run, g, scoring.NewFileCache(observed.Build(run, scoring.GoldPaths(g, model.ContextBench), "test", nil)), model.ContextBench)
	if got.Partial == nil || want.Partial != nil {
		t.Fatal("Partial is not set for the rebuilt tree alone")
	}
	if got.Computable(model.LensObserved, model.GranSymbol) || got.Computable(model.LensObserved, model.GranSpan) || !got.Computable(model.LensObserved, model.GranLine) {
		t.Error("symbol and span must be non-computable without the repository, line computable")
	}
	for _, l := range model.Lenses {
		w, g := &want.Lenses[l], &got.Lenses[l]
		for _, gr := range []model.Granularity{model.GranFile, model.GranLine} {
			if !reflect.DeepEqual(w.Curve(gr), g.Curve(gr)) {
				t.Errorf("%s lens %s curve\n got %v\nwant %v", l, gr, g.Curve(gr), w.Curve(gr))
			}
			if *w.Result.Final.At(gr) != *g.Result.Final.At(gr) {
				t.Errorf("%s lens final %s = %+v, want %+v", l, gr, *g.Result.Final.At(gr), *w.Result.Final.At(gr))
			}
		}
		for i := range w.Actions {
			if w.Actions[i].NewGold != g.Actions[i].NewGold || w.Actions[i].ReadLines() != g.Actions[i].ReadLines() {
				t.Errorf("%s lens action %d: new gold %d read %d, want %d %d", l, i+1,
					g.Actions[i].NewGold, g.Actions[i].ReadLines(), w.Actions[i].NewGold, w.Actions[i].ReadLines())
			}
		}
	}
}

// obsAction is an action and its output.
type obsAction struct {
	model.Action
	obs string
}

func withObs(a model.Action, obs string) obsAction { return obsAction{a, obs} }

// A run read again as it grows (followed) and rebuilt with a Lines cache
// gives, at every reading, the tree a rebuild from nothing gives: new
// actions are parsed, changed ones (a call whose output has come, reads
// that changed) parsed again, the rest taken from the cache.
func TestBuildWithCacheIsABuild(t *testing.T) {
	acts := []obsAction{
		withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 3, 5)}}, "     3\tx = 1\n     4\ty = 2\n     5\tz = 3"),
		withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/b.py", 1, 2)}}, ""), // running: no output yet
		withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 1, 2)}}, "     1\timport os\n     2\t"),
		withObs(model.Action{Edits: []string{"/testbed/new.py"}}, "ok"),
		withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/new.py", 1, 1)}}, "     1\tmine"),
		withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 3, 3)}}, "     3\tx = 9"),
		// A path under a root only the gold tells (named only when the
		// gold holds a file it ends with), and a search hit of no lines.
		withObs(model.Action{Reads: []model.ObservedRead{rng("/home/u/proj/pkg/b.py", 7, 7)}}, "     7\tb7"),
		withObs(model.Action{Searches: []model.SearchHit{{File: "/testbed/pkg/c.py", Line: 3}}}, "pkg/c.py:3:hit"),
	}
	// A sub-agent's read arriving between earlier actions (a followed
	// run puts actions back in time order).
	inserted := withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 4, 4)}}, "     4\tEARLY")
	full := func(n int, done, insert bool) *model.Run {
		run := &model.Run{}
		var texts model.TextList
		for k, a := range acts[:n] {
			obs := a.obs
			if k == 1 && done {
				obs = "     1\tdef f():\n     2\t    pass"
			}
			if k == 1 && insert {
				run.Actions = append(run.Actions, inserted.Action)
				texts = append(texts, inserted.obs)
			}
			run.Actions = append(run.Actions, a.Action)
			texts = append(texts, obs)
		}
		run.Observations = texts
		return run
	}
	lines := &observed.Lines{}
	for _, step := range []struct {
		n            int
		done, insert bool
		gold         string
	}{{1, false, false, "pkg/a.py"}, {2, false, false, "pkg/a.py"}, {2, true, false, "pkg/a.py"}, {3, true, false, "pkg/a.py"},
		{3, true, false, "pkg/a.py"}, {4, true, false, "pkg/a.py"}, {5, true, false, "pkg/a.py"}, {6, true, false, "pkg/a.py"},
		{6, true, true, "pkg/a.py"}, {6, true, true, "pkg/b.py"}, {6, false, false, "pkg/b.py"}, {6, true, false, "pkg/b.py"},
		{7, true, false, "pkg/b.py"}, {8, true, false, "pkg/b.py"}, {8, true, false, "pkg/a.py"}, {8, true, false, "pkg/b.py"}, {8, true, false, "pkg/b.py"}} {
		run := full(step.n, step.done, step.insert)
		want, got := observed.Build(run, []string{step.gold}, "r", nil), observed.Build(run, []string{step.gold}, "r", lines)
		for _, f := range want.Files() {
			wb, _ := want.ReadFile(f)
			gb, _ := got.ReadFile(f)
			if string(wb) != string(gb) || !reflect.DeepEqual(want.Known(f), got.Known(f)) {
				t.Errorf("%+v: %s is %q (known %v), want %q (%v)", step, f, gb, got.Known(f), wb, want.Known(f))
			}
		}
		if !reflect.DeepEqual(want.Files(), got.Files()) || !reflect.DeepEqual(want.Truncated, got.Truncated) {
			t.Errorf("%+v: files %v, want %v", step, got.Files(), want.Files())
		}
		for _, f := range []string{"pkg/a.py", "pkg/b.py", "pkg/c.py", "new.py"} {
			if want.IsFile(f) != got.IsFile(f) {
				t.Errorf("%+v: %s a file: %v, want %v", step, f, got.IsFile(f), want.IsFile(f))
			}
		}
	}
}

// Same tells a rebuilt tree from one that holds what it holds: a run grown
// by an action that showed nothing new rebuilds the same tree; one more
// line, another line's text, another file or another reason does not.
func TestTreeSame(t *testing.T) {
	read := withObs(model.Action{Reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 3, 4)}}, "     3\tx = 1\n     4\ty = 2")
	build := func(reason string, acts ...obsAction) *observed.Tree {
		run := &model.Run{}
		var texts model.TextList
		for _, a := range acts {
			run.Actions = append(run.Actions, a.Action)
			texts = append(texts, a.obs)
		}
		run.Observations = texts
		return observed.Build(run, []string{"pkg/gold.py"}, reason, nil)
	}
	base := build("no repository", read)
	for _, c := range []struct {
		name string
		tree *observed.Tree
		same bool
	}{
		{"built again", build("no repository", read), true},
		{"a search after", build("no repository", read, withObs(model.Action{Command: "ls"}, "a.py")), true},
		{"the same lines read again", build("no repository", read, read), true},
		{"one more line", build("no repository", read, withObs(model.Action{Reads: []model.ObservedRead{rng("pkg/a.py", 5, 5)}}, "     5\tz = 3")), false},
		{"a line's text", build("no repository", withObs(read.Action, "     3\tx = 9\n     4\ty = 2")), false},
		{"another file", build("no repository", read, withObs(model.Action{Reads: []model.ObservedRead{rng("b.py", 1, 1)}}, "     1\tb")), false},
		{"another reason", build("the repository is gone", read), false},
		{"another file named, none shown", build("no repository", withObs(model.Action{Reads: []model.ObservedRead{{File: "c.py", Kind: model.ReadWhole}}}, "")), false},
		{"no tree", nil, false},
	} {
		if got, back := base.Same(c.tree), c.tree.Same(base); got != c.same || back != c.same {
			t.Errorf("%s: Same %v, and the other way %v; want %v", c.name, got, back, c.same)
		}
	}
}
