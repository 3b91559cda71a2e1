package html

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/trajscope/trajscope/display"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
	"github.com/trajscope/trajscope/ui/viewdata"
)

// The page's data: everything the script needs to step through the run,
// read from the analysis and the explorer's precomputed run data. It is
// embedded as JSON with HTML escaping, so no run text can end the element
// that holds it; the script only ever puts its strings into the page as
// text.
type pageData struct {
	Instance string    `json:"instance"`
	N        int       `json:"n"`
	Start    int       `json:"start"`
	Lens     int       `json:"lens"`
	Lenses   []string  `json:"lenses"`
	Grans    []string  `json:"grans"`
	Actions  []action  `json:"actions"`
	L        [2]lens   `json:"l"`
	Files    []file    `json:"files"`
	Gold     []goldRow `json:"gold"`
	// NoRepo: the source of the files is unknown (no repository given).
	NoRepo bool `json:"noRepo"`
	// Mark[g] is what stands for granularity g's figures where a lens
	// cannot show them ("–" or "n/a"), as in the explorer.
	Mark []string `json:"mark"`
	// Chart is the coverage charts' width, height and padding.
	Chart [3]float64 `json:"chart"`
	// Agents are each agent's figures per lens, the lead first, as the
	// explorer and the summary show them; empty for a run of one agent.
	Agents [2][]agentRow `json:"agents"`
	// Empty says why the target has no span (display.EmptyTarget).
	Empty string `json:"empty"`
	// Order is the timeline's order of the actions when the run has
	// sub-agents (each one's under the call that started it, as the
	// explorer lists them); nil for time order.
	Order []int `json:"order,omitempty"`
}

// agentRow is one agent's figures under a lens.
type agentRow struct {
	Label   string `json:"label"`
	Depth   int    `json:"depth"`
	Started int    `json:"started"` // the action (0-based) that started it; -1 for the lead
	Actions int    `json:"actions"`
	Read    int    `json:"read"`
	Reread  int    `json:"reread"`
	Gold    int    `json:"gold"`
	// Recorded says what an agent whose transcript the run does not hold
	// did, as its call's result records it.
	Recorded string `json:"recorded,omitempty"`
}

type action struct {
	Cat     string `json:"cat"`
	Glyph   string `json:"glyph"`
	Short   string `json:"short"`
	Tool    string `json:"tool,omitempty"`
	Cmd     string `json:"cmd,omitempty"`
	Thought string `json:"thought,omitempty"`
	Obs     string `json:"obs,omitempty"`
	// Lines counts the output's lines; Cut those left out of Obs.
	Lines int `json:"lines"`
	Cut   int `json:"cut,omitempty"`
	// Spend is what the action took ("2.8s · 139 tokens"), when recorded.
	Spend string `json:"spend,omitempty"`
	// Row is the action as the explorer's timeline shows it: a sub-agent's
	// under the call that started it, named where its stretch starts.
	Row string `json:"row"`
	// Agent is the agent that made it ("" for a run of one agent), and
	// its depth below the lead.
	Agent string `json:"agent,omitempty"`
	Depth int    `json:"depth,omitempty"`
	// Failed says why the command failed ("" when it did not); NotRun: it
	// was refused before it ran. Counted[lens] says when the lens counts
	// its lines anyway, as the evaluator does.
	Failed  string    `json:"failed,omitempty"`
	NotRun  bool      `json:"notRun,omitempty"`
	Counted [2]string `json:"counted"`
}

