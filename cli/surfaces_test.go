package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	htmlpkg "html"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/testkit/goosedbtest"
	"github.com/trajscope/trajscope/testkit/opencodedbtest"
)

// The cross-surface test: every surface that says something about a run —
// score's rows and extras, view --json, the plain summary, the run list,
// compare, convert and the page — is run on every real sample in
// ../shared/data and on generated edge cases, and what each says about
// each run is compared field by field. A surface or a field joins by one
// line: a row in surfaces, a key in its reader.
//
// Facts are keyed "field/lens" ("cov/contextbench") or "field" ("exit");
// a surface gives the said it shows and no others. Two surfaces that give
// one fact for one run must agree on it.

// said are what one surface says about one run.
type said map[string]string

// sample is one input: the run files and the flags every surface gets.
type sample struct {
	name string
	file string
	// runs is how many runs the file holds (each is read by position).
	runs int
	args []string
	// score: the evaluator can score it here (a repository is given);
	// without one it gives checkout_failed, a row with nothing to compare.
	score bool
	// skip names surfaces that say nothing of the sample, and why.
	skip map[string]string
}

var lensNames = []string{"contextbench", "observed"}

// surface reads what one command says about run k (0-based) of a sample,
// under each lens.
type surface struct {
	name string
	read func(t *testing.T, s sample) []said
}

var surfaces = []surface{
	{"view --json", viewJSONFacts},
	{"summary", summaryFacts},
	{"run list", runListFacts},
	{"compare", compareFacts},
	{"convert", convertFacts},
	{"export html", exportFacts},
	{"export site", siteFacts},
	{"score", scoreFacts},
	{"score of convert", convertedScoreFacts},
	{"report", reportFacts},
}

func TestSurfacesAgree(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	samples := append(edgeSamples(t), realSamples(t)...)
	if len(samples) < 8 {
		t.Fatalf("%d samples", len(samples))
	}
	checkSurfaces(t, samples)
}

// checkSurfaces runs every surface on every sample and compares what they
// say of each run.
func checkSurfaces(t *testing.T, samples []sample) {
	for _, s := range samples {
		t.Run(s.name, func(t *testing.T) {
			byName := map[string][]said{}
			for _, sf := range surfaces {
				if (sf.name == "score" || sf.name == "score of convert" || sf.name == "report") && !s.score {
					continue
				}
				if _, ok := s.skip[sf.name]; ok {
					continue
				}
				fs := sf.read(t, s)
				if len(fs) != s.runs {
					t.Fatalf("%s: %d runs, want %d", sf.name, len(fs), s.runs)
				}
				byName[sf.name] = fs
			}
			for k := 0; k < s.runs; k++ {
				// Every surface says something of every run: a reader
				// that found nothing would agree with everything.
				first := map[string]string{}  // fact -> value
				source := map[string]string{} // fact -> surface
				names := make([]string, 0, len(byName))
				for n := range byName {
					names = append(names, n)
				}
				sort.Strings(names)
				for _, n := range names {
					f := byName[n][k]
					if len(f) == 0 {
						t.Errorf("run %d: %s says nothing", k+1, n)
					}
					for key, v := range f {
						if w, ok := first[key]; ok && w != v {
							t.Errorf("run %d: %s: %s says %q, %s says %q", k+1, key, source[key], w, n, v)
							continue
						}
						first[key], source[key] = v, n
					}
				}
				if os.Getenv("SURFACES_DEBUG") != "" {
					t.Logf("run %d: %v", k+1, first)
				}
				if _, ok := first["steps/contextbench"]; !ok {
					t.Errorf("run %d: no surface gives the step counts", k+1)
				}
			}
		})
	}
}

