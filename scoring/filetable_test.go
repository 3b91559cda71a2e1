package scoring

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// tableOf is the table of a map's entries, added in a random order.
func tableOf(m fileIntervals) *IntervalTable {
	var b tableBuilder
	for f, ivs := range m {
		for _, iv := range ivs {
			b.add(f, iv)
		}
	}
	return b.build()
}

// TestIntervalTable: a table built from pairs in any order answers as the
// map the gold used to be (entries in the order added, merged as mergeAll
// merged them), and iterates files in sorted order.
func TestIntervalTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	files := []string{"a.py", "b/c.py", "b.py", "z", ""}
	for trial := range 300 {
		want := fileIntervals{}
		var b tableBuilder
		for range rng.IntN(12) {
			f := files[rng.IntN(len(files))]
			s := rng.IntN(20)
			iv := model.Interval{Start: s, End: s + rng.IntN(6) - 1} // some reversed
			want.add(f, iv)
			b.add(f, iv)
		}
		tab := b.build()
		if tab.Len() != len(want) {
			t.Fatalf("trial %d: Len %d, want %d", trial, tab.Len(), len(want))
		}
		got := map[string][]model.Interval{}
		var order []string
		for f, ivs := range tab.All() {
			got[f] = slices.Clone(ivs)
			order = append(order, f)
		}
		if !reflect.DeepEqual(got, map[string][]model.Interval(want)) {
			t.Fatalf("trial %d: table %v, want %v", trial, got, want)
		}
		if !slices.IsSorted(order) {
			t.Fatalf("trial %d: files in order %q", trial, order)
		}
		for _, f := range append(files, "nope") {
			ivs, ok := tab.Get(f)
			if w, wok := want[f]; ok != wok || !slices.Equal(ivs, w) || tab.Has(f) != wok {
				t.Fatalf("trial %d: Get(%q) = %v, %v; want %v, %v", trial, f, ivs, ok, w, wok)
			}
		}
		tab = tab.merged()
		want.mergeAll()
		for f, w := range want {
			if ivs, _ := tab.Get(f); !slices.Equal(ivs, w) {
				t.Fatalf("trial %d: merged %q = %v, want %v", trial, f, ivs, w)
			}
		}
		if tab.total() != want.total() {
			t.Fatalf("trial %d: total %d, want %d", trial, tab.total(), want.total())
		}
		// A caller's append never writes into the next file's intervals.
		if k := slices.Index(slices.Collect(maps.Keys(want)), "a.py"); k >= 0 && tab.Len() > 1 {
			ivs, _ := tab.Get("a.py")
			_ = append(ivs, model.Interval{Start: -9, End: -9})
			for f, w := range want {
				if got, _ := tab.Get(f); !slices.Equal(got, w) {
					t.Fatalf("trial %d: append to a.py changed %q", trial, f)
				}
			}
		}
	}
}
