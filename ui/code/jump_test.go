package code

import (
	"testing"

	"github.com/trajscope/trajscope/testkit/demotask"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// ] to a gold span already on screen at the bottom edge scrolls it up; a
// span already in full view stays where it is.
func TestJumpKeepsSpanOffBottomEdge(t *testing.T) {
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	th, _ := themes.Get("dark", true, false)
	m := New(&pane.Context{Data: viewdata.New(story.Tell(a)), Theme: th})
	m.SetSize(80, 21)                     // 20 source rows
	const file = "pricebook/discounts.py" // gold 49-62 next
	for _, c := range []struct {
		top, wantTop int
	}{
		{30, 44}, // 49 is the last row: it moves to a quarter down
		{45, 45}, // 49-62 already in view: nothing moves
	} {
		m.Show(file, 1)
		m.top, m.cursor = c.top, c.top
		status := m.JumpGold(1, false)
		if f, l := m.File(); f != file || l != 49 || m.top != c.wantTop {
			t.Errorf("from top %d: %q, at %s:%d with top %d, want 49 with top %d", c.top, status, f, l, m.top, c.wantTop)
		}
	}
}

// A picked file opens where the run was in it: what the current step read,
// else its gold, else what was read of it at all; not at line 1.
func TestPickedFileLanding(t *testing.T) {
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	th, _ := themes.Get("dark", true, false)
	ctx := &pane.Context{Data: viewdata.New(story.Tell(a)), Theme: th, Lens: model.LensObserved}
	m := New(ctx)
	m.SetSize(80, 21)
	for _, c := range []struct {
		step int // 1-based
		file string
		want int
	}{
		{1, "pricebook/cart.py", 45}, // gold 45-49, not read yet
		{6, "pricebook/cart.py", 40}, // step 6 reads 40-65
		{1, "pricebook/tax.py", 7},   // a grep hit showed line 7 first
		{17, "pricebook/tax.py", 19}, // step 17 reads 19-31
		{1, "README.md", 12},         // gold, never read
	} {
		ctx.Cur = c.step - 1
		if got := m.landing(c.file); got != c.want {
			t.Errorf("step %d, %s: lands at %d, want %d", c.step, c.file, got, c.want)
		}
	}
}