// edgeSamples are the demo run bent into the cases where surfaces used to
// disagree: no repository, no final context, empty gold, a model-prefixed
// file name, an exit without submitting, both semantics.
func edgeSamples(t *testing.T) []sample {
	dir := t.TempDir()
	repo := []string{"--gold", demoGold, "--repo", "../demo/task/repo"}
	in := func(name string) string {
		d := filepath.Join(dir, name)
		os.MkdirAll(d, 0o755)
		return d
	}
	noFinal := editDemo(t, in("nofinal"), func(doc map[string]any) {
		msgs := doc["messages"].([]any)
		doc["messages"] = msgs[:39] // before the context request and the final context
		doc["info"].(map[string]any)["exit_status"] = "LimitsExceeded"
	})
	refused := editDemo(t, in("refused"), func(doc map[string]any) {
		doc["info"].(map[string]any)["exit_status"] = "ExploreContextEnforcementExceeded"
	})
	emptyGold := write(t, filepath.Join(dir, "empty-gold.json"), `{"inst_id": "pricebook__pricebook-42", "repo": "trajscope/pricebook", "commit": "33eff6b9e5a55a7ce35e763d70bb0dd0c767a983", "gold_ctx": []}`)
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	prefixed := write(t, filepath.Join(in("prefixed"), "qwen_8b__pricebook__pricebook-42.traj.json"), string(data))
	// A git repository (released after its last instance) and a gold file
	// only a search listed: score's diagnosis must resolve the hit while
	// the checkout is open, as view's does.
	gitRepo, gitGold := gitVectorRepo(t)
	searched := write(t, filepath.Join(in("searched"), "owner__repo-1.traj.json"), miniTraj(
		[]string{exploreEcho("pkg/mod.py", 4, 5), "grep -rl Y pkg"}, []string{"ok", "pkg/util.py"}, "File: pkg/mod.py\nLines: 4-5"))
	var demo struct {
		Patch string `json:"patch"`
	}
	goldData, err := os.ReadFile(demoGold)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(goldData, &demo); err != nil || demo.Patch == "" {
		t.Fatalf("the demo gold's patch: %v", err)
	}
	patch := write(t, filepath.Join(dir, "gold.diff"), demo.Patch)
	// The agents' session databases: each session a run, read as its
	// export is.
	gooseDB := filepath.Join(in("goose"), "sessions.db")
	gdb := goosedbtest.Create(t, gooseDB)
	gooseExport, _ := os.ReadFile("../parsers/goose/testdata/export.json")
	gdb.Session("20260101_3", "/w")
	gdb.Add("20260101_3", goosedbtest.Conversation(t, gooseExport)...)
	gdb.Session("20260101_4", "/w")
	gdb.Add("20260101_4", goosedbtest.Prompt("look", 20), goosedbtest.Shell("c", "cat -n /w/lib/range.py", 21))
	openCodeDB := filepath.Join(in("opencode"), "opencode.db")
	odb := opencodedbtest.Create(t, openCodeDB)
	openCodeExport, _ := os.ReadFile("../parsers/opencode/testdata/export.json")
	odb.Session("ses_1", "", "/home/u/app", 1767225600000)
	odb.Add("ses_1", 1767225600000, opencodedbtest.Messages(t, openCodeExport)...)
	return []sample{
		{name: "Goose's database", file: gooseDB, runs: 2,
			skip: map[string]string{"compare": "its two sessions are two tasks; compare pairs runs of one"}},
		{name: "OpenCode's database", file: openCodeDB, runs: 1},
		{name: "patch as gold", file: demoTraj, runs: 1, args: []string{"--gold", patch, "--repo", "../demo/task/repo"}, score: true},
		{name: "search hit in a git repository", file: searched, runs: 1, args: []string{"--gold", gitGold, "--repo", gitRepo}, score: true},
		{name: "demo", file: demoTraj, runs: 1, args: repo, score: true},
		{name: "demo fixed semantics", file: demoTraj, runs: 1, args: append([]string{"--semantics", "fixed"}, repo...), score: true},
		{name: "demo without repository", file: demoTraj, runs: 1, args: []string{"--gold", demoGold}},
		{name: "demo without gold", file: demoTraj, runs: 1},
		{name: "demo's edits as the target", file: demoTraj, runs: 1, args: []string{"--repo", "../demo/task/repo"}},
		{name: "no final context", file: noFinal, runs: 1, args: repo, score: true},
		{name: "submit refused", file: refused, runs: 1, args: repo, score: true},
		{name: "empty gold", file: demoTraj, runs: 1, args: []string{"--gold", emptyGold, "--repo", "../demo/task/repo"}},
		{name: "prefixed file name", file: prefixed, runs: 1, args: repo, score: true},
		{name: "prefixed file name fixed", file: prefixed, runs: 1, args: append([]string{"--semantics", "fixed"}, repo...), score: true,
			skip: map[string]string{"score of convert": "records name the run by its file (the evaluator's id), which no gold row has"}},
	}
}

