package scoring

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/symbols"
	"github.com/trajscope/trajscope/source"
)

// TestCumulativeMatchesUpstream checks the incremental union against
// upstream's way (merge the whole union, then sweep) on random steps over a
// few files, with and without reversed intervals, adjacency and overlaps.
func TestCumulativeMatchesUpstream(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	randIvs := func(n int, reversed bool) []model.Interval {
		var out []model.Interval
		for range n {
			a := rng.IntN(200)
			b := a + rng.IntN(15)
			if reversed && rng.IntN(8) == 0 {
				a, b = b+1, a // reversed, as upstream line spans may be
			}
			out = append(out, model.Interval{Start: a, End: b})
		}
		return model.MergeIntervals(out)
	}
	files := []string{"a.py", "b.py", "c.py"}
	for trial := range 400 {
		reversed := trial%2 == 1
		gold := FileIntervals{}
		for _, f := range files[:2] {
			if ivs := randIvs(rng.IntN(6), reversed && trial%4 == 1); len(ivs) > 0 {
				gold[f] = ivs
			}
		}
		c := newCumulative(gold)
		naive := FileIntervals{}
		for step := range 30 {
			f := files[rng.IntN(len(files))]
			ivs := randIvs(1+rng.IntN(4), reversed && trial%4 == 3)
			before := naive[f]
			wantAgain := model.IntersectLength(ivs, before)
			wantNew := model.IntersectLength(ivs, gold[f]) - model.IntersectLength(model.IntersectIntervals(ivs, gold[f]), before)
			again, newGold := c.add(f, ivs)
			naive[f] = model.MergeIntervals(append(append([]model.Interval(nil), before...), ivs...))
			if again != wantAgain || newGold != wantNew {
				t.Fatalf("trial %d step %d: add(%s, %v) to %v = again %d, new gold %d; want %d, %d", trial, step, f, ivs, before, again, newGold, wantAgain, wantNew)
			}
			if c.inter != naive.intersect(gold) || c.total != naive.total() {
				t.Fatalf("trial %d step %d: inter %d total %d, want %d %d", trial, step, c.inter, c.total, naive.intersect(gold), naive.total())
			}
			if !reflect.DeepEqual(c.files[f].ivs, naive[f]) {
				t.Fatalf("trial %d step %d: union %v, want %v", trial, step, c.files[f].ivs, naive[f])
			}
		}
	}
}

// TestDefIndexMatchesScan checks the indexed overlap query against the plain
// scan over every definition, under both semantics, on random nested and
// overlapping definitions (including empty ones) and random merged spans.
func TestDefIndexMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for trial := range 300 {
		var defs []symbols.Def
		for range rng.IntN(40) {
			s := rng.IntN(300)
			defs = append(defs, symbols.Def{Type: "function_definition", Start: s, End: s + rng.IntN(60)})
		}
		var spans []model.Interval
		for range rng.IntN(6) {
			a := rng.IntN(320)
			spans = append(spans, model.Interval{Start: a, End: a + rng.IntN(20)})
		}
		spans = model.MergeIntervals(spans)
		for _, sem := range []model.Semantics{model.ContextBench, model.Fixed} {
			want := symbolSet{}
			for _, d := range defs {
				end := d.End
				if sem == model.Fixed {
					end--
				}
				for _, iv := range spans {
					if iv.End >= d.Start && end >= iv.Start {
						want[symbolKey{"f.py", d.Type, d.Start, d.End}] = struct{}{}
						break
					}
				}
			}
			f := NewFileCache(source.NewFS(fstest.MapFS{"f.py": {Data: []byte("x\n")}}))
			fi := f.info("f.py")
			fs := fi.syms()
			fs.defsOnce.Do(func() { fs.defs = defs })
			got := (scorer{f, sem}).defsInSpans(maps.All(FileIntervals{"f.py": spans}))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d %v: defs %v spans %v: got %v, want %v", trial, sem, defs, spans, got, want)
			}
		}
	}
}
