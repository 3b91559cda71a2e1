package ui

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/trajscope/trajscope/testkit/demotask"

	tea "charm.land/bubbletea/v2"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/code"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Tests send keys faster than a person: no idle work between them (a test
// of its own drives it).
func init() { idleAfter = 0 }

// The registry's panes, by name.
var paneTimeline, paneSource, paneObservation, paneGold = paneNamed("timeline"), paneNamed("source"), paneNamed("observation"), paneNamed("gold")

var paneTask = paneNamed("task")

func paneNamed(name string) paneID {
	for id, r := range registry {
		if r.name == name {
			return paneID(id)
		}
	}
	panic("no pane " + name)
}

// src is the source pane.
func src(m *Model) *code.Model { return m.panes[paneSource].(*code.Model) }

// demoAnalysis loads the embedded demo task.
func demoAnalysis(t testing.TB) *scoring.Analysis {
	t.Helper()
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// newModel opens the explorer on a at a fixed size.
func newModel(t testing.TB, a *scoring.Analysis, opts Options, w, h int) *Model {
	t.Helper()
	if opts.Theme == "" {
		opts.Theme = "dark"
		opts.Dark = true
	}
	m, err := New(story.Tell(a), opts)
	if err != nil {
		t.Fatal(err)
	}
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// named are the keys press knows by name, as the terminal sends them.
var named = map[string]tea.KeyPressMsg{
	"right": {Code: tea.KeyRight}, "left": {Code: tea.KeyLeft}, "down": {Code: tea.KeyDown}, "up": {Code: tea.KeyUp},
	"tab": {Code: tea.KeyTab}, "shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "backspace": {Code: tea.KeyBackspace},
	"space": {Code: tea.KeySpace, Text: " "}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl}, "ctrl+d": {Code: 'd', Mod: tea.ModCtrl},
}

// press turns key names into key messages as the terminal would send them.
func press(name string) tea.KeyPressMsg {
	if k, ok := named[name]; ok {
		return k
	}
	r := []rune(name)
	if len(r) != 1 {
		panic("unknown key " + name)
	}
	return tea.KeyPressMsg{Code: r[0], Text: name}
}

// Ticks never fire in tests: a test that wants one sends its message.
func init() {
	tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd {
		return func() tea.Msg { return nil }
	}
}

// send delivers messages and feeds back what their commands produce
// (pane messages, loaded runs); ticks never fire (init above), and the
// editor's command is dropped.
func send(m *Model, msgs ...tea.Msg) {
	for _, msg := range msgs {
		_, cmd := m.Update(msg)
		run(m, cmd, 0)
	}
}

func run(m *Model, cmd tea.Cmd, depth int) {
	if cmd == nil || depth > 4 {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			run(m, c, depth+1)
		}
	case tea.QuitMsg, nil:
	default:
		if isExec(msg) {
			return // the editor: a test never starts one
		}
		_, next := m.Update(msg)
		run(m, next, depth+1)
	}
}

// isExec reports whether msg is Bubble Tea's request to run a process
// (tea.ExecProcess's message, a type it does not export).
func isExec(msg tea.Msg) bool {
	return strings.HasSuffix(fmt.Sprintf("%T", msg), ".execMsg")
}

// typeKeys sends key names in order.
func typeKeys(m *Model, names ...string) {
	for _, n := range names {
		send(m, press(n))
	}
}

// golden compares got with testdata/<name>.golden, rewriting it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./ui -run %s -update to accept):\n--- got\n%s\n--- want\n%s", path, t.Name(), got, want)
	}
}

// synthetic builds a run of n read actions over a file of lines lines, with
// gold spread through the file, for the benchmark and the hostile-output
// test. observation, when set, is every action's output.
func synthetic(t testing.TB, n, lines int, observation string) *scoring.Analysis {
	t.Helper()
	var src strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&src, "def f%d(x):\n", i)
	}
	repo := fstest.MapFS{"pkg/big.py": {Data: []byte(src.String())}}
	run := &model.Run{InstanceID: "synthetic", Format: "mini-swe-agent-v1", Agent: "bench", Model: "m"}
	var obs model.TextList
	for i := 0; i < n; i++ {
		start := (i*37)%lines + 1
		end := min(start+40, lines)
		run.Actions = append(run.Actions, model.Action{
			Index: int32(i), Tool: "bash", Category: model.CategoryRead,
			Command: fmt.Sprintf("nl -ba /testbed/pkg/big.py | sed -n '%d,%dp'", start, end),
			Reads:   []model.ObservedRead{{File: "/testbed/pkg/big.py", Kind: model.ReadRange, Start: start, End: end}},
			Steps:   []int{i},
		})
		obs = append(obs, observation)
		run.Prediction.Steps = append(run.Prediction.Steps, model.Step{
			Files: []string{"pkg/big.py"},
			Spans: []model.FileSpans{{File: "pkg/big.py", Spans: []model.Interval{{Start: start, End: end}}}},
		})
	}
	run.Observations = obs
	run.Prediction.InstanceID = "synthetic"
	run.Prediction.Final = run.Prediction.Steps[len(run.Prediction.Steps)-1]
	g := &model.Gold{ID: "synthetic"}
	for k := 0; k < 20; k++ {
		s := k*lines/20 + 5
		g.Init = append(g.Init, model.GoldSpan{File: "pkg/big.py", Start: s, End: s + 10})
	}
	return scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
}
