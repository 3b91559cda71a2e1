// Package site writes a static, offline site of many runs (trajscope export
// site): an index holding the run list (the terminal's columns, cells and
// sorting, with a filter box), a page per run (the single-run page, linked
// back), and a compare page per task of several runs, gold span by gold
// span. Every page carries the single page's Content-Security-Policy:
// nothing loads, nothing runs but its own inline style and script.
package site

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strings"

	"github.com/trajscope/trajscope/compare"
	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/export/html"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/story"
)

// Run is one run of the site: what its index row, its page and its task's
// compare page show of it.
type Run struct {
	Row story.Row
	// Page is its page's file name ("" when it has none: a file that
	// could not be read, a run without actions).
	Page string
	// Task is the task it is of (story.Task), and key what tells tasks
	// apart (story.TaskKey: two ids --redact made one are two tasks);
	// runs of one task are compared.
	Task string
	key  string
	// Gold is what became of each gold span of its task under the site's
	// lens, in the gold's order.
	Gold []Cell
}

// taskKey is what tells the run's task apart from others.
func (r *Run) taskKey() string {
	if r.key == "" {
		return "id:" + r.Task
	}
	return r.key
}

// Cell is one gold span of a run: its name ("file:start-end") and what
// became of it.
type Cell struct {
	Span, Label string
}

// Describe takes what the site shows of an analysed run from its story.
func Describe(st *story.Story, page string, lens model.Lens) Run {
	r := Run{Page: page, Task: st.Task(), key: st.TaskKey()}
	for k := range st.Gold.Spans {
		g := &st.Gold.Spans[k]
		name := termsafe.Line(g.File())
		if !g.FileLevel() {
			name += fmt.Sprintf(":%d-%d", g.Start(), g.End())
		}
		label := compare.GoldText(g, lens) // as the terminal's compare says it: "@5 found 16/28 kept"
		if eds := st.Target.Lenses[lens].Edits; eds != nil {
			label = display.EditLabel(eds[k])
		}
		r.Gold = append(r.Gold, Cell{Span: name, Label: label})
	}
	return r
}

var (
	//go:embed index.tmpl
	indexTmpl string
	//go:embed index.js
	indexJS string
	//go:embed site.css
	siteCSS string

	templates = lazyTemplates()
)

func lazyTemplates() func() *template.Template {
	var t *template.Template
	return func() *template.Template {
		if t == nil {
			t = template.Must(template.New("index").Parse(indexTmpl))
		}
		return t
	}
}

var unsafeName = lazyre.New(`[^A-Za-z0-9._-]+`)

// ComparePage is the file name of a task's compare page: its id made a
// safe file name, with n telling apart tasks whose ids make the same one.
func ComparePage(task string, n int) string {
	name := strings.Trim(unsafeName().ReplaceAllString(task, "_"), "._")
	if len(name) > 80 {
		name = name[:80]
	}
	return fmt.Sprintf("compare-%d-%s.html", n, name)
}

// indexView is what the index template fills in.
type indexView struct {
	CSP, Title string
	CSS        template.CSS
	JS, Data   template.JS
	Lens       string
	Heads      []head
	Rows       []indexRow
	Compares   int
	// Models summarise the runs per agent and model; Legend explains the
	// marks the cells use.
	Models []modelRow
	Legend []string
}

// modelRow is one agent/model's runs on the index: how many, how many the
// lens scored, and their mean figures.
type modelRow struct {
	Who                   string
	Runs, Scored          int
	Coverage, AUC, Tokens string
	Found                 string
}

type head struct {
	Title string
	Col   int
	Num   bool
}

type indexRow struct {
	Compare string
	Cells   []indexCell // the shown columns'
	Search  string      // what the filter matches, lower-cased
	// Why is the reason a run has no figures ("-" cells), shown under its
	// instance.
	Why string
}

// indexCell is one cell: the instance's links to its run's page; a
// number's is right-aligned. Full is the whole text of a cell the page
// cuts to its width (shown on hover).
type indexCell struct {
	Text, Link, Full string
	Instance, Num    bool
}

// indexData is the index script's data: for each column, the rows in
// ascending and in descending order, as the terminal sorts them
// (report.SortRows), and which columns sort descending first.
type indexData struct {
	Order [][2][]int `json:"order"`
	Desc  []bool     `json:"desc"`
}

