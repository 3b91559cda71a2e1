package runlist

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/themes"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fake is a list of runs whose loading the test drives: Step reveals one
// more row's analysis at a time.
type fake struct {
	rows     []story.Row
	analysed int
	warnings []string
	texts    map[int]string // what row i's run holds, for Grep
}

func (f *fake) Grep(q string) map[int]bool {
	out := map[int]bool{}
	for i, t := range f.texts {
		if strings.Contains(strings.ToLower(t), q) {
			out[i] = true
		}
	}
	return out
}

func (f *fake) Rows() []story.Row {
	out := append([]story.Row(nil), f.rows...)
	for i := f.analysed; i < len(out); i++ {
		out[i].Analysed = false
	}
	return out
}

func (f *fake) Step() bool {
	if f.analysed < len(f.rows) {
		f.analysed++
	}
	return f.analysed < len(f.rows)
}

func (f *fake) Progress() (int, int, int, int) { return 1, 1, f.analysed, len(f.rows) }
func (f *fake) Warnings() []string             { return f.warnings }

const proID = "instance_ansible__ansible-f327e65d11bb905ed9f15996024f857a95592629-vba6da65a0f3baefda7a058ebbd0a8dcafb8512f"

func row(pos int, id, agent, mdl string, acts int, cov, auc, red float64, counts diagnose.Counts) story.Row {
	r := story.Row{Pos: pos, Path: "runs/" + id + ".traj.json", ID: id, Agent: agent, Model: mdl, Actions: acts, Loaded: true, Analysed: true}
	for _, l := range model.Lenses {
		r.Lenses[l] = story.Figures{Coverage: cov, AUC: auc, Redundancy: red, Diagnosis: counts}
	}
	// The observed lens saw more.
	r.Lenses[model.LensObserved].Coverage = cov + 0.1
	return r
}

func sample() *fake {
	q := "hosted_vllm/Qwen/Qwen2.5-Coder-32B-Instruct"
	rows := []story.Row{
		row(1, "pydata__xarray-4075", "mini-swe-agent 1.17.3", q, 18, 0.01, 0.30, 0.11, diagnose.Counts{0, 2, 0, 0, 1}),
		row(2, "django__django-12419", "mini-swe-agent 1.17.3", q, 15, 0.42, 0.25, 0.30, diagnose.Counts{1, 0, 0, 0, 0}),
		row(3, proID, "mini-swe-agent 1.17.3", q, 61, 0.73, 0.51, 0.05, diagnose.Counts{0, 0, 1, 2, 4}),
		row(4, "pallets__flask-5014", "swe-agent", "gpt-5", 4, 0, 0, 0, diagnose.Counts{}),
	}
	rows[3].Note = `no gold for instance "pallets__flask-5014"`
	rows[3].Lenses[model.LensContextBench].Error = "missing_gold"
	return &fake{rows: rows, analysed: len(rows), warnings: []string{`instance "pallets__flask-5014" appears 2 times: runs/a.traj #4; runs/a.checkpoints.jsonl #5`}}
}

func newList(f *fake, w, h int) *Model {
	th, _ := themes.Get("dark", true, false)
	m := New(f, "runs", th, model.LensContextBench)
	m.SetSize(w, h)
	return m
}

func press(m *Model, keys ...string) {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		default:
			msg = tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
		}
		m.Update(msg)
	}
}

// shown is the instance ids in display order.
func shown(m *Model) []string {
	var out []string
	for _, i := range m.view {
		out = append(out, m.rows[i].ID)
	}
	return out
}

func TestSortAndFilter(t *testing.T) {
	x, d, p, f := "pydata__xarray-4075", "django__django-12419", proID, "pallets__flask-5014"
	for _, c := range []struct {
		name string
		keys []string
		want []string
	}{
		{"list order", nil, []string{x, d, p, f}},
		{"by instance", []string{"s"}, []string{d, p, f, x}},
		{"by instance, reversed", []string{"s", "S"}, []string{x, f, p, d}},
		{"by agent · model", []string{"s", "s"}, []string{x, d, p, f}},
		{"by actions, most first", []string{"s", "s", "s"}, []string{p, x, d, f}},
		{"by coverage, best first", []string{"s", "s", "s", "s"}, []string{p, d, x, f}},
		// f has no figures (no gold: "–"): last in both directions.
		{"by coverage, worst first", []string{"s", "s", "s", "s", "S"}, []string{x, d, p, f}},
		{"by never opened", []string{"s", "s", "s", "s", "s", "s", "s", "s", "s", "s", "s"}, []string{d, x, p, f}},
		{"around to the position", []string{"s", "s", "s", "s", "s", "s", "s", "s", "s", "s", "s", "s"}, []string{x, d, p, f}},
		{"filter by text", []string{"/", "d", "j", "enter"}, []string{d}},
		{"filter by model", []string{"/", "g", "p", "t", "enter"}, []string{f}},
		{"filter is case-insensitive", []string{"/", "A", "N", "S", "I", "B", "L", "E", "enter"}, []string{p}},
		{"esc clears the filter", []string{"/", "d", "j", "enter", "esc"}, []string{x, d, p, f}},
		{"esc cancels typing", []string{"/", "d", "j", "esc"}, []string{x, d, p, f}},
		{"filter inside the runs", []string{"/", "b", "o", "o", "l", "e", "a", "n", "enter"}, []string{x}},
	} {
		fk := sample()
		fk.texts = map[int]string{0: "[bug] when passing Boolean weights to weighted mean"}
		m := newList(fk, 120, 40)
		m.Update(LoadedMsg{})
		press(m, c.keys...)
		if got := shown(m); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v\nwant %v", c.name, got, c.want)
		}
	}
}

