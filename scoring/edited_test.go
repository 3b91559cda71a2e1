package scoring_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// A gold made of changes is located in the file as it was before them:
// context lines set aside, later edits mapped back through earlier ones,
// lines the run wrote and files it created never a target.
func TestLocateChanges(t *testing.T) {
	var lines []string
	for i := 1; i <= 10; i++ {
		lines = append(lines, "l"+string(rune('0'+i%10)))
	}
	lines[9] = "l10"
	base := strings.Join(lines, "\n") + "\n"
	replace := func(old, nw string) model.Change {
		return model.Change{File: "/testbed/a.py", Kind: model.ChangeReplace, Old: old, New: nw}
	}
	type region struct {
		start, end int
		action     int32
	}
	for _, c := range []struct {
		name      string
		changes   []model.Change
		want      []region
		unlocated int
	}{
		{"context set aside", []model.Change{replace("l3\nl4\nl5", "l3\nX\nl5")}, []region{{4, 4, 0}}, 0},
		{"insert anchors to the line before", []model.Change{{File: "a.py", Kind: model.ChangeInsert, Line: 6, New: "new"}}, []region{{6, 6, 0}}, 0},
		{"added at the top anchors to line 1", []model.Change{replace("l1", "a\nb\nl1")}, []region{{1, 1, 0}}, 0},
		{"later edits map back", []model.Change{replace("l1", "a\nb\nl1"), replace("l8", "L8")}, []region{{1, 1, 0}, {8, 8, 1}}, 0},
		{"lines the run wrote are no target", []model.Change{replace("l4", "X"), replace("X", "Y")}, []region{{4, 4, 0}}, 0},
		{"a deleted line", []model.Change{replace("l7\n", "")}, []region{{7, 7, 0}}, 0},
		{"a rewritten file", []model.Change{{File: "a.py", Kind: model.ChangeWhole, New: strings.Replace(base, "l9", "L9", 1)}}, []region{{9, 9, 0}}, 0},
		{"first to last changed line", []model.Change{replace("l2\nl3\nl4", "L2\nl3\nL4")}, []region{{2, 4, 0}}, 0},
		{"text not in the file", []model.Change{replace("nope", "x"), replace("l2", "L2")}, []region{{2, 2, 1}}, 1},
		{"a created file", []model.Change{{File: "b.py", Kind: model.ChangeWhole, New: "x\n"}}, nil, 0},
		{"appended lines anchor to the last line", []model.Change{{File: "a.py", Kind: model.ChangeAppend, New: "x\ny\n"}}, []region{{10, 10, 0}}, 0},
		{"an append after a replace", []model.Change{replace("l10", "L10"), {File: "a.py", Kind: model.ChangeAppend, New: "x\n"}}, []region{{10, 10, 0}}, 0},
		{"an unrecorded write is not placed", []model.Change{{File: "a.py", Kind: model.ChangeWhole, Unrecorded: true}, replace("l2", "L2")}, []region{{2, 2, 1}}, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte(base)}}))
			run := &model.Run{InstanceID: "x"}
			for _, ch := range c.changes {
				run.Actions = append(run.Actions, model.Action{Command: "edit", Category: model.CategoryEdit, Changes: []model.Change{ch}})
			}
			a := scoring.Analyze(run, model.EditsGold(run), files, model.ContextBench)
			var got []region
			for _, e := range a.Gold.Edited {
				if e.File != "a.py" {
					t.Fatalf("region in %q", e.File)
				}
				got = append(got, region{e.Lines.Start, e.Lines.End, e.Action})
			}
			if !reflect.DeepEqual(got, c.want) || a.Gold.Unlocated != c.unlocated {
				t.Errorf("regions %v (unlocated %d), want %v (%d)", got, a.Gold.Unlocated, c.want, c.unlocated)
			}
			if a.Gold.From != model.GoldFromEdits || a.GoldEmpty() != (len(c.want) == 0) {
				t.Errorf("from %v, empty %v", a.Gold.From, a.GoldEmpty())
			}
		})
	}
}