// realSamples are every sample run in ../shared/data/formats (none when it
// is absent): the runs this project did not write, without their
// repositories (the tests read nothing else), with gold where the
// benchmark has it.
func realSamples(t *testing.T) []sample {
	formats := filepath.Join(sharedData, "formats")
	verified := filepath.Join(sharedData, "contextbench", "contextbench_verified_test.parquet")
	if _, err := os.Stat(formats); err != nil {
		return nil
	}
	var out []sample
	for _, c := range []struct {
		file string
		runs int
		gold bool
	}{
		{"mini-swe-agent-v1/pydata__xarray-4075.traj.json", 1, true},
		{"mini-swe-agent-v1/django__django-12419.traj.json", 1, true},
		{"mini-swe-agent-v1/django__django-15104.traj.json", 1, true},
		{"mini-swe-agent-v2/astropy__astropy-12907.traj.json", 1, false},
		{"swe-agent/pallets__flask-5014.traj", 1, false},
		{"swe-agent/pallets__flask-5014.checkpoints.jsonl", 1, false},
		{"agentstackbench/codex-gpt-5.4__django__django-11163.json", 2, true},
		{"claude-code/d7d4e19e-608d-44ef-b166-cd050ef274ba.jsonl", 1, false},
		{"claude-code/trajectory.json", 1, false},
		{"claude-code-native/orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl", 1, false},
		{"claude-code-subagents/entireio-cli__ckpt-5098e5414812-0.full.jsonl", 1, false},
		{"claude-code-subagents/entireio-cli__ckpt-78332696ed94-0.full.jsonl", 1, false},
		{"codex-rollout/rollout-2025-11-17T15-30-28-019a93b9-f380-7600-98ff-940e6b99603c.jsonl", 1, false},
		{"gemini-cli/entireio-cli__ckpt-ab2b9748b105-0.full.jsonl", 1, false},
		{"qwen-code/real_session_v0_21_14.jsonl", 1, false},
		{"goose/real_export_v1_46_0.json", 1, false},
		{"openhands-export/openhands_trajectory.json", 1, false},
		{"atif-terminus2/trajectory.json", 1, false},
	} {
		p := filepath.Join(formats, c.file)
		if _, err := os.Stat(p); err != nil {
			t.Errorf("sample %s is gone: %v", c.file, err)
			continue
		}
		s := sample{name: c.file, file: p, runs: c.runs}
		if c.gold {
			s.args = []string{"--gold", verified}
		}
		out = append(out, s)
	}
	return out
}

// withRun is args picking run k of the sample when it holds several.
func withRun(s sample, k int, args ...string) []string {
	out := append(append([]string{}, args...), s.args...)
	if s.runs > 1 {
		out = append(out, "--instance", strconv.Itoa(k+1))
	}
	return out
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errs := exec(t, args...)
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out
}

// runSteppable runs a command that steps through a run (compare, export);
// empty reports that it refused the run for having no actions, as it must:
// what it says of the run is then only that.
func runSteppable(t *testing.T, args ...string) (out string, empty bool) {
	t.Helper()
	code, out, errs := exec(t, args...)
	if code != 0 && strings.Contains(errs, "no actions") {
		return "", true
	}
	if code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, errs)
	}
	return out, false
}

// empty is n runs of which nothing is said yet.
func empty(n int) []said {
	out := make([]said, n)
	for k := range out {
		out[k] = said{}
	}
	return out
}

// figure writes a number the way every fact holds it.
func figure(v float64) string { return strconv.FormatFloat(v, 'f', 6, 64) }

var categoryKeys = []string{"found", "read_then_dropped", "near_miss", "searched_not_read", "never_opened"}

// counts writes diagnosis counts in one order.
func counts(c map[string]int) string {
	parts := make([]string, len(categoryKeys))
	for i, k := range categoryKeys {
		parts[i] = strconv.Itoa(c[k])
	}
	return strings.Join(parts, ",")
}

// lensFigures are one lens's said from a story.Figures-shaped object.
type lensFigures struct {
	Steps      *int           `json:"steps"`
	Error      string         `json:"error"`
	Coverage   *float64       `json:"final_line_coverage"`
	AUC        *float64       `json:"line_auc"`
	Redundancy *float64       `json:"line_redundancy"`
	Diagnosis  map[string]int `json:"diagnosis"`
	Initial    *float64       `json:"initial_recall"`
	Blind      *int           `json:"blind_edits"`
}

func (lf *lensFigures) put(f said, lens string) {
	if lf.Steps != nil {
		f["steps/"+lens] = strconv.Itoa(*lf.Steps)
	}
	f["error/"+lens] = lf.Error
	if lf.Error != "" {
		return
	}
	for key, v := range map[string]*float64{"cov": lf.Coverage, "auc": lf.AUC, "red": lf.Redundancy} {
		if v != nil {
			f[key+"/"+lens] = figure(*v)
		}
	}
	if lf.Diagnosis != nil {
		f["diag/"+lens] = counts(lf.Diagnosis)
	}
	if lf.Initial != nil {
		f["init/"+lens] = figure(*lf.Initial)
	}
	if lf.Blind != nil {
		f["blind/"+lens] = strconv.Itoa(*lf.Blind)
	}
}

type outcomeJSONFacts struct {
	ExitStatus string `json:"exit_status"`
	Rejected   int    `json:"rejected_submits"`
	Tokens     int    `json:"tokens"`
}