// WriteIndex writes the index page: the runs in the run list's columns,
// sortable by each as the terminal sorts, a filter box, each run's
// instance linking to its page and its task to the compare page
// (compare, by task key; "" for none).
func WriteIndex(w io.Writer, runs []Run, lens model.Lens, title string, compare map[string]string) error {
	rows := make([]story.Row, len(runs))
	for i := range runs {
		rows[i] = runs[i].Row
	}
	labels := story.Labels(rows)
	shown := report.ColumnsShown(rows)
	v := &indexView{Title: termsafe.Line(title), Lens: lens.String()}
	for i, c := range report.ListColumns {
		if shown[i] {
			v.Heads = append(v.Heads, head{Title: c.Title, Col: i, Num: c.Metric || i == report.ColPos || i == report.ColActions})
		}
	}
	data := indexData{}
	for i, c := range report.ListColumns {
		view := func(desc bool) []int {
			idx := make([]int, len(rows))
			for k := range idx {
				idx[k] = k
			}
			report.SortRows(idx, rows, i, lens, desc)
			return idx
		}
		data.Order = append(data.Order, [2][]int{view(false), view(true)})
		data.Desc = append(data.Desc, c.Metric)
	}
	marks := map[string]bool{}
	for i := range runs {
		r := &rows[i]
		ir := indexRow{Compare: compare[runs[i].taskKey()]}
		if f := &r.Lenses[lens]; r.Analysed && f.Error != "" {
			ir.Why = termsafe.Line("not scored: " + f.Error)
			if f.Reason != "" {
				ir.Why += termsafe.Line(" (" + f.Reason + ")")
			}
		}
		for _, h := range v.Heads {
			if h.Col == report.ColInstance {
				t := termsafe.Line(labels[i])
				ir.Cells = append(ir.Cells, indexCell{Text: t, Full: t, Link: runs[i].Page, Instance: true})
				continue
			}
			t := termsafe.Line(report.ListColumns[h.Col].Cell(r, lens))
			c := indexCell{Text: t, Num: h.Num}
			if !h.Num {
				c.Full = t
			}
			switch {
			case t == "-":
				marks["-"] = true
			case strings.HasPrefix(t, report.NoRepoMark):
				marks[report.NoRepoMark] = true
			}
			ir.Cells = append(ir.Cells, c)
		}
		ir.Search = strings.ToLower(termsafe.Line(r.ID + " " + r.Who() + " " + r.Path + " " + r.Format))
		if ir.Compare != "" {
			v.Compares++
		}
		v.Rows = append(v.Rows, ir)
	}
	if marks["-"] {
		v.Legend = append(v.Legend, "- not scored under this lens: the reason is under the run's instance")
	}
	if marks[report.NoRepoMark] {
		v.Legend = append(v.Legend, report.NoRepoLegend)
	}
	v.Models = modelRows(rows, lens)
	b, err := json.Marshal(data)
	if err != nil {
		return err
	}
	v.CSS, v.JS, v.Data = template.CSS(siteCSS), template.JS(indexJS), template.JS(b)
	v.CSP = html.Policy(siteCSS, indexJS)
	return templates().ExecuteTemplate(w, "index", v)
}

// letter names the i-th run of a compare page: A … Z, then A2 ….
func letter(i int) string {
	l := string(rune('A' + i%26))
	if i >= 26 {
		l += fmt.Sprint(i/26 + 1)
	}
	return l
}