// lens is one lens's per-action figures, as scoring.Analyze counted them.
type lens struct {
	NewGold   []int  `json:"newGold"`
	Pure      []bool `json:"pure"`
	CumRead   []int  `json:"cumRead"`
	CumReread []int  `json:"cumReread"`
	StepsDone []int  `json:"stepsDone"`
	NumSteps  int    `json:"numSteps"`
	// Now[i] are the lines action i put in view: [file, start, end].
	Now [][][3]int `json:"now"`
	// Focus[i] is the file and line action i is about ([-1, 0]: none).
	Focus [][2]int `json:"focus"`
	// Curve[g][i] is the cumulative coverage at granularity g after action i.
	Curve [4][]float64 `json:"curve"`
	// Final[g] is the final context's [coverage, precision].
	Final   [4][2]float64 `json:"final"`
	AUC     [4]float64    `json:"auc"`
	Red     [4]float64    `json:"red"`
	Error   string        `json:"error,omitempty"`
	Reason  string        `json:"reason,omitempty"`
	EditLoc *[2]float64   `json:"editloc"`
	// StandIn says the final scored is the union of the steps, the run
	// having declared none (story.FinalStandIn); "" otherwise.
	StandIn string `json:"standIn,omitempty"`
	// Missing[g] says why granularity g's coverage cannot be shown under
	// the lens ("no gold", "not scored: no_context_extracted", "needs the
	// repository"; "" when it can): no curve is drawn then.
	Missing [4]string `json:"missing"`
	// Points[g] is Curve[g] as chart coordinates.
	Points [4]string `json:"-"`
}

// file is a file the page can show. Its source is in the page (element
// "f<index>") when OK.
type file struct {
	raw  string
	Path string `json:"path"`
	OK   bool   `json:"ok"`
	// Large is the size of a file too large for the page (maxEmbed), whose
	// source the page does not carry.
	Large int         `json:"large,omitempty"`
	Lines int         `json:"lines"`
	Gold  [][2]int    `json:"gold"`
	Final [2][][2]int `json:"final"`
	// First[lens] lists [start, end, action]: lines first read by action.
	First [2][][3]int `json:"first"`
}

// goldRow is one gold span (or gold file) with its diagnosis per lens.
type goldRow struct {
	File      int       `json:"file"`
	Start     int       `json:"start"`
	End       int       `json:"end"`
	FileLevel bool      `json:"fileLevel"`
	Lines     int       `json:"lines"`
	InFinal   [2]bool   `json:"inFinal"`
	FoundAt   [2]int    `json:"foundAt"`
	Closest   [2]int    `json:"closest"`
	Cat       [2]string `json:"cat"`
	Label     [2]string `json:"label"`
	Desc      [2]string `json:"desc"`
	// ReadBy[lens] lists [action, lines read by then] where the count grows.
	ReadBy [2][][2]int `json:"readBy"`
	// FoundBy[lens] names the sub-agent that first put it in view
	// ("found by Explore @14"), "" for the lead or a run of one agent.
	FoundBy [2]string `json:"foundBy"`
}

// Limits on how much output the page carries, like the explorer's
// observation pane: a huge output would make the page slow to open for text
// nobody scrolls through. Once the outputs so far pass obsBudget, each
// further one keeps only its first obsTail bytes, so a run of thousands of
// large outputs still makes a page a browser opens.
const (
	maxObsLines = 20000
	maxObsBytes = 256 << 10
	obsTail     = 8 << 10
)

var obsBudget = 24 << 20 // a variable so a test can lower it

