package ir_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/ir"
	"github.com/trajscope/trajscope/source"
	"github.com/trajscope/trajscope/testkit"
)

// set is the relevant set of files given in any order: sorted, each once,
// as the prepared gold's file list is.
func set(files ...string) ir.Relevant {
	out := slices.Clone(files)
	slices.Sort(out)
	return slices.Compact(out)
}

// TestRankingFunctions: every formula on hand-ranked lists. Values are
// Python's for the same arithmetic (ir_metrics.py run by hand).
func TestRankingFunctions(t *testing.T) {
	type want struct {
		p, r, f1, ndcg     ir.AtK
		mrr, ap, fr, effcy float64
	}
	cases := []struct {
		name      string
		retrieved []string
		relevant  ir.Relevant
		want      want
	}{
		{
			// Relevant a (rank 2) and b (rank 4) of {a, b, c}.
			// P@k = hits/k: 0/1, 1/3, 2/5, 2/10. R@k = hits/3: 0, 1/3, 2/3, 2/3.
			// F1@5 = 2·0.4·(2/3)/(0.4+2/3) = 0.5; F1@10 = 2·0.2·(2/3)/(0.2+2/3).
			// nDCG@3 = (1/log2 3)/(1 + 1/log2 3 + 1/log2 4);
			// nDCG@5 = (1/log2 3 + 1/log2 5)/(same ideal, min(5,3)=3 ranks).
			// MRR = 1/2. AP = (1/2 + 2/4)/3. File recall 2/3. Efficiency 2/5.
			name: "two of three", retrieved: []string{"x", "a", "y", "b", "z"}, relevant: set("a", "b", "c"),
			want: want{
				p: ir.AtK{0, 0.3333333333333333, 0.4, 0.2}, r: ir.AtK{0, 0.3333333333333333, 0.6666666666666666, 0.6666666666666666},
				f1: ir.AtK{0, 0.3333333333333333, 0.5, 0.30769230769230765}, ndcg: ir.AtK{0, 0.2960819109658652, 0.49818925746641285, 0.49818925746641285},
				mrr: 0.5, ap: 0.3333333333333333, fr: 0.6666666666666666, effcy: 0.4,
			},
		},
		{
			// One relevant, ranked first: P@k = 1/k, everything else 1.
			name: "perfect", retrieved: []string{"a"}, relevant: set("a"),
			want: want{
				p: ir.AtK{1, 0.3333333333333333, 0.2, 0.1}, r: ir.AtK{1, 1, 1, 1},
				f1: ir.AtK{1, 0.5, 0.33333333333333337, 0.18181818181818182}, ndcg: ir.AtK{1, 1, 1, 1},
				mrr: 1, ap: 1, fr: 1, effcy: 1,
			},
		},
		{
			// No relevant files (empty gold): recall, AP and file recall are
			// 1.0 by definition; precision, nDCG, MRR, efficiency 0.
			name: "empty gold", retrieved: []string{"x", "y"}, relevant: set(),
			want: want{r: ir.AtK{1, 1, 1, 1}, ap: 1, fr: 1},
		},
		{
			// Nothing retrieved (empty prediction): every value 0.
			name: "empty prediction", retrieved: nil, relevant: set("a"),
			want: want{},
		},
		{
			// Files retrieved, none relevant: every value 0.
			name: "no relevant file retrieved", retrieved: []string{"x", "y"}, relevant: set("a"),
			want: want{},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got want
			for i, k := range ir.Ks {
				got.p[i] = ir.PrecisionAtK(c.retrieved, c.relevant, k)
				got.r[i] = ir.RecallAtK(c.retrieved, c.relevant, k)
				got.f1[i] = ir.F1AtK(c.retrieved, c.relevant, k)
				got.ndcg[i] = ir.NDCGAtK(c.retrieved, c.relevant, k)
			}
			got.mrr = ir.MRR(c.retrieved, c.relevant)
			got.ap = ir.AveragePrecision(c.retrieved, c.relevant)
			got.fr = ir.FileRecall(c.retrieved, c.relevant)
			got.effcy = ir.ContextEfficiency(c.retrieved, c.relevant)
			if got != c.want {
				t.Errorf("\n got %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func testFiles(t *testing.T) *scoring.FileCache {
	t.Helper()
	dir, commit := testkit.GitRepo(t, map[string]string{
		"a.py": "1\n2\n3\n4\n5\n", "b.py": "1\n", "d.py": "1\n",
		"sub/c.py": "1\n", "sub/x.py": "1\n", "notes.md": "1\n2\n",
	})
	tree, err := source.Open(dir, commit, nil)
	if err != nil {
		t.Fatal(err)
	}
	return scoring.NewFileCache(tree)
}

func gold() *model.Gold {
	return &model.Gold{ID: "t", Init: []model.GoldSpan{{File: "a.py", Start: 1, End: 2}, {File: "sub/c.py", Start: 1, End: 1}, {File: "d.py", Start: 1, End: 1}}}
}

// irRun: actions with timestamps and usage.
//
//	0 read notes.md        t=100  15 tokens   CB step 1: notes.md
//	1 search (MCP) → sub/x.py, a.py  t=103  20 tokens
//	2 read a.py 1-5        t=110  35 tokens   CB step 2: a.py 1-2
//	3 edit a.py, b.py      t=120
//	4 run pytest (no files: not an event)
//	5 read sub/c.py        t=130
func irRun() *model.Run {
	rd := func(f string) []model.ObservedRead { return []model.ObservedRead{{File: f, Kind: model.ReadWhole}} }
	return &model.Run{
		InstanceID: "t",
		Actions: []model.Action{
			{Category: model.CategoryRead, Reads: rd("notes.md"), Steps: []int{0}, Timestamp: 100, Usage: model.Usage{InputTokens: 10, OutputTokens: 5}},
			{Tool: "mcp__sourcegraph__keyword_search", Category: model.CategorySearch, Searches: []model.SearchHit{{File: "sub/x.py"}, {File: "a.py", Line: 3}, {File: "gone.py"}}, Timestamp: 103, Usage: model.Usage{InputTokens: 20}},
			{Category: model.CategoryRead, Reads: []model.ObservedRead{{File: "a.py", Start: 1, End: 5}}, Steps: []int{1}, Timestamp: 110, Usage: model.Usage{InputTokens: 30, CacheRead: 5}},
			{Category: model.CategoryEdit, Edits: []string{"a.py", "b.py"}, Timestamp: 120},
			{Category: model.CategoryRun, Command: "pytest"},
			{Category: model.CategoryRead, Reads: rd("sub/c.py"), Timestamp: 130},
		},
		Prediction: model.Prediction{
			InstanceID: "t",
			Steps: []model.Step{
				{Files: []string{"notes.md"}},
				{Files: []string{"a.py"}, Spans: []model.FileSpans{{File: "a.py", Spans: []model.Interval{{Start: 1, End: 2}}}}},
			},
			Final: model.Step{Files: []string{"a.py"}},
		},
	}
}

func ptr[T any](v T) *T { return &v }

func TestEvaluate(t *testing.T) {
	files := testFiles(t)
	a := scoring.Analyze(irRun(), gold(), files, model.ContextBench)
	cases := []struct {
		lens model.Lens
		want ir.Metrics
	}{
		{model.LensObserved, ir.Metrics{
			Lens: "observed", Computable: true,
			// First-seen order over actions: reads, search hits, edits.
			Retrieved:  []string{"notes.md", "sub/x.py", "a.py", "b.py", "sub/c.py"},
			NRetrieved: 5, NGroundTruth: 3, NOverlap: 2,
			// Relevant at ranks 3 and 5 of {a.py, sub/c.py, d.py}:
			// P = 0, 1/3, 2/5, 2/10; R = 0, 1/3, 2/3, 2/3;
			// F1@3 = 1/3, F1@5 = 2·0.4·(2/3)/(0.4+2/3) = 0.5.
			Precision: ir.AtK{0, 0.3333333333333333, 0.4, 0.2},
			Recall:    ir.AtK{0, 0.3333333333333333, 0.6666666666666666, 0.6666666666666666},
			F1:        ir.AtK{0, 0.3333333333333333, 0.5, 0.30769230769230765},
			// nDCG@3 = (1/log2 4)/(1 + 1/log2 3 + 1/log2 4) = 0.5/2.1309297535714578;
			// nDCG@5 = (1/log2 4 + 1/log2 6)/2.1309297535714578.
			NDCG: ir.AtK{0, 0.23463936301137822, 0.41618115554873086, 0.41618115554873086},
			// MRR = 1/3; AP = (1/3 + 2/5)/3.
			MRR: 0.3333333333333333, MAP: 0.24444444444444446, FileRecall: 0.6666666666666666, ContextEfficiency: 0.4,
			// The search at action 1 listed a.py first: 103 − 100 = 3 s,
			// 15 + 20 = 35 tokens. d.py was never found: no tt_all.
			TTFRStep: ptr(1), TTFRSeconds: ptr(3.0), TTFRTokens: ptr(35),
			Utilization: ir.Utilization{
				// Read (displayed): notes.md, a.py, sub/c.py; 2 of 3 gold.
				// Written a.py (gold), b.py: 1/3. a.py was searched at 1
				// before its write at 3, b.py never read: 1/2.
				WriteProbes: true, ReadOverlap: 0.6666666666666666, WriteOverlap: ptr(0.3333333333333333), ReadBeforeWrite: ptr(0.5),
				FilesRead: 3, FilesReadRelevant: 2, FilesWritten: 2, FilesWrittenRelevant: 1,
			},
			// Irrelevant: notes.md, sub/x.py, b.py. Missed: d.py. Wrong
			// evidence: b.py. Unused correct: sub/c.py (a.py was written).
			// Near miss: sub/x.py shares sub/ with gold sub/c.py.
			Errors: ir.Taxonomy{IrrelevantRetrieval: 3, MissedKeyEvidence: 1, WrongEvidenceUsed: 1, UnusedCorrectRetrieval: 1, AmbiguityNearMiss: 1},
			// Events: read, search, read, edit, read → read.
			Slice: ir.Slice{CandidateSetSize: "small", CandidateSetCount: 5, DominantCategory: "read", EvidenceType: "mcp"},
		}},
		{model.LensContextBench, ir.Metrics{
			Lens: "contextbench", Computable: true,
			Retrieved:  []string{"notes.md", "a.py"},
			NRetrieved: 2, NGroundTruth: 3, NOverlap: 1,
			// a.py at rank 2: P = 0, 1/3, 1/5, 1/10; R@3+ = 1/3.
			// F1@3 = 1/3; F1@5 = 2·0.2·(1/3)/(0.2+1/3) = 0.25;
			// F1@10 = 2·0.1·(1/3)/(0.1+1/3) = 0.15384615384615383 in float64.
			Precision: ir.AtK{0, 0.3333333333333333, 0.2, 0.1},
			Recall:    ir.AtK{0, 0.3333333333333333, 0.3333333333333333, 0.3333333333333333},
			F1:        ir.AtK{0, 0.3333333333333333, 0.25, 0.15384615384615383},
			// nDCG@k≥3 = (1/log2 3)/2.1309297535714578.
			NDCG: ir.AtK{0, 0.2960819109658652, 0.2960819109658652, 0.2960819109658652},
			// MRR 1/2; AP = (1/2)/3.
			MRR: 0.5, MAP: 0.16666666666666666, FileRecall: 0.3333333333333333, ContextEfficiency: 0.5,
			// Step 2 is action 2: 110 − 100 = 10 s; 15 + 20 + 35 = 70 tokens.
			TTFRStep: ptr(2), TTFRSeconds: ptr(10.0), TTFRTokens: ptr(70),
			Utilization: ir.Utilization{
				WriteProbes: true, ReadOverlap: 0.3333333333333333, WriteOverlap: ptr(0.3333333333333333), ReadBeforeWrite: ptr(0.5),
				FilesRead: 2, FilesReadRelevant: 1, FilesWritten: 2, FilesWrittenRelevant: 1,
			},
			Errors: ir.Taxonomy{IrrelevantRetrieval: 1, MissedKeyEvidence: 2, WrongEvidenceUsed: 1, UnusedCorrectRetrieval: 0, AmbiguityNearMiss: 0},
			Slice:  ir.Slice{CandidateSetSize: "small", CandidateSetCount: 2, DominantCategory: "read", EvidenceType: "mcp"},
		}},
	}
	for _, c := range cases {
		t.Run(c.lens.String(), func(t *testing.T) {
			got := ir.Evaluate(a, c.lens)
			if !reflect.DeepEqual(*got, c.want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(c.want)
				t.Errorf("\n got %s\nwant %s", g, w)
			}
		})
	}
}

// TestEvaluateEdgeCases: no gold files, an empty prediction, all gold found.
func TestEvaluateEdgeCases(t *testing.T) {
	files := testFiles(t)
	t.Run("no ground truth", func(t *testing.T) {
		a := scoring.Analyze(irRun(), &model.Gold{ID: "t"}, files, model.ContextBench)
		m := ir.Evaluate(a, model.LensObserved)
		if m.Computable || m.Reason != "no_ground_truth" || m.NRetrieved != 5 || m.MRR != 0 || m.FileRecall != 0 {
			t.Errorf("got %+v", m)
		}
	})
	t.Run("empty prediction", func(t *testing.T) {
		a := scoring.Analyze(&model.Run{InstanceID: "t"}, gold(), files, model.ContextBench)
		m := ir.Evaluate(a, model.LensContextBench)
		want := ir.Metrics{Lens: "contextbench", Computable: true, Retrieved: []string{}, NGroundTruth: 3,
			Utilization: ir.Utilization{WriteReason: "no_write_events"},
			Errors:      ir.Taxonomy{MissedKeyEvidence: 3},
			// One fallback event (the empty final) of category read.
			Slice: ir.Slice{CandidateSetSize: "small", DominantCategory: "read", EvidenceType: "local"}}
		if !reflect.DeepEqual(*m, want) {
			t.Errorf("\n got %+v\nwant %+v", *m, want)
		}
	})
	t.Run("all gold found", func(t *testing.T) {
		run := irRun()
		run.Actions[5].Reads = append(run.Actions[5].Reads, model.ObservedRead{File: "d.py", Kind: model.ReadWhole})
		a := scoring.Analyze(run, gold(), files, model.ContextBench)
		m := ir.Evaluate(a, model.LensObserved)
		// d.py, the last gold file, first appears at action 5: 130 − 100.
		if m.TTAllStep == nil || *m.TTAllStep != 5 || m.TTAllSeconds == nil || *m.TTAllSeconds != 30 || m.FileRecall != 1 {
			t.Errorf("got tt_all %v %v, file recall %v", m.TTAllStep, m.TTAllSeconds, m.FileRecall)
		}
	})
}

func TestAtKJSON(t *testing.T) {
	b, err := json.Marshal(ir.AtK{1, 0.5, 0.25, 0})
	if err != nil || string(b) != `{"1":1,"3":0.5,"5":0.25,"10":0}` {
		t.Fatalf("marshal = %s, %v", b, err)
	}
	var back ir.AtK
	if err := json.Unmarshal(b, &back); err != nil || back != (ir.AtK{1, 0.5, 0.25, 0}) {
		t.Errorf("round trip = %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"2": 1}`), &back); err == nil {
		t.Error("cut-off 2 accepted")
	}
}

// TestRelevant: Has answers for members only, and recall divides by the
// distinct relevant files.
func TestRelevant(t *testing.T) {
	r := set("b.py", "a.py", "b.py", "")
	for f, want := range map[string]bool{"a.py": true, "b.py": true, "": true, "c.py": false, "a": false} {
		if got := r.Has(f); got != want {
			t.Errorf("Has(%q) = %v, want %v", f, got, want)
		}
	}
	if got := ir.RecallAtK([]string{"a.py"}, set("a.py", "a.py", "b.py"), 1); got != 0.5 {
		t.Errorf("recall with a repeated gold file = %v, want 0.5", got)
	}
}
