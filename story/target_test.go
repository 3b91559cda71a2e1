package story

import (
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Without gold the run's edits are its target: each region says whether
// it was read before its edit, and reads no edit used are counted.
func TestTargetFromEdits(t *testing.T) {
	base := "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"
	files := scoring.NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: []byte(base)}, "b.py": {Data: []byte("b\n")}}))
	read := func(file string, s, e int) model.Action {
		return model.Action{Command: "sed", Category: model.CategoryRead, Reads: []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}}
	}
	edit := func(old, nw string) model.Action {
		return model.Action{Command: "edit", Category: model.CategoryEdit, Changes: []model.Change{{File: "a.py", Old: old, New: nw}}}
	}
	run := &model.Run{InstanceID: "x", Actions: []model.Action{
		read("a.py", 1, 5),       // 0: read lines 1-5
		read("b.py", 1, 1),       // 1: a read no edit uses
		edit("l4", "L4"),         // 2: read at 0
		edit("l9", "L9"),         // 3: blind
		edit("l5\nl6", "L5\nL6"), // 4: line 5 read, line 6 not
	}}
	st := Tell(scoring.Analyze(run, model.EditsGold(run), files, model.ContextBench))
	if st.Target.From != model.GoldFromEdits {
		t.Fatalf("target from %v", st.Target.From)
	}
	tg := st.Target.Lenses[model.LensObserved]
	if len(tg.Edits) != len(st.Gold.Spans) {
		t.Fatalf("target %+v for %d spans", tg, len(st.Gold.Spans))
	}
	want := map[int]EditRead{4: {EditedAt: 2, ReadAt: 0, LinesRead: 1}, 5: {EditedAt: 4, ReadAt: 0, LinesRead: 1}, 9: {EditedAt: 3, ReadAt: -1}}
	got := map[int]EditRead{}
	for k := range st.Gold.Spans {
		got[st.Gold.Spans[k].Start()] = tg.Edits[k]
	}
	for start, w := range want {
		if got[start] != w {
			t.Errorf("region at %d: %+v, want %+v", start, got[start], w)
		}
	}
	// Regions 4, 5-6 and 9: four lines, two of them read before their edit.
	if tg.Lines != 4 || tg.ReadBefore != 2 || tg.Blind != 1 || tg.Reads != 2 || tg.Unused != 1 {
		t.Errorf("lines %d read %d blind %d reads %d unused %d; want 4 2 1 2 1", tg.Lines, tg.ReadBefore, tg.Blind, tg.Reads, tg.Unused)
	}
}