func viewJSONFacts(t *testing.T, s sample) []said {
	var out []said
	for k := 0; k < s.runs; k++ {
		var doc struct {
			Actions []any                  `json:"actions"`
			Lenses  map[string]lensFigures `json:"lenses"`
			Outcome outcomeJSONFacts       `json:"outcome"`
			Missing string                 `json:"repository_missing"`
			From    string                 `json:"gold_from"`
			Target  *struct {
				Lenses map[string]struct {
					Blind int `json:"blind_edits"`
				} `json:"lenses"`
			} `json:"target"`
			Gold []struct {
				File      string            `json:"file"`
				Start     int               `json:"start"`
				End       int               `json:"end"`
				Diagnosis map[string]string `json:"diagnosis"`
				Closest   map[string]int    `json:"closest_action"`
				FoundBy   map[string]int    `json:"found_by"`
			} `json:"gold"`
			Steps []struct {
				Failed string `json:"failed"`
				Agent  *int   `json:"agent"`
			} `json:"-"`
			Agents []struct {
				Label     string         `json:"label"`
				Actions   int            `json:"actions"`
				ReadLines map[string]int `json:"read_lines"`
				Reread    map[string]int `json:"reread_lines"`
				GoldFound map[string]int `json:"gold_found"`
			} `json:"agents"`
		}
		text := mustRun(t, withRun(s, k, "view", s.file, "--json")...)
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		var steps struct {
			Actions []struct {
				Failed string `json:"failed"`
				Agent  *int   `json:"agent"`
			} `json:"actions"`
		}
		json.Unmarshal([]byte(text), &steps)
		f := said{"actions": strconv.Itoa(len(doc.Actions)), "exit": doc.Outcome.ExitStatus, "rejected": strconv.Itoa(doc.Outcome.Rejected),
			"tokens": strconv.Itoa(doc.Outcome.Tokens), "norepo": strconv.FormatBool(doc.Missing != ""), "gold_from": doc.From}
		// Per action: who made it, and the failures with their reasons.
		var failed, agents []string
		for i, a := range steps.Actions {
			if a.Failed != "" {
				failed = append(failed, fmt.Sprintf("%d:%s", i+1, termsafe.Line(a.Failed)))
			}
			label := ""
			if a.Agent != nil && *a.Agent >= 0 && *a.Agent < len(doc.Agents) {
				label = doc.Agents[*a.Agent].Label
			}
			agents = append(agents, label)
		}
		f["failed"], f["agent_of"] = strings.Join(failed, "|"), runs(agents)
		for _, l := range lensNames {
			var figs []string
			for _, ag := range doc.Agents {
				figs = append(figs, fmt.Sprintf("%s:%d:%d:%d:%d", ag.Label, ag.Actions, ag.ReadLines[l], ag.Reread[l], ag.GoldFound[l]))
			}
			f["agent_figs/"+l] = strings.Join(figs, "|")
			var shownAt, by []string
			for _, g := range doc.Gold {
				if c := g.Diagnosis[l]; c == "found" || c == "read_then_dropped" {
					shownAt = append(shownAt, fmt.Sprintf("%s:%d-%d@%d", g.File, g.Start, g.End, g.Closest[l]))
				}
				if k := g.FoundBy[l]; k > 0 && k < len(doc.Agents) {
					by = append(by, fmt.Sprintf("%s:%d-%d:%s", g.File, g.Start, g.End, doc.Agents[k].Label))
				}
			}
			f["shown_at/"+l], f["found_by/"+l] = sorted(shownAt), sorted(by)
		}
		if doc.Target != nil {
			for l, tl := range doc.Target.Lenses {
				if w, ok := f["blind/"+l]; ok && w != strconv.Itoa(tl.Blind) {
					t.Errorf("view --json run %d: target says %d blind edits under %s, the lens %s", k+1, tl.Blind, l, w)
				}
			}
		}
		for _, l := range lensNames {
			lf := doc.Lenses[l]
			lf.put(f, l)
			// The gold list says the same as the counts.
			if lf.Error == "" && lf.Diagnosis != nil {
				byKey := map[string]int{}
				for _, g := range doc.Gold {
					byKey[g.Diagnosis[l]]++
				}
				if counts(byKey) != counts(lf.Diagnosis) && len(doc.Gold) > 0 {
					t.Errorf("view --json run %d %s: gold list %v, counts %v", k+1, l, byKey, lf.Diagnosis)
				}
			}
			for _, g := range doc.Gold {
				if (lf.Error != "") != (g.Diagnosis[l] == "not_scored") {
					t.Errorf("view --json run %d %s: error %q, gold span %q", k+1, l, lf.Error, g.Diagnosis[l])
					break
				}
			}
		}
		out = append(out, f)
	}
	return out
}

var (
	stepsLine  = regexp.MustCompile(`(?m)^\d+ actions? · (\d+) contextbench steps? · (\d+) observed steps?$`)
	outcomeRe  = regexp.MustCompile(`(?m)^outcome: (.*)$`)
	notScored  = regexp.MustCompile(`(?m)^  (\w+) lens not scored: (\S+)`)
	finalLine  = regexp.MustCompile(`(?m)^  final context \(coverage/precision\): .* line ([0-9.]+)/`)
	goldHeader = regexp.MustCompile(`(?m)^gold \((\w+) lens\)`)
	// targetRe reads display.TargetWords, in the summary and the page.
	targetRe = regexp.MustCompile(`gold from (edits|the patch)(?:: .*?(\d+) blind edits?)?`)
)

