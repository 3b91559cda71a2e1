package ui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/runset"
	"github.com/trajscope/trajscope/story"
)

// runs is a fixed list for the browser: every row is analysed.
type runs []story.Row

func (r runs) Rows() []story.Row              { return r }
func (r runs) Step() bool                     { return false }
func (r runs) Progress() (int, int, int, int) { return 1, 1, len(r), len(r) }
func (r runs) Warnings() []string             { return nil }
func (r runs) Grep(string) map[int]bool       { return nil }
func listOf(ids ...string) runs {
	var out runs
	for i, id := range ids {
		out = append(out, story.Row{Pos: i + 1, ID: id, Loaded: true, Analysed: true})
	}
	return out
}

// browser opens a list of three runs; each opens as the demo run under
// its own id, the third fails.
func browser(t *testing.T, w, h int) (*Browser, *[]int) {
	t.Helper()
	var opened []int
	open := func(pos int) (*story.Story, func(string) string, error) {
		opened = append(opened, pos)
		if pos == 3 {
			return nil, nil, errors.New("run #3 could not be read")
		}
		a := demoAnalysis(t)
		a.Run.InstanceID = listOf("a__b-1", "c__d-2", "e__f-3")[pos-1].ID
		return story.Tell(a), nil, nil
	}
	b, err := Browse(listOf("a__b-1", "c__d-2", "e__f-3"), open, "runs", Options{Theme: "dark", Dark: true})
	if err != nil {
		t.Fatal(err)
	}
	bsend(b, tea.WindowSizeMsg{Width: w, Height: h})
	return b, &opened
}

// bsend delivers messages to the browser and runs the commands they give,
// as the program would.
func bsend(b *Browser, msgs ...tea.Msg) {
	for _, msg := range msgs {
		_, cmd := b.Update(msg)
		for depth := 0; cmd != nil && depth < 4; depth++ {
			next := cmd()
			if next == nil {
				break
			}
			if batch, ok := next.(tea.BatchMsg); ok {
				for _, c := range batch {
					if c != nil {
						bsend(b, c())
					}
				}
				break
			}
			_, cmd = b.Update(next)
		}
	}
}

func bkeys(b *Browser, names ...string) {
	for _, n := range names {
		bsend(b, press(n))
	}
}

func (b *Browser) screen() string { return ansi.Strip(b.View().Content) }

func TestBrowse(t *testing.T) {
	b, opened := browser(t, 120, 40)
	if b.Run() != nil || !strings.Contains(b.screen(), "Runs  runs · 3 runs") {
		t.Fatalf("the list first:\n%s", b.screen())
	}
	bkeys(b, "j", "enter")
	if b.Run() == nil || b.Run().ctx.Data.Run.InstanceID != "c__d-2" {
		t.Fatalf("enter on the second row opened %v", *opened)
	}
	bkeys(b, "l", "l", "v") // step and switch lens in the run
	bkeys(b, "H")
	if got := b.Run().ctx.Data.Run.InstanceID; got != "a__b-1" {
		t.Errorf("H opened %s, want a__b-1", got)
	}
	if b.Run().ctx.Lens != 1 {
		t.Error("the lens chosen in one run did not stay for the next")
	}
	bkeys(b, "H")
	if !strings.Contains(b.screen(), "the first run of the list") {
		t.Errorf("H on the first run: %s", b.screen())
	}
	bkeys(b, "L", "L")
	if got := b.Run().ctx.Data.Run.InstanceID; got != "c__d-2" || !strings.Contains(b.screen(), "run #3 could not be read") {
		t.Errorf("L onto a run that fails: showing %s, screen:\n%s", got, b.screen())
	}
	// esc clears a search first, then goes back to the list, on the run.
	bkeys(b, "/", "x", "enter", "esc")
	if b.Run() == nil {
		t.Fatal("esc with a search left the run")
	}
	bkeys(b, "esc")
	if b.Run() != nil || b.List().Selected() != 2 {
		t.Errorf("esc: run %v, selected #%d", b.Run() != nil, b.List().Selected())
	}
	if want := []int{2, 1, 2, 3}; !reflect.DeepEqual(*opened, want) {
		t.Errorf("opened %v, want %v", *opened, want)
	}
	// q quits from the list and from a run.
	_, cmd := b.Update(press("q"))
	if cmd == nil {
		t.Fatal("q in the list")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q in the list did not quit")
	}
}

// The browser's screens at the sizes people use, the list and a run.
func TestGoldenBrowse(t *testing.T) {
	for _, c := range []struct {
		name string
		w, h int
		keys []string
	}{
		{"browse_list_80x24", 80, 24, []string{"j"}},
		{"browse_run_120x40", 120, 40, []string{"enter", "l"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, _ := browser(t, c.w, c.h)
			bkeys(b, c.keys...)
			raw := b.View().Content
			checkScreen(t, raw, c.w, c.h)
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

// A run with a Pro-length id: the header keeps it, cut in the middle, at
// the sizes people use.
func TestGoldenLongID(t *testing.T) {
	a := longRun(t)
	for _, c := range []struct {
		name string
		w, h int
	}{{"long_id_120x40", 120, 40}, {"long_id_80x24", 80, 24}, {"long_id_60x20", 60, 20}} {
		t.Run(c.name, func(t *testing.T) {
			m := newModel(t, a, Options{}, c.w, c.h)
			typeKeys(m, "l", "l")
			raw := m.View().Content
			checkScreen(t, raw, c.w, c.h)
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

// BenchmarkRunList500 is `view DIR` on a folder of 500 runs up to its
// first full screen: the folder listed, the list drawn (rows fill in later,
// in the background).
func BenchmarkRunList500(b *testing.B) {
	data, err := os.ReadFile("../demo/task/pricebook__pricebook-42.traj.json")
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	for i := 0; i < 500; i++ {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("org__repo-%d.traj.json", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		set, err := runset.New([]string{dir}, runset.Reading{})
		if err != nil {
			b.Fatal(err)
		}
		br, err := Browse(set, set.Open, dir, Options{Theme: "dark", Dark: true})
		if err != nil {
			b.Fatal(err)
		}
		br.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		if v := br.View().Content; !strings.Contains(v, "500 runs") {
			b.Fatal("no list")
		}
	}
}