// Without the repository, a change of a file the run never displayed is a
// change not found, not nothing (issue 47 #4); a file the run never named
// before writing the whole of it is one it created, and later changes of
// it are no target either.
func TestLocateWithoutRepository(t *testing.T) {
	run := &model.Run{InstanceID: "x"}
	add := func(cmd string, c model.Change) {
		run.Actions = append(run.Actions, model.Action{Command: cmd, Category: model.CategoryEdit, Changes: []model.Change{c}})
	}
	run.Actions = append(run.Actions, model.Action{Command: "cat shown.py", Category: model.CategoryRead,
		Reads: []model.ObservedRead{{File: "shown.py", Kind: model.ReadRange, Start: 1, End: 2}}})
	obs := model.TextList{"     1\talpha\n     2\tbeta\n"}
	add("edit shown", model.Change{File: "shown.py", Kind: model.ChangeReplace, Old: "beta", New: "BETA"})
	add("apply_patch", model.Change{File: "src/a.go", Kind: model.ChangeReplace, Old: "return 1", New: "return 2"})
	add("echo >> notes", model.Change{File: "notes.txt", Kind: model.ChangeAppend, New: "x\n"})
	// Listed first, the file is the repository's: writing it whole is a
	// change of it.
	run.Actions = append(run.Actions, model.Action{Command: "ls src", Category: model.CategorySearch,
		Searches: []model.SearchHit{{File: "src/c.txt", Line: 1}}})
	add("tee c.txt", model.Change{File: "src/c.txt", Kind: model.ChangeWhole, Unrecorded: true})
	add("make out", model.Change{File: "out.txt", Kind: model.ChangeWhole, Unrecorded: true})
	add("write new", model.Change{File: "new.py", Kind: model.ChangeWhole, New: "a = 1\n"})
	add("edit new", model.Change{File: "new.py", Kind: model.ChangeReplace, Old: "a = 1", New: "a = 2"})
	for range run.Actions[1:] {
		obs = append(obs, "")
	}
	run.Observations = obs
	g := model.EditsGold(run)
	files := scoring.Rebuilt(run, g, model.ContextBench, "no --repo or --cache given", nil)
	a := scoring.Analyze(run, g, files, model.ContextBench)
	if len(a.Gold.Edited) != 1 || a.Gold.Edited[0].File != "shown.py" || a.Gold.Edited[0].Lines != (model.Interval{Start: 2, End: 2}) {
		t.Errorf("regions %+v", a.Gold.Edited)
	}
	if a.Gold.Unlocated != 3 || a.Gold.SoughtIn != "in what the run displayed" {
		t.Errorf("unlocated %d %q, want 3 in what the run displayed", a.Gold.Unlocated, a.Gold.SoughtIn)
	}
}

// A cache that keeps steps (a followed run) keeps the gold it prepared: a
// run whose edits grow, one at a time, is analysed against the gold a
// cache that keeps nothing prepares at every reading, and its regions
// follow the edits; the gold kept once, whatever the edits, fails it.
func TestKeptGoldFollowsTheEdits(t *testing.T) {
	base := "l1\nl2\nl3\nl4\nl5\nl6\n"
	tree := source.NewFS(fstest.MapFS{"a.py": {Data: []byte(base)}})
	for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
		kept := scoring.NewFileCache(tree)
		kept.RememberSteps()
		run := &model.Run{InstanceID: "x"}
		for i, line := range []string{"l2", "l5", "l5", "l1"} {
			if i != 2 { // the third reading adds nothing: the gold is the same
				run.Actions = append(run.Actions, model.Action{Command: "edit", Category: model.CategoryEdit,
					Changes: []model.Change{{File: "a.py", Kind: model.ChangeReplace, Old: line, New: "X" + line}}})
			}
			got := scoring.Analyze(run, model.EditsGold(run), kept, sem).Gold
			want := scoring.Analyze(run, model.EditsGold(run), scoring.NewFileCache(tree), sem).Gold
			if !reflect.DeepEqual(got, want) {
				t.Errorf("reading %d, %v:\n got %+v\nwant %+v", i+1, sem, got, want)
			}
		}
	}
}

