package viewdata

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/testkit/benchgen"
)

// A followed session's next reading goes on from the last one's Data
// (Next): at every reading it is what New makes of the reading, with and
// without the repository, with the lead's lines landing at the end and,
// with sub-agents' transcripts written ahead, among their actions.
func TestNextIsNew(t *testing.T) {
	gen := benchgen.New(benchgen.Options{Actions: 10, GoldFiles: 3, OtherFiles: 6, Lines: 300})
	for _, c := range []struct {
		name string
		subs int
		repo bool
	}{{"lead", 0, false}, {"lead-repo", 0, true}, {"agents-ahead", 3, false}, {"agents-ahead-repo", 3, true}} {
		t.Run(c.name, func(t *testing.T) {
			lead, subs := gen.ClaudeSession(90, c.subs)
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			if err := benchgen.WriteSubagents(path, subs); err != nil {
				t.Fatal(err)
			}
			lines := strings.SplitAfter(string(lead), "\n")
			os.WriteFile(path, []byte(strings.Join(lines[:4], "")), 0o644)
			set, err := runset.New([]string{path}, runset.Reading{})
			if err != nil {
				t.Fatal(err)
			}
			o := runset.Options{Sem: model.ContextBench}
			if c.repo {
				repo := t.TempDir()
				for p, text := range gen.Files {
					p = filepath.Join(repo, filepath.FromSlash(p))
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, []byte(text), 0o644)
				}
				o.Checkouts = source.NewCheckouts(source.CheckoutOptions{Repo: repo})
			}
			set.Prepare(o)
			set.LoadAll()
			r := rand.New(rand.NewPCG(7, 9))
			var prev *Data
			kept, readings := 0, 0
			for at := 4; at < len(lines); {
				n := min(1+r.IntN(6), len(lines)-at)
				f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				f.WriteString(strings.Join(lines[at:at+n], ""))
				f.Close()
				at += n
				st, err := set.Follow(1)
				if err != nil || st == nil || len(st.A.Run.Actions) == 0 {
					continue
				}
				readings++
				if prev != nil && prev.A.Files == st.A.Files && prev.A.Gold == st.A.Gold && prev.samePrefix(st.A) > 0 {
					kept++
				}
				got, want := Next(st, prev), New(st)
				if diff := dataDiff(got, want); diff != "" {
					t.Fatalf("reading %d (%d actions): %s", readings, want.N, diff)
				}
				prev = got
			}
			t.Logf("%d of %d readings went on from the last", kept, readings)
			if kept < readings/3 {
				t.Fatalf("only %d of %d readings went on from the last", kept, readings)
			}
		})
	}
}

// Next undoes what the last reading's actions after the kept ones made:
// readings whose actions change in the middle (one inserted, one
// removed, one given other reads), others appended, a gold that changes,
// against one repository whose cache keeps steps (as a followed run's).
func TestNextAfterChangesInTheMiddle(t *testing.T) {
	fsys := fstest.MapFS{}
	paths := []string{"a.py", "b.py", "pkg/c.py", "d.py"}
	for k, p := range paths {
		fsys[p] = &fstest.MapFile{Data: []byte(strings.Repeat(fmt.Sprintf("x%d = 1\n", k), 60))}
	}
	files := scoring.NewFileCache(source.NewFS(fsys))
	files.RememberSteps()
	r := rand.New(rand.NewPCG(3, 5))
	action := func() model.Action {
		p := paths[r.IntN(len(paths))]
		switch r.IntN(6) {
		case 0:
			return model.Action{Tool: "grep", Category: model.CategorySearch, Searches: []model.SearchHit{{File: p, Line: r.IntN(60)}}}
		case 1:
			return model.Action{Tool: "edit", Category: model.CategoryEdit, Edits: []string{p}, Changes: []model.Change{{File: p, Kind: model.ChangeReplace, Old: "x", New: "y"}}}
		case 2:
			return model.Action{Tool: "submit", Category: model.CategorySubmit}
		}
		s := 1 + r.IntN(55)
		return model.Action{Tool: "read", Category: model.CategoryRead, Reads: []model.ObservedRead{{File: p, Kind: model.ReadRange, Start: s, End: s + r.IntN(10)}}}
	}
	var acts []model.Action
	var prev *Data
	changed := 0
	for reading := range 80 {
		switch k := r.IntN(5); {
		case len(acts) < 3 || k == 0:
			acts = append(acts, action(), action())
		case k == 1:
			i := r.IntN(len(acts))
			acts = slices.Insert(slices.Clone(acts), i, action())
			changed++
		case k == 2:
			i := r.IntN(len(acts))
			acts = slices.Delete(slices.Clone(acts), i, i+1)
			changed++
		case k == 3:
			acts = slices.Clone(acts)
			acts[r.IntN(len(acts))] = action()
			changed++
		default:
			acts = append(acts, action())
		}
		g := &model.Gold{ID: "x", Init: []model.GoldSpan{{File: "a.py", Start: 3, End: 20}, {File: "pkg/c.py", Start: 10, End: 12}}}
		if reading >= 60 {
			g.Init = []model.GoldSpan{{File: "d.py", Start: 1, End: 30}}
		}
		run := &model.Run{InstanceID: "x", Actions: slices.Clone(acts)}
		run.Prediction.Steps, run.Prediction.Final = (*observed.Memo)(nil).Declare(run.Actions)
		st := story.Tell(scoring.Analyze(run, g, files, model.ContextBench))
		got, want := Next(st, prev), New(st)
		if diff := dataDiff(got, want); diff != "" {
			t.Fatalf("reading %d (%d actions): %s", reading, want.N, diff)
		}
		prev = got
	}
	if changed < 20 {
		t.Fatalf("only %d readings changed an action in the middle", changed)
	}
}

// dataDiff says where got and want differ; files got made that want has
// not must hold no read (a file made when something asked for it).
func dataDiff(got, want *Data) string {
	for f, w := range want.files {
		if g := got.files[f]; !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("file %s:\n got %+v\nwant %+v", f, g, w)
		}
	}
	for f, g := range got.files {
		if want.files[f] == nil {
			for _, l := range model.Lenses {
				if g.FirstAny(l) != Never || g.Final[l] != nil {
					return fmt.Sprintf("file %s, made before, still read", f)
				}
			}
		}
	}
	g, w := *got, *want
	g.files, w.files = nil, nil
	if len(g.edits) == 0 && len(w.edits) == 0 {
		g.edits, w.edits = nil, nil
	}
	if !reflect.DeepEqual(g, w) {
		gv, wv := reflect.ValueOf(g), reflect.ValueOf(w)
		for i := range gv.NumField() {
			// Unexported fields are read by fmt, not compared by value.
			if a, b := fmt.Sprintf("%+v", gv.Field(i)), fmt.Sprintf("%+v", wv.Field(i)); a != b {
				return fmt.Sprintf("%s:\n got %s\nwant %s", gv.Type().Field(i).Name, a, b)
			}
		}
		return "they differ"
	}
	return ""
}