func buildData(d *viewdata.Data, o Options) *pageData {
	a := d.A
	p := &pageData{Instance: termsafe.Line(d.Run.InstanceID), N: d.N, Lens: int(o.Lens), Start: max(o.Step, 1) - 1,
		NoRepo: !a.HasRepo(), Chart: [3]float64{chartW, chartH, chartPad}}
	p.Start = min(p.Start, d.N-1)
	// Empty lists, not nulls: the script iterates them.
	p.Files, p.Gold = []file{}, []goldRow{}
	p.Empty = display.EmptyTarget(&d.S.Target)
	for _, l := range model.Lenses {
		p.Lenses = append(p.Lenses, l.String())
	}
	for _, g := range model.Granularities {
		p.Mark = append(p.Mark, display.Missing(a.GoldEmpty()))
		p.Grans = append(p.Grans, g.String())
	}
	if len(d.Run.Agents) > 1 {
		p.Order = d.Grouped
	}
	total := 0
	spends := story.StepSpends(d.Run)
	for i := range d.Run.Actions {
		act := &d.Run.Actions[i]
		cat := display.Category(act).String()
		limit := maxObsBytes
		if total > obsBudget {
			limit = obsTail
		}
		// Control characters become visible escapes, as in the explorer:
		// a browser would hide them, and bidi overrides would reorder text.
		obs, lines, cut := clip(termsafe.Text(strings.TrimSuffix(d.Run.Observation(i), "\n")), limit)
		total += len(obs)
		pa := action{Cat: cat, Glyph: display.ActionGlyph(act), Short: d.Short(i), Row: termsafe.Line(d.Row(i, false)),
			Tool: termsafe.Line(act.Tool), Cmd: termsafe.Text(act.Command), Thought: termsafe.Text(strings.TrimSpace(d.Run.Thought(i))),
			Obs: obs, Lines: lines, Cut: cut, Spend: display.SpendWords(spends[i])}
		if len(d.Run.Agents) > 1 {
			pa.Agent = termsafe.Line(d.AgentOf(i))
			if k := int(act.Agent); k > 0 && k < len(d.Run.Agents) {
				pa.Depth = min(int(d.Run.Agents[k].Depth), display.MaxIndent)
			}
		}
		if act.Failed() {
			pa.Failed, pa.NotRun = termsafe.Line(act.Failure), act.NotRun
			for _, l := range model.Lenses {
				pa.Counted[l] = display.FailedButCounted(d.A, l, i)
			}
		}
		p.Actions = append(p.Actions, pa)
	}
	for _, l := range model.Lenses {
		p.Agents[l] = []agentRow{}
		for _, f := range d.S.Agents[l] {
			row := agentRow{Label: termsafe.Line(story.Label(d.Run, f.Index)), Depth: min(int(f.Depth), display.MaxIndent), Started: -1,
				Actions: f.Actions, Read: f.ReadLines, Reread: f.RereadLines, Gold: f.GoldFound}
			if f.Index > 0 {
				row.Started = int(f.Call)
			}
			if f.Recorded != nil {
				row.Recorded = display.RecordedWork(f.Recorded)
			}
			p.Agents[l] = append(p.Agents[l], row)
		}
	}
	index := p.files(d)
	for _, l := range model.Lenses {
		p.L[l] = lensData(d, l, index)
	}
	for k := range d.Gold {
		g := &d.Gold[k]
		row := goldRow{File: index[g.File()], Start: g.Start(), End: g.End(), FileLevel: g.FileLevel(), Lines: g.Lines(),
			InFinal: [2]bool{g.InFinal(0), g.InFinal(1)}, FoundAt: [2]int{g.FoundAt(0), g.FoundAt(1)}}
		for _, l := range model.Lenses {
			row.Closest[l] = g.Closest(l)
			row.Cat[l] = g.Category(l).Key()
			row.Label[l] = g.Label(l)
			row.Desc[l] = g.Describe(l)
			row.FoundBy[l] = termsafe.Line(story.FoundByWords(d.Run, g.FoundAt(l)))
			if eds := d.S.Target.Lenses[l].Edits; eds != nil {
				row.Desc[l] = display.EditWords(eds[k]) + "; " + row.Desc[l]
			}
			if !g.FileLevel() && g.FoundAt(l) >= 0 {
				last := 0
				for i := g.FoundAt(l); i < d.N; i++ {
					if n := g.ReadBy(l, i); n != last {
						row.ReadBy[l] = append(row.ReadBy[l], [2]int{i, n})
						last = n
					}
				}
			}
		}
		p.Gold = append(p.Gold, row)
	}
	return p
}

// clip cuts an output to maxObsLines lines and limit bytes, at a line end
// when it can.
func clip(s string, limit int) (text string, lines, cut int) {
	if s == "" {
		return "", 0, 0
	}
	lines = strings.Count(s, "\n") + 1
	end, n := 0, 0
	for n < maxObsLines && end < len(s) {
		next := len(s)
		if k := strings.IndexByte(s[end:], '\n'); k >= 0 {
			next = end + k + 1
		}
		if next > limit {
			break
		}
		end, n = next, n+1
	}
	if end >= len(s) {
		return s, lines, 0
	}
	if n == 0 {
		// A first line longer than the limit: cut inside it, on a
		// character boundary.
		end = limit
		for end > 0 && !utf8.RuneStart(s[end]) {
			end--
		}
		return s[:end], lines, lines - 1
	}
	return strings.TrimSuffix(s[:end], "\n"), lines, lines - n
}

