package ui

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// proID is the length of a SWE-bench Pro instance id.
const proID = "instance_ansible__ansible-f327e65d11bb905ed9f15996024f857a95592629-vba6da65a0f3baefda7a058ebbd0a8dcafb8512f"

// longRun is a run with a Pro-length id that records who ran it, how it
// ended and what it cost.
func longRun(t testing.TB) *scoring.Analysis {
	a := synthetic(t, 12, 300, "")
	a.Run.InstanceID = proID
	a.Run.Agent, a.Run.Model = "mini-swe-agent 1.17.3", "hosted_vllm/Qwen/Qwen3-Coder-30B-A3B-Instruct"
	a.Run.ExitStatus, a.Run.CostUSD = "LimitsExceeded", 0.1234
	for i := range a.Run.Actions {
		a.Run.Actions[i].Usage = model.Usage{InputTokens: 1500, OutputTokens: 120}
	}
	return a
}

// The header keeps the instance at every width, cut in the middle, first,
// and neither drops, adds nor moves a field as the user steps or switches
// lens.
func TestHeaderStable(t *testing.T) {
	a := longRun(t)
	for _, w := range []int{30, 60, 80, 120, 200, 300} {
		m := newModel(t, a, Options{}, w, 24)
		var want string
		for _, l := range model.Lenses {
			m.ctx.Lens = l
			for i := 0; i < m.ctx.Data.N; i++ {
				m.setCur(i)
				line := ansi.Strip(m.header.View())
				if got := ansi.StringWidth(line); got != w {
					t.Fatalf("width %d: header is %d cells", w, got)
				}
				if !strings.HasPrefix(line, " instance_") || !strings.Contains(line, "8512f") {
					t.Fatalf("width %d: the instance is not first and whole at both ends: %q", w, line)
				}
				// The shape: where each separator and label sits.
				shape := separators(line)
				if want == "" {
					want = shape
				} else if shape != want {
					t.Fatalf("width %d, %s lens, step %d: fields moved:\n%q\nwas\n%q", w, l, i+1, shape, want)
				}
			}
		}
		if w >= 60 && !strings.Contains(want, "step") {
			t.Errorf("width %d: no step in %q", w, want)
		}
		if w >= 80 && !strings.Contains(want, "lens") {
			t.Errorf("width %d: no lens in %q", w, want)
		}
		// How the run ended shows at every width that shows the lens,
		// down to its glyph.
		if h := ansi.Strip(newModel(t, a, Options{}, w, 24).header.View()); strings.Contains(want, "lens") && !strings.Contains(h, "✗") && !strings.Contains(h, "exit LimitsExceeded") {
			t.Errorf("width %d: no outcome in %q", w, want)
		}
		if w >= 300 {
			for _, s := range []string{"exit", "format"} {
				if !strings.Contains(want, s) {
					t.Errorf("width %d: no %s in %q", w, s, want)
				}
			}
		}
	}
	m := newModel(t, a, Options{}, 300, 24)
	if line := ansi.Strip(m.header.View()); !strings.Contains(line, proID) || !strings.Contains(line, "exit LimitsExceeded · not submitted │ 19.4k tokens · $0.12") {
		t.Errorf("wide header: %q", line)
	}
}

// separators keeps a header's separators and labels in place and blanks
// the values that change with the step.
func separators(line string) string {
	var b strings.Builder
	for _, f := range strings.Split(line, "│") {
		word := strings.Fields(f)
		label := ""
		if len(word) > 1 {
			label = word[0]
		}
		b.WriteString(label + strings.Repeat(".", ansi.StringWidth(f)-len(label)) + "│")
	}
	return b.String()
}

// Two gold files of one deep directory stay apart in the gold panel and
// the file picker: their paths are cut in the middle, keeping the names.
func TestLongPathsStayApart(t *testing.T) {
	dir := "openlibrary/catalog/marc/tests/test_data/bin_input/"
	files := []string{dir + "test_marc_binary.py", dir + "test_parse.py"}
	repo := fstest.MapFS{}
	for _, f := range files {
		repo[f] = &fstest.MapFile{Data: []byte(strings.Repeat("x = 1\n", 40))}
	}
	run := &model.Run{InstanceID: "o__l-1", Format: "mini-swe-agent-v1"}
	run.Actions = []model.Action{{Tool: "bash", Category: model.CategoryRead, Command: "cat " + files[0],
		Reads: []model.ObservedRead{{File: files[0], Kind: model.ReadWhole}}, Steps: []int{0}}}
	run.Prediction.Steps = []model.Step{{Files: files[:1], Spans: []model.FileSpans{{File: files[0], Spans: []model.Interval{{Start: 1, End: 40}}}}}}
	run.Prediction.Final = run.Prediction.Steps[0]
	g := &model.Gold{ID: "o__l-1", Init: []model.GoldSpan{{File: files[0], Start: 3, End: 9}, {File: files[1], Start: 5, End: 7}}}
	a := scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
	m := newModel(t, a, Options{}, 80, 24)
	typeKeys(m, "shift+tab") // the gold panel
	screen := ansi.Strip(m.View().Content)
	for _, name := range []string{"test_marc_binary.py", "test_parse.py"} {
		if !strings.Contains(screen, name) {
			t.Errorf("gold panel: %s is not on screen:\n%s", name, screen)
		}
	}
	typeKeys(m, "f")
	m.View()
	screen = ansi.Strip(src(m).View()) // the picker alone
	for _, name := range []string{"test_marc_binary.py", "test_parse.py"} {
		if !strings.Contains(screen, name) {
			t.Errorf("file picker: %s is not on screen:\n%s", name, screen)
		}
	}
}