// modelRows summarises the runs per agent and model (story.Row.Who), in
// first-seen order: the means are over the runs the lens scored, and say
// how many those are. One row of everything is no summary: nil then.
func modelRows(rows []story.Row, lens model.Lens) []modelRow {
	type acc struct {
		runs, scored    int
		cov, auc        float64
		tokens, tokensN float64
		found, spans    int
		kept, of        int
	}
	var order []string
	by := map[string]*acc{}
	for i := range rows {
		r := &rows[i]
		who := r.Who()
		if who == "" {
			who = "(agent and model not recorded)"
		}
		a := by[who]
		if a == nil {
			a = &acc{}
			by[who] = a
			order = append(order, who)
		}
		a.runs++
		if r.Tokens > 0 {
			a.tokens += float64(r.Tokens)
			a.tokensN++
		}
		f := &r.Lenses[lens]
		if !r.Analysed || f.Error != "" {
			continue
		}
		a.scored++
		a.cov += f.Coverage
		a.auc += f.AUC
		a.found += f.Found()
		a.spans += f.Diagnosis.Total()
		if f.FoundLines != nil {
			a.kept += f.FoundLines.Kept
			a.of += f.FoundLines.Of
		}
	}
	if len(order) < 2 {
		return nil
	}
	out := make([]modelRow, 0, len(order))
	for _, who := range order {
		a := by[who]
		m := modelRow{Who: termsafe.Line(who), Runs: a.runs, Scored: a.scored, Coverage: "–", AUC: "–", Tokens: "–", Found: "–"}
		if a.scored > 0 {
			m.Coverage = fmt.Sprintf("%.2f", a.cov/float64(a.scored))
			m.AUC = fmt.Sprintf("%.2f", a.auc/float64(a.scored))
			m.Found = fmt.Sprintf("%d of %d spans", a.found, a.spans)
			if a.of > 0 {
				m.Found += fmt.Sprintf(", %d of %d lines kept", a.kept, a.of)
			}
		}
		if a.tokensN > 0 {
			m.Tokens = display.Compact(int(a.tokens / a.tokensN))
		}
		out = append(out, m)
	}
	return out
}

// compareView is what the compare template fills in.
type compareView struct {
	CSP, Title, Task string
	CSS              template.CSS
	Lens             string
	Runs             []compareRun
	Spans            []compareSpan
}

type compareRun struct {
	// Label is the run's letter (A, B, …), Head what heads its gold
	// column: the letter and the model, or the file where no run names
	// its model. Name is the run as the index labels it (its file).
	Label, Head, Name, Page, Who string
	Cov, AUC, Red                string
}

type compareSpan struct {
	Span  string
	Cells []compareCell
}

type compareCell struct {
	Label, Link string
}

// WriteCompare writes the compare page of runs of one task: each run's
// figures, then each gold span (of any of them) with what became of it in
// each run, linking to the run's page at that span.
func WriteCompare(w io.Writer, task string, runs []Run, lens model.Lens) error {
	v := &compareView{Title: "trajscope · " + termsafe.Line(task), Task: termsafe.Line(task), Lens: lens.String(), CSS: template.CSS(siteCSS)}
	v.CSP = html.Policy(siteCSS, "")
	rows := make([]story.Row, len(runs))
	for i := range runs {
		rows[i] = runs[i].Row
	}
	labels := story.Labels(rows)
	index := map[string]int{}
	for i := range runs {
		f := &runs[i].Row.Lenses[lens]
		cr := compareRun{Label: letter(i), Name: termsafe.Line(labels[i]), Page: runs[i].Page, Who: termsafe.Line(runs[i].Row.Who()), Cov: "–", AUC: "–", Red: "–"}
		cr.Head = cr.Label + " · " + cr.Name
		if m := runs[i].Row.Model; m != "" {
			cr.Head = cr.Label + " · " + termsafe.Line(model.Who("", m))
		}
		if f.Error == "" && runs[i].Row.Analysed {
			cr.Cov, cr.AUC, cr.Red = fmt.Sprintf("%.2f", f.Coverage), fmt.Sprintf("%.2f", f.AUC), fmt.Sprintf("%.2f", f.Redundancy)
		} else if f.Error != "" {
			cr.Cov = termsafe.Line(f.Error)
		}
		v.Runs = append(v.Runs, cr)
		for k, c := range runs[i].Gold {
			j, ok := index[c.Span]
			if !ok {
				j = len(v.Spans)
				index[c.Span] = j
				v.Spans = append(v.Spans, compareSpan{Span: c.Span, Cells: make([]compareCell, len(runs))})
			}
			link := ""
			if runs[i].Page != "" {
				link = fmt.Sprintf("%s#gold-%d", runs[i].Page, k+1)
			}
			v.Spans[j].Cells[i] = compareCell{Label: termsafe.Line(c.Label), Link: link}
		}
	}
	for j := range v.Spans {
		for i := range v.Spans[j].Cells {
			if v.Spans[j].Cells[i].Label == "" {
				v.Spans[j].Cells[i].Label = "not in its gold"
			}
		}
	}
	return templates().ExecuteTemplate(w, "compare", v)
}
