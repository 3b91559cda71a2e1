// Package exporttest builds analysed runs for the exports' tests (the demo,
// and a hostile run whose every piece of text tries to break out of the
// page, the recording or the picture) and reads the screens they draw.
package exporttest

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/testkit/demotask"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Demo is the embedded demo task, analysed.
func Demo(t testing.TB) *scoring.Analysis {
	t.Helper()
	a, err := demotask.Analyze(demo.FS(), model.ContextBench)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// Attacks are the strings the hostile run is made of. Each carries a
// marker ("pwn" and a number) that must only ever appear as text.
var Attacks = []string{
	`</script><script>alert("pwn1")</script>`,
	`<img src=x onerror=alert("pwn2")>`,
	`<a href="javascript:alert('pwn3')">click</a>`,
	`<!-- pwn4 <script>alert(4)</script> -->`,
	`<svg onload=alert("pwn5")></svg>`,
	`<iframe src="https://example.com/pwn6"></iframe>`,
	`<link rel=stylesheet href="https://example.com/pwn7.css"><style>@import url(https://example.com/pwn7b.css)</style>`,
	"\x1b]52;c;cHduOA==\x07\x1b[2J\x1b]0;pwn8\x07\x1b[31mpwn8-red",
	"\u202epwn9 reversed\u202c </ScRiPt >\u2028\u2029",
}

// HostilePaths are the repository files of the hostile run: names that are
// markup and attribute breakers.
var HostilePaths = []string{
	`pkg/<script>alert("pwn10")<.py`,
	`pkg/x" onmouseover="alert('pwn11').py`,
	`pkg/ok.py`,
}

// HostileSource is the content of every hostile file: markup that must stay
// source text.
const HostileSource = "</pre></code></div><script>alert('pwn12')</script>\n" +
	"<img src=x onerror=alert('pwn13')>\n" +
	"<!-- pwn14\n" +
	"def f():\n\treturn '</script>'\n" +
	"x = 1\ny = 2\nz = 3\n"

// Hostile is a run whose instance, agent, model, commands, thoughts,
// outputs and file names are Attacks, over a repository of HostilePaths
// holding HostileSource, with gold in each file.
func Hostile(t testing.TB) *scoring.Analysis {
	t.Helper()
	all := strings.Join(Attacks, "\n")
	repo := fstest.MapFS{}
	for _, p := range HostilePaths {
		repo[p] = &fstest.MapFile{Data: []byte(HostileSource)}
	}
	run := &model.Run{InstanceID: Attacks[0] + Attacks[1], Format: Attacks[2], Agent: Attacks[4], Model: Attacks[3]}
	var obs, thoughts model.TextList
	for i, p := range HostilePaths {
		run.Actions = append(run.Actions, model.Action{
			Index: int32(i), Tool: Attacks[5], Category: model.CategoryRead,
			Command: "cat '" + Attacks[i%len(Attacks)] + "' /testbed/" + p,
			Reads:   []model.ObservedRead{{File: "/testbed/" + p, Kind: model.ReadRange, Start: 1, End: 4}},
			Steps:   []int{i},
		})
		obs, thoughts = append(obs, all+"\n"+HostileSource), append(thoughts, all)
		run.Prediction.Steps = append(run.Prediction.Steps, model.Step{Files: []string{p},
			Spans: []model.FileSpans{{File: p, Spans: []model.Interval{{Start: 1, End: 4}}}}})
	}
	run.Actions = append(run.Actions, model.Action{Index: int32(len(run.Actions)), Tool: "bash", Category: model.CategoryRun,
		Command: all})
	run.Observations, run.Thoughts = append(obs, all), append(thoughts, all)
	run.Prediction.InstanceID = run.InstanceID
	run.Prediction.Final = run.Prediction.Steps[0]
	g := &model.Gold{ID: run.InstanceID}
	for _, p := range HostilePaths {
		g.Init = append(g.Init, model.GoldSpan{File: p, Start: 2, End: 6})
	}
	return scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
}

// Plain is a line's text without styles, trailing spaces kept: for tests and
// for measuring.
func Plain(l uv.Line) string {
	var b strings.Builder
	for _, c := range l {
		if c.Width == 0 && c.Content == "" {
			continue // the second cell of a wide character
		}
		b.WriteString(c.Content)
	}
	return b.String()
}

// Safe reports whether a line's cells hold only printable text: no cell
// carries a control character or an escape sequence.
func Safe(l uv.Line) bool {
	for _, c := range l {
		for _, r := range c.Content {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				return false
			}
		}
		if c.Link.URL != "" {
			return false
		}
	}
	return true
}

// Long is a run of n actions, each reading five lines of pkg/mod.py, with
// a gold of spans spans (one in pkg/mod.py, the rest in files the
// repository lacks): the shape of the largest inputs an export takes.
func Long(t testing.TB, n, spans int) *scoring.Analysis {
	t.Helper()
	var src strings.Builder
	for i := 1; i <= 300; i++ {
		src.WriteString("x = 1\n")
	}
	repo := fstest.MapFS{"pkg/mod.py": &fstest.MapFile{Data: []byte(src.String())}}
	run := &model.Run{InstanceID: "o__r-1", Format: "mini-swe-agent-v1"}
	var obs, thoughts model.TextList
	for i := 0; i < n; i++ {
		a := i*7%200 + 1
		run.Actions = append(run.Actions, model.Action{Index: int32(i), Tool: "bash", Category: model.CategoryRead,
			Command: "sed -n '" + strconv.Itoa(a) + "," + strconv.Itoa(a+4) + "p' pkg/mod.py",
			Reads:   []model.ObservedRead{{File: "pkg/mod.py", Kind: model.ReadRange, Start: a, End: a + 4}},
			Steps:   []int{i}})
		obs, thoughts = append(obs, "x = 1"), append(thoughts, "next")
		run.Prediction.Steps = append(run.Prediction.Steps, model.Step{Files: []string{"pkg/mod.py"},
			Spans: []model.FileSpans{{File: "pkg/mod.py", Spans: []model.Interval{{Start: a, End: a + 4}}}}})
	}
	run.Observations, run.Thoughts = obs, thoughts
	run.Prediction.InstanceID = run.InstanceID
	g := &model.Gold{ID: run.InstanceID, Init: []model.GoldSpan{{File: "pkg/mod.py", Start: 250, End: 260}}}
	for i := 1; i < spans; i++ {
		g.Init = append(g.Init, model.GoldSpan{File: "pkg/d" + strconv.Itoa(i%100) + "/f" + strconv.Itoa(i) + ".py", Start: 1, End: 10})
	}
	return scoring.Analyze(run, g, scoring.NewFileCache(source.NewFS(repo)), model.ContextBench)
}