// files lists the files the page carries: the gold files and every file an
// action put in view, in the file picker's order, then the other files an
// action is about (a search hit) by path. It returns each path's index.
func (p *pageData) files(d *viewdata.Data) map[string]int {
	index := map[string]int{}
	var paths []string
	for _, f := range d.Order {
		index[f] = len(paths)
		paths = append(paths, f)
	}
	var rest []string
	for _, l := range model.Lenses {
		for _, t := range d.Focus[l] {
			if _, ok := index[t.File]; !ok && t.File != "" && !slices.Contains(rest, t.File) {
				rest = append(rest, t.File)
			}
		}
	}
	sort.Strings(rest)
	for _, f := range rest {
		index[f] = len(paths)
		paths = append(paths, f)
	}
	for _, path := range paths {
		fd := d.File(path)
		f := file{raw: path, Path: termsafe.Line(path), OK: fd.OK, Lines: fd.Lines, Gold: pairs(fd.Gold), Final: [2][][2]int{pairs(fd.Final[0]), pairs(fd.Final[1])}}
		for _, l := range model.Lenses {
			f.First[l] = firstRuns(fd.First[l])
		}
		p.Files = append(p.Files, f)
	}
	return index
}

func pairs(ivs []model.Interval) [][2]int {
	out := [][2]int{}
	for _, iv := range ivs {
		out = append(out, [2]int{iv.Start, iv.End})
	}
	return out
}

// firstRuns compresses a first-read table (index = line) into runs of lines
// first read by the same action; lines never read are left out.
func firstRuns(first []int32) [][3]int {
	out := [][3]int{}
	for line := 1; line < len(first); line++ {
		v := int(first[line])
		if v == viewdata.Never {
			continue
		}
		if n := len(out); n > 0 && out[n-1][1] == line-1 && out[n-1][2] == v {
			out[n-1][1] = line
			continue
		}
		out = append(out, [3]int{line, line, v})
	}
	return out
}

func lensData(d *viewdata.Data, l model.Lens, index map[string]int) lens {
	ld := &d.A.Lenses[l]
	fig := &d.S.Lenses[l]
	done := make([]int, len(ld.StepsDone))
	for i := range done {
		done[i] = ld.DoneAt(i)
	}
	out := lens{StepsDone: done, NumSteps: fig.Steps, Error: fig.Error, Reason: termsafe.Line(fig.Reason)}
	for i := range ld.Actions {
		v := &ld.Actions[i]
		out.NewGold = append(out.NewGold, int(v.NewGold))
		out.Pure = append(out.Pure, v.PureReread())
		out.CumRead = append(out.CumRead, v.CumRead)
		out.CumReread = append(out.CumReread, v.CumReread)
		now := [][3]int{}
		for _, fl := range v.Lines {
			k, ok := index[fl.File]
			for _, iv := range fl.Spans {
				if ok { // every file a lens put in view is one of the page's
					now = append(now, [3]int{k, iv.Start, iv.End})
				}
			}
		}
		out.Now = append(out.Now, now)
		t := d.Focus[l][i]
		if k, ok := index[t.File]; ok {
			out.Focus = append(out.Focus, [2]int{k, t.Line})
		} else {
			out.Focus = append(out.Focus, [2]int{-1, 0})
		}
	}
	res := &ld.Result
	for _, g := range model.Granularities {
		if out.Missing[g] = d.A.Uncomputable(l, g); out.Missing[g] != "" {
			out.Curve[g] = []float64{}
			continue
		}
		out.Curve[g] = ld.Curve(g)
		m := res.Final.At(g)
		out.Final[g] = [2]float64{m.Coverage, m.Precision}
		out.AUC[g] = *res.Trajectory.AUCCoverage.At(g)
		out.Red[g] = *res.Trajectory.Redundancy.At(g)
		out.Points[g] = points(out.Curve[g])
	}
	if e := res.EditLoc; e != nil {
		out.EditLoc = &[2]float64{e.Recall, e.Precision}
	}
	if ld.FinalStandIn {
		out.StandIn = story.FinalStandIn
	}
	return out
}