// Runs not analysed yet sort last whatever the direction, and the
// selection stays on its run while rows fill in.
func TestLoadingKeepsSelection(t *testing.T) {
	f := sample()
	f.analysed = 1
	m := newList(f, 120, 40)
	press(m, "s", "s", "s", "s") // coverage, best first
	if got := shown(m); got[0] != "pydata__xarray-4075" {
		t.Errorf("the one analysed run sorts first: %v", got)
	}
	press(m, "S")
	if got := shown(m); got[0] != "pydata__xarray-4075" {
		t.Errorf("and first again reversed (the rest wait): %v", got)
	}
	m.Update(LoadedMsg{more: true})
	m.Select(1)
	for f.Step() {
		m.Update(LoadedMsg{more: true})
	}
	m.Update(LoadedMsg{})
	if m.Selected() != 1 || m.Loading() {
		t.Errorf("selected #%d after loading (loading %v), want #1", m.Selected(), m.Loading())
	}
	if got := shown(m); got[0] != "pydata__xarray-4075" || got[3] != "pallets__flask-5014" {
		t.Errorf("worst coverage first once analysed, the run without figures last: %v", got)
	}
}

func TestOpenAndNeighbours(t *testing.T) {
	m := newList(sample(), 120, 40)
	m.Update(LoadedMsg{})
	press(m, "down", "down")
	cmd := m.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("enter gave no command")
	}
	if msg, ok := cmd().(OpenMsg); !ok || msg.Pos != 3 {
		t.Errorf("enter on the third row: %#v", cmd())
	}
	press(m, "s") // by instance: django, pro, flask, xarray
	for _, c := range []struct{ pos, n, want int }{{3, 1, 4}, {3, -1, 2}, {1, 1, 1}, {2, -1, 2}} {
		got, ok := m.Neighbour(c.pos, c.n)
		if got != c.want || ok != (c.want != c.pos) {
			t.Errorf("Neighbour(%d, %d) = %d, %v; want %d", c.pos, c.n, got, ok, c.want)
		}
	}
	press(m, "v")
	if m.lens != model.LensObserved || !strings.Contains(ansi.Strip(m.View()), "lens observed") {
		t.Error("v did not switch the list's lens")
	}
}

func TestGoldenLists(t *testing.T) {
	for _, c := range []struct {
		name     string
		w, h     int
		analysed int
		keys     []string
	}{
		{"list_120x40", 120, 40, 4, nil},
		{"list_80x24", 80, 24, 4, []string{"down", "down", "down"}},
		{"list_loading_80x24", 80, 24, 2, []string{"s", "s", "s"}},
		{"list_filter_120x40", 120, 40, 4, []string{"/", "m", "i", "n", "i"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := sample()
			f.analysed = c.analysed
			m := newList(f, c.w, c.h)
			m.Update(LoadedMsg{more: c.analysed < 4})
			press(m, c.keys...)
			raw := m.View()
			lines := strings.Split(raw, "\n")
			if len(lines) != c.h {
				t.Fatalf("%d lines, want %d", len(lines), c.h)
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w != c.w {
					t.Errorf("line %d is %d cells: %q", i+1, w, ansi.Strip(l))
				}
			}
			golden(t, c.name, ansi.Strip(raw))
		})
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./ui/runlist -update creates it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs (go test ./ui/runlist -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Ids, paths, notes and warnings come from the runs: they reach the screen
// inert.
func TestHostileRows(t *testing.T) {
	evil := "x\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J"
	f := sample()
	f.rows[0].ID, f.rows[0].Model, f.rows[0].Note = evil, evil, evil
	f.warnings = []string{evil}
	m := newList(f, 120, 40)
	m.Update(LoadedMsg{})
	for _, keys := range [][]string{nil, {"down"}, {"/", "x", "\x1b"}} {
		press(m, keys...)
		out := m.View()
		if strings.Contains(out, "\x07") || strings.Contains(out, "\x1b]") || strings.Contains(out, "\x1b[2J") {
			t.Errorf("after %q the screen carries a control sequence: %q", keys, out)
		}
		if !strings.Contains(out, `\e]52`) {
			t.Errorf("after %q the hostile text is not shown", keys)
		}
	}
}

// A sort shows its top: the selection and the view go to the first row,
// wherever the list was scrolled.
func TestSortShowsTheTop(t *testing.T) {
	m := newList(sample(), 120, 6) // two rows of runs on screen
	m.Update(LoadedMsg{})
	press(m, "j", "j", "j")
	if m.off == 0 {
		t.Fatalf("the list did not scroll (off %d, cur %d)", m.off, m.cur)
	}
	press(m, "s")
	if m.cur != 0 || m.off != 0 {
		t.Errorf("after a sort: cur %d, off %d; want the top", m.cur, m.off)
	}
}