// cloneGold shares no slice of model.Gold with the gold it copies: a
// slice field added later and not copied fails here.
func TestCloneGoldSharesNothing(t *testing.T) {
	g := model.Gold{Init: []model.GoldSpan{{File: "a"}}, Add: []model.GoldSpan{{File: "b"}}, Files: []string{"c"},
		Symbols: []model.FileSymbols{{File: "d", Symbols: []string{"e"}}}, Changes: []model.Change{{File: "f"}}, ChangedAt: []int32{1}}
	c := scoring.CloneGold(&g)
	gv, cv := reflect.ValueOf(g), reflect.ValueOf(c)
	for i := range gv.NumField() {
		if f := gv.Field(i); f.Kind() == reflect.Slice {
			if f.Len() == 0 {
				t.Errorf("%s: give it an element here", gv.Type().Field(i).Name)
			} else if f.Pointer() == cv.Field(i).Pointer() {
				t.Errorf("%s is shared", gv.Type().Field(i).Name)
			}
		}
	}
	if &c.Symbols[0].Symbols[0] == &g.Symbols[0].Symbols[0] {
		t.Error("a symbol list is shared")
	}
}

// The steps naming each file, kept by a cache that keeps steps, are at
// every reading of a run that grows (its last action's result arriving,
// a rewrite read again) those a cache that keeps nothing lists, under both
// lenses and semantics in turn, and their lines are the steps' lines
// merged; so are the lines each action put in view, where, and its
// counters (new gold lines, re-read lines, the sums), against a gold that
// changes once. Keeping every step's entries, or an action's lines or
// counters, whatever changed fails it.
func TestStepsOfKeptIsStepsOf(t *testing.T) {
	var a, b strings.Builder
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&a, "def f%d():\n", i)
	}
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "x%d = %d\n", i, i)
	}
	tree := source.NewFS(fstest.MapFS{"pkg/a.py": {Data: []byte(a.String())}, "b.py": {Data: []byte(b.String())}})
	files := []string{"b.py", "pkg/a.py"}
	paths := []string{"pkg/a.py", "/testbed/pkg/a.py", "b.py", "gone.py"}
	kinds := []model.ReadKind{model.ReadRange, model.ReadWhole, model.ReadHead, model.ReadTail}
	kept, declared := scoring.NewFileCache(tree), observed.NewMemo(nil)
	kept.RememberSteps()
	r := rand.New(rand.NewPCG(7, 1))
	var acts []model.Action
	// The first-read tables given before stay as they were given.
	type given struct {
		t    []int32
		copy []int32
	}
	var tables []given
	for reading := range 60 {
		switch k := r.IntN(4); {
		case k == 0 && len(acts) > 0:
			acts[len(acts)-1].Reads = nil // a call whose result has not come
		case k == 1 && len(acts) > 2:
			acts = acts[:len(acts)-2]
		}
		for range r.IntN(3) {
			var act model.Action
			for range r.IntN(3) {
				s := 1 + r.IntN(45)
				act.Reads = append(act.Reads, model.ObservedRead{File: paths[r.IntN(len(paths))], Kind: kinds[r.IntN(len(kinds))], Start: s, End: s + r.IntN(8)})
			}
			acts = append(acts, act)
		}
		sem := []model.Semantics{model.ContextBench, model.Fixed}[reading/20%2]
		analyse := func(files *scoring.FileCache, memo *observed.Memo) *scoring.Analysis {
			run := &model.Run{InstanceID: "x", Actions: slices.Clone(acts)}
			run.Prediction.Steps, run.Prediction.Final = memo.Declare(run.Actions) // as a followed reader's
			// Gold lines of both files, other lines for the last third of
			// the readings: the kept counting of new gold lines is of the
			// gold it was counted against.
			g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "pkg/a.py", Start: 3, End: 12}, {File: "b.py", Start: 1, End: 2}}}
			if reading >= 40 {
				g.Init = []model.GoldSpan{{File: "pkg/a.py", Start: 20, End: 30}}
			}
			return scoring.Analyze(run, g, files, sem)
		}
		got, want := analyse(kept, declared), analyse(scoring.NewFileCache(tree), nil)
		for _, l := range model.Lenses {
			for i := range got.Lenses[l].Actions {
				if g, w := got.Lenses[l].Actions[i], want.Lenses[l].Actions[i]; !reflect.DeepEqual(g, w) {
					t.Fatalf("reading %d, %v, lens %v, action %d:\n got %+v\nwant %+v", reading, sem, l, i+1, g, w)
				}
			}
			if g, w := [2]int{got.Lenses[l].Reads, got.Lenses[l].GoldReads}, readsOf(want, l); g != w {
				t.Fatalf("reading %d, %v, lens %v: reads and gold reads %v, counted from the actions %v", reading, sem, l, g, w)
			}
			for _, f := range files {
				g, w := got.FirstReads(l, f), want.FirstReads(l, f)
				if !slices.Equal(g, w) {
					t.Fatalf("reading %d, %v, lens %v, %s: first reads\n got %v\nwant %v", reading, sem, l, f, g, w)
				}
				tables = append(tables, given{g, slices.Clone(g)})
			}
			for k, tb := range tables {
				if !slices.Equal(tb.t, tb.copy) {
					t.Fatalf("reading %d: first-read table %d changed after it was given", reading, k)
				}
			}
			if g, w := got.InViewOf(l, files), want.InViewOf(l, files); !reflect.DeepEqual(g, w) {
				t.Fatalf("reading %d, %v, lens %v, lines in view:\n got %v\nwant %v", reading, sem, l, g, w)
			}
			g, w := got.StepsOf(l, files), want.StepsOf(l, files)
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("reading %d, %v, lens %v:\n got %v\nwant %v", reading, sem, l, g, w)
			}
			for f, fs := range g {
				var all []model.Interval
				for _, st := range fs.Steps {
					all = append(all, st.Lines...)
				}
				if u := model.MergeIntervals(all); !slices.Equal(fs.Lines, u) {
					t.Fatalf("reading %d, %v, lens %v, %s: lines %v, the steps' merged %v", reading, sem, l, f, fs.Lines, u)
				}
			}
		}
	}
	// The same actions, their ContextBench steps other lines (a record's
	// steps read again): the lens's lines are the new steps'.
	run := &model.Run{InstanceID: "x", Actions: slices.Clone(acts)}
	run.Prediction.Steps, run.Prediction.Final = declared.Declare(run.Actions)
	scoring.Analyze(run, &model.Gold{}, kept, model.ContextBench)
	again := &model.Run{InstanceID: "x", Actions: run.Actions, Prediction: run.Prediction}
	again.Prediction.Steps = slices.Clone(run.Prediction.Steps)
	for k := range again.Prediction.Steps {
		again.Prediction.Steps[k] = model.Step{Files: []string{"b.py"}, Spans: []model.FileSpans{{File: "b.py", Spans: []model.Interval{{Start: 2, End: 3}}}}}
	}
	got := scoring.Analyze(again, &model.Gold{}, kept, model.ContextBench)
	for i, v := range got.Lenses[model.LensContextBench].Actions {
		for _, fl := range v.Lines {
			if fl.File != "b.py" || !slices.Equal(fl.Spans, []model.Interval{{Start: 2, End: 3}}) {
				t.Fatalf("steps read again: action %d's lines %v, want b.py 2-3", i+1, v.Lines)
			}
		}
	}
}

// readsOf counts lens l's actions that put lines in view, and those whose
// lines meet the gold's, from the actions' lines.
func readsOf(a *scoring.Analysis, l model.Lens) [2]int {
	var n [2]int
	for _, v := range a.Lenses[l].Actions {
		if len(v.Lines) == 0 {
			continue
		}
		n[0]++
		for _, fl := range v.Lines {
			if gl, ok := a.Gold.Lines.Get(fl.File); ok && model.IntersectLength(gl, fl.Spans) > 0 {
				n[1]++
				break
			}
		}
	}
	return n
}
