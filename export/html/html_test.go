package html

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	xhtml "golang.org/x/net/html"

	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	gitsource "github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/story"
)

func render(t *testing.T, a *scoring.Analysis, o Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, story.Tell(a), o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// parsed is a page as a browser's tokenizer sees it.
type parsed struct {
	tags    map[string]int
	attrs   []string // tag.attr of every attribute
	scripts []string // each script element's type and text
	style   string
	csp     string
	title   string
}

func parse(t *testing.T, page []byte) parsed {
	t.Helper()
	p := parsed{tags: map[string]int{}}
	z := xhtml.NewTokenizer(bytes.NewReader(page))
	var open string
	for {
		tt := z.Next()
		switch tt {
		case xhtml.ErrorToken:
			return p
		case xhtml.StartTagToken, xhtml.SelfClosingTagToken:
			tok := z.Token()
			p.tags[tok.Data]++
			open = tok.Data
			typ := ""
			for _, a := range tok.Attr {
				p.attrs = append(p.attrs, tok.Data+"."+a.Key)
				if tok.Data == "meta" && a.Key == "content" && strings.Contains(a.Val, "default-src") {
					p.csp = a.Val
				}
				if tok.Data == "script" && a.Key == "type" {
					typ = a.Val
				}
			}
			if tok.Data == "script" {
				p.scripts = append(p.scripts, typ+"\x00")
			}
		case xhtml.TextToken:
			text := string(z.Text())
			switch open {
			case "script":
				p.scripts[len(p.scripts)-1] += text
			case "style":
				p.style += text
			case "title":
				p.title += text
			}
		case xhtml.EndTagToken:
			open = ""
		}
	}
}

// sourceText is the text of file k's source element, as a browser shows
// it (line numbers included).
func sourceText(t *testing.T, page []byte, k int) string {
	t.Helper()
	start := bytes.Index(page, []byte(fmt.Sprintf(`<div class="file" id="f%d" hidden>`, k)))
	if start < 0 {
		t.Fatalf("no source element f%d", k)
	}
	z := xhtml.NewTokenizer(bytes.NewReader(page[start:]))
	var b strings.Builder
	for {
		switch z.Next() {
		case xhtml.ErrorToken:
			return b.String()
		case xhtml.TextToken:
			b.Write(z.Text())
		case xhtml.EndTagToken:
			if name, _ := z.TagName(); string(name) == "pre" {
				return b.String()
			}
		}
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// The hostile run's text stays text: the page has exactly the elements and
// attributes the template writes, two scripts (the data and the code), no
// event handler, no link and no source anywhere, and the policy names the
// hashes of exactly the style and script it carries.
func TestHostileRunStaysText(t *testing.T) {
	for _, theme := range []string{"auto", "dark", "light", "contrast"} {
		t.Run(theme, func(t *testing.T) {
			page := render(t, exporttest.Hostile(t), Options{Theme: theme})
			p := parse(t, page)
			allowed := map[string]bool{"html": true, "head": true, "meta": true, "title": true, "style": true, "body": true,
				"header": true, "span": true, "main": true, "section": true, "h2": true, "ol": true, "div": true, "pre": true,
				"code": true, "figure": true, "figcaption": true, "svg": true, "line": true, "polyline": true, "footer": true,
				"input": true, "b": true, "script": true, "details": true, "summary": true, "rect": true}
			for tag := range p.tags {
				if !allowed[tag] {
					t.Errorf("unexpected element <%s> in the page", tag)
				}
			}
			for _, a := range p.attrs {
				key := a[strings.IndexByte(a, '.')+1:]
				if strings.HasPrefix(key, "on") || key == "src" || key == "href" || key == "srcset" || key == "action" ||
					key == "formaction" || key == "style" || strings.Contains(key, "pwn") || strings.Contains(key, "script") {
					t.Errorf("attribute %s in the page", a)
				}
			}
			if len(p.scripts) != 2 || !strings.HasPrefix(p.scripts[0], "application/json\x00") || !strings.HasPrefix(p.scripts[1], "\x00") {
				t.Fatalf("scripts: want the data then the code, got %d: %q", len(p.scripts), p.scripts)
			}
			code := strings.TrimPrefix(p.scripts[1], "\x00")
			if code != pageJS {
				t.Error("the script element's text is not the page script")
			}
			for _, want := range []string{"default-src 'none'", "script-src " + sha(code) + ";", "style-src " + sha(p.style) + ";", "base-uri 'none'", "form-action 'none'"} {
				if !strings.Contains(p.csp, want) {
					t.Errorf("policy %q lacks %q", p.csp, want)
				}
			}
			if strings.Contains(p.csp, "unsafe") {
				t.Errorf("policy %q allows unsafe sources", p.csp)
			}
			if !strings.Contains(p.title, `</script><script>alert("pwn1")</script>`) {
				t.Errorf("title %q: the instance id is not shown as text", p.title)
			}
			// The data carries every attack as text for the script to show.
			data := strings.TrimPrefix(p.scripts[0], "application/json\x00")
			if strings.ContainsAny(data, "<>") {
				t.Error("the data element holds raw markup characters")
			}
			var d pageData
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Fatalf("data: %v", err)
			}
			obs := d.Actions[0].Obs
			for _, a := range exporttest.Attacks[:7] {
				if !strings.Contains(obs, a) {
					t.Errorf("observation lost %q", a)
				}
			}
			if strings.ContainsAny(obs, "\x1b\x07\u202e") || !strings.Contains(obs, `\e]52;c;`) {
				t.Errorf("control characters not made visible: %q", obs)
			}
			if d.Files[0].Path != exporttest.HostilePaths[0] || !d.Files[0].OK {
				t.Errorf("first file %q (ok %v), want %q", d.Files[0].Path, d.Files[0].OK, exporttest.HostilePaths[0])
			}
			// Source text reaches the page only escaped, inside the code.
			for _, raw := range []string{"<script>alert('pwn12')", "<img src=x onerror=alert('pwn13')>", "<!-- pwn14"} {
				if bytes.Contains(page, []byte(raw)) {
					t.Errorf("raw source %q in the page", raw)
				}
			}
			if got := sourceText(t, page, 0); !strings.Contains(got, "1</pre></code></div><script>alert('pwn12')</script>\n2<img") {
				t.Errorf("the hostile source is not in the page as text: %q", got)
			}
		})
	}
}

// The demo's page carries each file it touched, one line element per source
// line, and the figures of the analysis.
func TestDemoPage(t *testing.T) {
	a := exporttest.Demo(t)
	page := render(t, a, Options{Theme: "dark", Step: 4})
	p := parse(t, page)
	var d pageData
	if err := json.Unmarshal([]byte(strings.TrimPrefix(p.scripts[0], "application/json\x00")), &d); err != nil {
		t.Fatal(err)
	}
	if d.N != len(a.Run.Actions) || d.Start != 3 || len(d.Gold) != 7 {
		t.Fatalf("n %d start %d gold %d", d.N, d.Start, len(d.Gold))
	}
	for k, f := range d.Files {
		if !f.OK {
			t.Errorf("%s: not in the page", f.Path)
			continue
		}
		start := bytes.Index(page, []byte(fmt.Sprintf(`<div class="file" id="f%d" hidden>`, k)))
		end := bytes.Index(page[start:], []byte("</pre>"))
		if start < 0 || end < 0 {
			t.Fatalf("%s: no source element", f.Path)
		}
		if n := bytes.Count(page[start:start+end], []byte(`<span class="line">`)); n != f.Lines {
			t.Errorf("%s: %d line elements, want %d", f.Path, n, f.Lines)
		}
	}
	for _, l := range model.Lenses {
		ld := &a.Lenses[l]
		for _, g := range model.Granularities {
			if fmt.Sprint(d.L[l].Curve[g]) != fmt.Sprint(ld.Curve(g)) {
				t.Errorf("lens %s granularity %d: curve differs from the analysis", l, g)
			}
		}
		if d.L[l].NewGold[3] != int(ld.Actions[3].NewGold) {
			t.Errorf("lens %s: new gold at step 4 %d, want %d", l, d.L[l].NewGold[3], ld.Actions[3].NewGold)
		}
	}
	if len(page) > 1<<20 {
		t.Errorf("demo page is %d bytes", len(page))
	}
}

// Past the budget, each output keeps only its head: a run of many large
// outputs still makes a page of bounded size.
func TestObservationBudget(t *testing.T) {
	defer func(b int) { obsBudget = b }(obsBudget)
	obsBudget = 100 << 10
	a := exporttest.Demo(t)
	big := strings.Repeat("0123456789abcdef\n", 10000) // 170,000 bytes
	obs := make(model.TextList, len(a.Run.Actions))
	for i := range obs {
		obs[i] = big
	}
	a.Run.Observations = obs
	var d pageData
	p := parse(t, render(t, a, Options{}))
	if err := json.Unmarshal([]byte(strings.TrimPrefix(p.scripts[0], "application/json\x00")), &d); err != nil {
		t.Fatal(err)
	}
	if got := len(d.Actions[0].Obs); got != len(big)-1 {
		t.Errorf("first output: %d bytes, want all %d", got, len(big)-1)
	}
	for i := 1; i < len(d.Actions); i++ {
		if got, want := len(d.Actions[i].Obs), obsTail-obsTail%17-1; got != want {
			t.Errorf("output %d: %d bytes, want the first %d", i+1, got, want)
		}
		if d.Actions[i].Cut != 10000-obsTail/17 {
			t.Errorf("output %d: %d lines cut", i+1, d.Actions[i].Cut)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("x", maxObsBytes+10)
	many := strings.Repeat("a\n", maxObsLines+5) + "a"
	cases := []struct {
		name, in   string
		lines, cut int
		keep       int // bytes kept, -1 for all
	}{
		{"empty", "", 0, 0, -1},
		{"short", "a\nb", 2, 0, -1},
		{"many lines", many, maxObsLines + 6, 6, 2*maxObsLines - 1},
		{"one huge line", long + "\nb", 2, 1, maxObsBytes},
		{"huge line of runes", strings.Repeat("é", maxObsBytes), 1, 0, maxObsBytes},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text, lines, cut := clip(c.in, maxObsBytes)
			if lines != c.lines || cut != c.cut {
				t.Errorf("lines %d cut %d, want %d %d", lines, cut, c.lines, c.cut)
			}
			if c.keep >= 0 && len(text) != c.keep {
				t.Errorf("kept %d bytes, want %d", len(text), c.keep)
			}
			if c.keep < 0 && text != c.in && len(c.in) <= maxObsBytes {
				t.Errorf("text changed")
			}
			if !strings.HasPrefix(c.in, text) || !utf8.ValidString(text) {
				t.Error("not a prefix of the input, cut on a character boundary")
			}
		})
	}
}

// A file larger than a page carries is left out of it (the page says so
// when it is shown); the files beside it are carried as usual.
func TestLargeFileIsNotCarried(t *testing.T) {
	big := strings.Repeat("x = 1  # padding the line out to eighty bytes of python source ...........\n", maxEmbed/75+1)
	repo := fstest.MapFS{"pkg/big.py": {Data: []byte(big)}, "pkg/small.py": {Data: []byte("a = 1\nb = 2\n")}}
	run := &model.Run{InstanceID: "o__r-1", Actions: []model.Action{
		{Index: 0, Tool: "bash", Category: model.CategoryRead, Command: "cat pkg/small.py", Reads: []model.ObservedRead{{File: "pkg/small.py", Kind: model.ReadWhole}}, Steps: []int{0}},
		{Index: 1, Tool: "bash", Category: model.CategoryRead, Command: "sed -n 1,3p pkg/big.py", Reads: []model.ObservedRead{{File: "pkg/big.py", Kind: model.ReadRange, Start: 1, End: 3}}, Steps: []int{1}},
	}}
	run.Observations, run.Thoughts = model.TextList{"a = 1", "x = 1"}, model.TextList{"", ""}
	run.Prediction = model.Prediction{InstanceID: run.InstanceID, Steps: []model.Step{
		{Files: []string{"pkg/small.py"}}, {Files: []string{"pkg/big.py"}, Spans: []model.FileSpans{{File: "pkg/big.py", Spans: []model.Interval{{Start: 1, End: 3}}}}}}}
	g := &model.Gold{ID: run.InstanceID, Init: []model.GoldSpan{{File: "pkg/big.py", Start: 2, End: 4}, {File: "pkg/small.py", Start: 1, End: 1}}}
	a := scoring.Analyze(run, g, scoring.NewFileCache(gitsource.NewFS(repo)), model.ContextBench)
	page := render(t, a, Options{})
	if len(page) > 2<<20 {
		t.Errorf("the page is %d bytes: the large file was carried", len(page))
	}
	var data struct {
		Files []struct {
			Path  string `json:"path"`
			OK    bool   `json:"ok"`
			Large int    `json:"large"`
		} `json:"files"`
	}
	js := parse(t, page).scripts
	for _, s := range js {
		if typ, body, _ := strings.Cut(s, "\x00"); typ == "application/json" {
			if err := json.Unmarshal([]byte(body), &data); err != nil {
				t.Fatal(err)
			}
		}
	}
	carried := map[string]int{}
	for k, f := range data.Files {
		carried[f.Path] = f.Large
		if f.Path == "pkg/small.py" && !strings.Contains(sourceText(t, page, k), "a = 1") {
			t.Errorf("the small file's source is not in the page")
		}
	}
	if carried["pkg/big.py"] != len(big) || carried["pkg/small.py"] != 0 {
		t.Errorf("files %+v: want pkg/big.py large (%d bytes) and pkg/small.py carried", data.Files, len(big))
	}
}

// The page carries the task and the submitted patch, the patch's gold line
// marked, as the explorer's task pane shows them.
func TestPageHasTaskAndPatch(t *testing.T) {
	page := string(render(t, exporttest.Demo(t), Options{Theme: "dark"}))
	for _, want := range []string{
		`<summary><span class="pt">Task &amp; patch</span> <span class="pd">task as the run was given it · patch: 1 removed, 1 of them gold`,
		`<pre id="task-text">Bulk discount is not applied when ordering exactly 10 units`,
		`<span class="pl del"><span class="pg">●</span>-        if quantity &gt; tier.min_qty:</span>`,
		`<span class="pl add"><span class="pg"> </span>&#43;        if quantity &gt;= tier.min_qty:</span>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
}

// A run that records tokens gets a chart of them per step, a bar an action,
// each bar as tall as its share of the largest step.
func TestPageSpendChart(t *testing.T) {
	a := exporttest.Demo(t)
	page := string(render(t, a, Options{Theme: "dark"}))
	if !strings.Contains(page, `<figure class="chart" id="chart-spend">`) || !strings.Contains(page, `<span class="gname">tokens per step</span>`) {
		t.Fatal("no spend chart")
	}
	if n := strings.Count(page, `<rect class="bar"`); n != len(a.Run.Actions) {
		t.Errorf("%d bars for %d actions", n, len(a.Run.Actions))
	}
	bars, _ := spendBars(a.Run)
	top, tallest := 0, 0.0
	for i := range a.Run.Actions {
		u := a.Run.Actions[i].Usage
		if k := int(u.InputTokens + u.OutputTokens); k > top {
			top = k
		}
	}
	for _, b := range bars {
		tallest = max(tallest, b.H)
	}
	if top == 0 || tallest != chartH-2*chartPad {
		t.Errorf("largest step %d tokens, tallest bar %v", top, tallest)
	}
}

// A final the run never declared, scored as the union of its steps, is
// said on the page as on every surface.
func TestPageSaysUnionFinal(t *testing.T) {
	a := exporttest.Demo(t)
	if bytes.Contains(render(t, a, Options{Lens: model.LensObserved}), []byte(story.FinalStandIn)) {
		t.Fatal("the demo declares its final, yet the page says it does not")
	}
	a.Lenses[model.LensObserved].FinalStandIn = true
	if !bytes.Contains(render(t, a, Options{Lens: model.LensObserved}), []byte(`"standIn":"`+story.FinalStandIn+`"`)) {
		t.Error("the page's observed lens does not carry the stand-in")
	}
}