// targetFacts reads where the gold came from, and the blind edits under
// the lens shown, from display.TargetWords (no words: a gold file).
func targetFacts(f said, text, lens string) {
	f["gold_from"] = "gold"
	if m := targetRe.FindStringSubmatch(text); m != nil {
		f["gold_from"] = strings.TrimPrefix(m[1], "the ")
		if m[2] != "" {
			f["blind/"+lens] = m[2]
		}
	}
}

// summaryFacts reads the plain summary under each lens.
func summaryFacts(t *testing.T, s sample) []said {
	var out []said
	for k := 0; k < s.runs; k++ {
		f := said{}
		for _, l := range lensNames {
			text := mustRun(t, withRun(s, k, "view", s.file, "--lens", l)...)
			m := stepsLine.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("summary without step counts:\n%.600s", text)
			}
			f["steps/contextbench"], f["steps/observed"] = m[1], m[2]
			f["norepo"] = strconv.FormatBool(strings.Contains(text, "\nno repository"))
			targetFacts(f, text, l)
			if m := outcomeRe.FindStringSubmatch(text); m != nil {
				exit, _, _ := strings.Cut(m[1], " · ")
				if exit != "" && !strings.Contains(exit, "rejected") {
					f["exit"] = exit
				}
			}
			f["error/"+l] = ""
			if m := notScored.FindStringSubmatch(text); m != nil && m[1] == l {
				f["error/"+l] = m[2]
				continue
			}
			if m := finalLine.FindStringSubmatch(text); m != nil {
				// Two places: compared as such.
				v, _ := strconv.ParseFloat(m[1], 64)
				f["cov2/"+l] = fmt.Sprintf("%.2f", v)
			}
			// The gold section: one line per span, its category first.
			if loc := goldHeader.FindStringIndex(text); loc != nil {
				c := map[string]int{}
				for _, line := range strings.Split(text[loc[1]:], "\n")[1:] {
					for _, key := range categoryKeys {
						if strings.Contains(line, "  "+strings.ReplaceAll(strings.ReplaceAll(key, "searched_not_read", "searched, not read"), "_", " ")) {
							c[key]++
							break
						}
					}
				}
				if len(c) > 0 {
					f["diag/"+l] = counts(c)
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// runListFacts reads view --json of the sample's folder: the run list's
// rows of the sample's file (a folder lists its files' runs, continuation
// files folded into the run they continue).
func runListFacts(t *testing.T, s sample) []said {
	dir := filepath.Dir(s.file)
	var rows []struct {
		Path       string                 `json:"path"`
		ExitStatus string                 `json:"exit_status"`
		Actions    int                    `json:"actions"`
		Rejected   int                    `json:"rejected_submits"`
		Tokens     int                    `json:"tokens"`
		NoRepo     string                 `json:"no_repository"`
		Analysed   bool                   `json:"analysed"`
		Lenses     map[string]lensFigures `json:"lenses"`
		GoldFrom   string                 `json:"gold_from"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, append([]string{"view", dir, "--json"}, s.args...)...)), &rows); err != nil {
		t.Fatal(err)
	}
	var out []said
	for _, r := range rows {
		if filepath.Clean(r.Path) != filepath.Clean(s.file) {
			continue
		}
		if !r.Analysed {
			t.Errorf("run list row not analysed")
		}
		f := said{"actions": strconv.Itoa(r.Actions), "exit": r.ExitStatus, "rejected": strconv.Itoa(r.Rejected), "tokens": strconv.Itoa(r.Tokens), "norepo": strconv.FormatBool(r.NoRepo != ""),
			"gold_from": r.GoldFrom}
		for _, l := range lensNames {
			lf := r.Lenses[l]
			lf.put(f, l)
		}
		out = append(out, f)
	}
	return out
}

// compareFacts reads compare --json of the run beside itself (or a page's
// two variants side by side) under each lens.
func compareFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	for _, l := range lensNames {
		args := []string{"compare", s.file, s.file, "--json", "--lens", l}
		if s.runs == 2 {
			args = []string{"compare", s.file, "--json", "--lens", l}
		}
		var doc struct {
			Runs []struct {
				Actions    int    `json:"actions"`
				Steps      int    `json:"steps"`
				Error      string `json:"error"`
				NoGold     bool   `json:"no_gold"`
				ExitStatus string `json:"exit_status"`
				Final      map[string]struct {
					Coverage float64 `json:"coverage"`
				} `json:"final"`
				AUC        map[string]float64 `json:"auc"`
				Redundancy float64            `json:"line_redundancy"`
				Found      int                `json:"spans_found"`
			} `json:"runs"`
		}
		text, empty := runSteppable(t, append(args, s.args...)...)
		if empty {
			for k := range out {
				out[k]["actions"] = "0"
			}
			continue
		}
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatal(err)
		}
		for k := range out {
			r := doc.Runs[k]
			out[k]["actions"] = strconv.Itoa(r.Actions)
			f := out[k]
			f["steps/"+l], f["error/"+l], f["exit"] = strconv.Itoa(r.Steps), r.Error, r.ExitStatus
			if r.Error == "" {
				f["cov/"+l], f["auc/"+l], f["red/"+l] = figure(r.Final["line"].Coverage), figure(r.AUC["line"]), figure(r.Redundancy)
			}
		}
	}
	return out
}

// convertFacts counts the steps convert writes per lens: the contextbench
// lens's are the evaluator's records; the observed lens's are read as view
// reads them.
func convertFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	for _, l := range lensNames {
		args := []string{"convert", s.file, "--lens", l}
		if l == "observed" {
			args = append(args, s.args...)
			args = dropFlag(args, "--semantics")
		}
		text := mustRun(t, args...)
		lines := strings.Split(strings.TrimSpace(text), "\n")
		if len(lines) != s.runs {
			t.Fatalf("convert --lens %s: %d records, want %d", l, len(lines), s.runs)
		}
		for k, line := range lines {
			var rec struct {
				Traj struct {
					Steps []any `json:"pred_steps"`
				} `json:"traj_data"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			if l == "contextbench" && hasFlag(s.args, "fixed") {
				continue // convert writes the evaluator's records
			}
			out[k]["steps/"+l] = strconv.Itoa(len(rec.Traj.Steps))
		}
	}
	return out
}

func hasFlag(args []string, v string) bool {
	for _, a := range args {
		if a == v {
			return true
		}
	}
	return false
}

// dropFlag removes a flag and its value.
func dropFlag(args []string, flag string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == flag {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}

// exportFacts reads the data the page is drawn from.
func exportFacts(t *testing.T, s sample) []said {
	var out []said
	for k := 0; k < s.runs; k++ {
		page := filepath.Join(t.TempDir(), "run.html")
		if _, empty := runSteppable(t, withRun(s, k, "export", s.file, "-o", page)...); empty {
			out = append(out, said{"actions": "0"})
			continue
		}
		html, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`<script type="application/json" id="data">(.*?)</script>`).FindSubmatch(html)
		if m == nil {
			t.Fatal("the page holds no data")
		}
		var data struct {
			N int `json:"n"`
			L []struct {
				NumSteps int           `json:"numSteps"`
				Error    string        `json:"error"`
				Missing  [4]string     `json:"missing"`
				Final    [4][2]float64 `json:"final"`
				AUC      [4]float64    `json:"auc"`
				Red      [4]float64    `json:"red"`
			} `json:"l"`
			Gold []struct {
				Cat     []string  `json:"cat"`
				File    int       `json:"file"`
				Start   int       `json:"start"`
				End     int       `json:"end"`
				Closest []int     `json:"closest"`
				FoundBy [2]string `json:"foundBy"`
			} `json:"gold"`
			Files []struct {
				Path string `json:"path"`
			} `json:"files"`
			Actions []struct {
				Failed string `json:"failed"`
				Agent  string `json:"agent"`
			} `json:"actions"`
			Agents [2][]struct {
				Label   string `json:"label"`
				Actions int    `json:"actions"`
				Read    int    `json:"read"`
				Reread  int    `json:"reread"`
				Gold    int    `json:"gold"`
			} `json:"agents"`
		}
		if err := json.Unmarshal(m[1], &data); err != nil {
			t.Fatalf("page data: %v", err)
		}
		f := said{"actions": strconv.Itoa(data.N)}
		var failed, agents []string
		for i, a := range data.Actions {
			if a.Failed != "" {
				failed = append(failed, fmt.Sprintf("%d:%s", i+1, a.Failed))
			}
			agents = append(agents, a.Agent)
		}
		f["failed"], f["agent_of"] = strings.Join(failed, "|"), runs(agents)
		for i, l := range lensNames {
			var figs []string
			for _, ag := range data.Agents[i] {
				figs = append(figs, fmt.Sprintf("%s:%d:%d:%d:%d", ag.Label, ag.Actions, ag.Read, ag.Reread, ag.Gold))
			}
			f["agent_figs/"+l] = strings.Join(figs, "|")
			var shownAt, by []string
			for _, g := range data.Gold {
				name := fmt.Sprintf("%s:%d-%d", data.Files[g.File].Path, g.Start, g.End)
				if c := g.Cat[i]; c == "found" || c == "read_then_dropped" {
					shownAt = append(shownAt, fmt.Sprintf("%s@%d", name, g.Closest[i]+1))
				}
				if w := g.FoundBy[i]; w != "" {
					label, _, _ := strings.Cut(strings.TrimPrefix(w, "found by "), " @")
					by = append(by, name+":"+label)
				}
			}
			f["shown_at/"+l], f["found_by/"+l] = sorted(shownAt), sorted(by)
		}
		target := ""
		if m := regexp.MustCompile(`<div id="h-target" class="hv">(.*?)</div>`).FindSubmatch(html); m != nil {
			target = string(m[1])
		}
		targetFacts(f, target, "contextbench")
		for i, l := range lensNames {
			ld := data.L[i]
			f["steps/"+l], f["error/"+l] = strconv.Itoa(ld.NumSteps), ld.Error
			if ld.Error == "" && ld.Missing[3] == "" {
				f["cov/"+l], f["auc/"+l], f["red/"+l] = figure(ld.Final[3][0]), figure(ld.AUC[3]), figure(ld.Red[3])
				c := map[string]int{}
				for _, g := range data.Gold {
					c[g.Cat[i]]++
				}
				if len(data.Gold) > 0 {
					f["diag/"+l] = counts(c)
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// scoreFacts reads score --format json under each lens: the evaluator's
// rows and trajscope's extras.
func scoreFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	for _, l := range lensNames {
		args := append([]string{"score", "--pred", s.file, "--format", "json", "--lens", l}, s.args...)
		var doc struct {
			Results []struct {
				Error string `json:"error"`
				Final struct {
					Line struct {
						Coverage float64 `json:"coverage"`
					} `json:"line"`
				} `json:"final"`
				Trajectory struct {
					AUC        map[string]float64 `json:"auc_coverage"`
					Redundancy map[string]float64 `json:"redundancy"`
				} `json:"trajectory"`
				Extras *struct {
					ExitStatus string `json:"exit_status"`
					Rejected   int    `json:"rejected_submits"`
					Tokens     *struct {
						Input, Output, CacheRead, CacheWrite int
					} `json:"tokens"`
					Lenses map[string]struct {
						Error     string `json:"error"`
						Steps     int    `json:"steps"`
						Diagnosis struct {
							Spans      []diagSpan     `json:"spans"`
							SpanCounts map[string]int `json:"span_counts"`
							FileCounts map[string]int `json:"file_counts"`
						} `json:"diagnosis"`
					} `json:"lenses"`
				} `json:"trajscope"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, args...)), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Results) != s.runs {
			t.Fatalf("score: %d rows", len(doc.Results))
		}
		for k, r := range doc.Results {
			f := out[k]
			f["error/"+l] = r.Error
			if r.Error != "" {
				continue
			}
			if e := r.Extras; e != nil && e.Lenses[l].Error != "" {
				// The row's figures measure nothing (no gold): the
				// extras say so, as every surface does.
				f["error/"+l] = e.Lenses[l].Error
			} else {
				f["cov/"+l], f["auc/"+l], f["red/"+l] = figure(r.Final.Line.Coverage), figure(r.Trajectory.AUC["line"]), figure(r.Trajectory.Redundancy["line"])
			}
			if e := r.Extras; e != nil {
				f["exit"], f["rejected"] = e.ExitStatus, strconv.Itoa(e.Rejected)
				f["tokens"] = "0"
				if tk := e.Tokens; tk != nil {
					f["tokens"] = strconv.Itoa(tk.Input + tk.Output + tk.CacheRead + tk.CacheWrite)
				}
				for _, ll := range lensNames {
					le := e.Lenses[ll]
					f["steps/"+ll] = strconv.Itoa(le.Steps)
					if ll == l && le.Error == "" {
						c := le.Diagnosis.SpanCounts
						if len(le.Diagnosis.Spans) == 0 {
							c = le.Diagnosis.FileCounts
						}
						f["diag/"+ll] = counts(c)
						f["shown_at/"+ll] = shownAt(le.Diagnosis.Spans)
					}
				}
			}
		}
	}
	return out
}

// diagSpan is one span of a diagnosis as score's extras write it.
type diagSpan struct {
	File     string `json:"file"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Category string `json:"category"`
	Action   int    `json:"action"`
}

// shownAt is where each found or dropped span was first shown, as the
// shown_at fact holds it.
func shownAt(spans []diagSpan) string {
	var out []string
	for _, sp := range spans {
		if sp.Category == "found" || sp.Category == "read_then_dropped" {
			out = append(out, fmt.Sprintf("%s:%d-%d@%d", sp.File, sp.Start, sp.End, sp.Action+1))
		}
	}
	return sorted(out)
}

// convertedScoreFacts scores what convert writes of the run, under each
// lens (the observed lens's records scored as the evaluator scores them):
// a span first shown at action N in the run is shown at action N in its
// record (step_actions), so one numbering holds on every surface.
func convertedScoreFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	for _, l := range lensNames {
		recs := filepath.Join(t.TempDir(), "preds.jsonl")
		args := []string{"convert", s.file, "--lens", l, "-o", recs}
		if l == "observed" {
			args = append(args, dropFlag(dropFlag(s.args, "--semantics"), "--instance")...)
		}
		mustRun(t, args...)
		var doc struct {
			Results []struct {
				Error  string `json:"error"`
				Extras *struct {
					Lenses map[string]struct {
						Error     string `json:"error"`
						Diagnosis struct {
							Spans []diagSpan `json:"spans"`
						} `json:"diagnosis"`
					} `json:"lenses"`
				} `json:"trajscope"`
			} `json:"results"`
		}
		score := append([]string{"score", "--pred", recs, "--format", "json"}, dropFlag(s.args, "--instance")...)
		if err := json.Unmarshal([]byte(mustRun(t, score...)), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Results) != s.runs {
			t.Fatalf("score of convert: %d rows", len(doc.Results))
		}
		for k, r := range doc.Results {
			if l == "contextbench" && hasFlag(s.args, "fixed") {
				continue // convert writes the evaluator's records
			}
			if l == "contextbench" {
				out[k]["error/contextbench"] = r.Error
			}
			if r.Error != "" || r.Extras == nil || r.Extras.Lenses["contextbench"].Error != "" {
				continue
			}
			out[k]["shown_at/"+l] = shownAt(r.Extras.Lenses["contextbench"].Diagnosis.Spans)
		}
	}
	return out
}

// reportFacts reads report --format json over score's --out of the run:
// its figures are the one row's.
func reportFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	if s.runs != 1 {
		return out
	}
	for _, l := range lensNames {
		res := filepath.Join(t.TempDir(), "results.jsonl")
		mustRun(t, append([]string{"score", "--pred", s.file, "--lens", l, "--out", res}, s.args...)...)
		var doc struct {
			Runs []struct {
				Valid int `json:"valid"`
				Final map[string]struct {
					Recall     float64 `json:"recall_macro"`
					AUC        float64 `json:"auc_coverage"`
					Redundancy float64 `json:"redundancy"`
				} `json:"final"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(mustRun(t, "report", res, "--format", "json")), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Runs) != 1 {
			t.Fatalf("report: %d runs", len(doc.Runs))
		}
		if r := doc.Runs[0]; r.Valid == 1 {
			line := r.Final["line"]
			out[0]["cov/"+l], out[0]["auc/"+l], out[0]["red/"+l] = figure(line.Recall), figure(line.AUC), figure(line.Redundancy)
		}
	}
	return out
}

// runs writes a list as runs of equal items ("lead×3,Explore×2").
func runs(items []string) string {
	var out []string
	for i := 0; i < len(items); {
		j := i
		for j < len(items) && items[j] == items[i] {
			j++
		}
		out = append(out, fmt.Sprintf("%s×%d", items[i], j-i))
		i = j
	}
	return strings.Join(out, ",")
}

// sorted joins a list in sorted order.
func sorted(items []string) string {
	sort.Strings(items)
	return strings.Join(items, "|")
}

var (
	siteHead = regexp.MustCompile(`<th[^>]*>([^<]*)</th>`)
	siteRow  = regexp.MustCompile(`(?s)<tr data-i="\d+"[^>]*>(.*?)</tr>`)
	siteCell = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	tags     = regexp.MustCompile(`<[^>]*>`)
)

// siteFacts reads the index of export site under each lens: its run list
// row of each run, the terminal's cells.
func siteFacts(t *testing.T, s sample) []said {
	out := empty(s.runs)
	for _, l := range lensNames {
		dir := t.TempDir()
		args := append([]string{"export", "site", s.file, "--lens", l, "-o", dir}, dropFlag(s.args, "--instance")...)
		mustRun(t, args...)
		page, err := os.ReadFile(filepath.Join(dir, "index.html"))
		if err != nil {
			t.Fatal(err)
		}
		// The run list is the table after the per-model summary; every
		// head counts (the task column's too), so cells line up.
		page = page[bytes.Index(page, []byte(`<table id="runs">`)):]
		var heads []string
		for _, m := range siteHead.FindAllSubmatch(page[:bytes.Index(page, []byte("</thead>"))], -1) {
			heads = append(heads, string(m[1]))
		}
		rows := siteRow.FindAllSubmatch(page, -1)
		if len(rows) != s.runs {
			t.Fatalf("export site: %d rows, want %d", len(rows), s.runs)
		}
		for k, row := range rows {
			cells := map[string]string{}
			for i, m := range siteCell.FindAllSubmatch(row[1], -1) {
				if i < len(heads) {
					cells[heads[i]] = htmlpkg.UnescapeString(tags.ReplaceAllString(string(m[1]), ""))
				}
			}
			f := out[k]
			f["actions"] = cells["acts"]
			if cells["cov"] != "-" {
				f["cov2/"+l] = strings.TrimPrefix(cells["cov"], "~")
				c := map[string]int{}
				for key, col := range map[string]string{"found": "found", "read_then_dropped": "drop", "near_miss": "near", "searched_not_read": "srch", "never_opened": "never"} {
					c[key], _ = strconv.Atoi(cells[col])
				}
				f["diag/"+l] = counts(c)
			}
			if b := cells["blind"]; b != "" && b != "-" {
				f["blind/"+l] = b
			}
		}
	}
	return out
}
