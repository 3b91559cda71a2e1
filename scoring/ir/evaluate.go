package ir

import (
	"path"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// Utilization is CodeScaleBench's utilization probes (pipeline stage 3).
type Utilization struct {
	// WriteProbes is false when the run wrote nothing (WriteReason
	// "no_write_events"); the write-based ratios are then absent.
	WriteProbes bool   `json:"write_probes_available"`
	WriteReason string `json:"write_reason,omitempty"`
	// ReadOverlap = |files read ∩ gold| / |gold|
	// (util_read_overlap_with_relevant_files; reads only, not searches).
	ReadOverlap float64 `json:"read_overlap_with_relevant_files"`
	// WriteOverlap = |files written ∩ gold| / |gold|
	// (util_write_overlap_with_relevant_files_proxy).
	WriteOverlap *float64 `json:"write_overlap_with_relevant_files"`
	// ReadBeforeWrite is the share of written files that a read or search
	// touched before their first write (util_read_before_write_ratio).
	ReadBeforeWrite      *float64 `json:"read_before_write_ratio"`
	FilesRead            int      `json:"files_read"`
	FilesReadRelevant    int      `json:"files_read_relevant"`
	FilesWritten         int      `json:"files_written"`
	FilesWrittenRelevant int      `json:"files_written_relevant"`
}

// Taxonomy is CodeScaleBench's error taxonomy (pipeline stage 4), counts of
// files.
type Taxonomy struct {
	// IrrelevantRetrieval = |retrieved − gold|.
	IrrelevantRetrieval int `json:"irrelevant_retrieval"`
	// MissedKeyEvidence = |gold − retrieved|.
	MissedKeyEvidence int `json:"missed_key_evidence"`
	// WrongEvidenceUsed = |written − gold|.
	WrongEvidenceUsed int `json:"wrong_evidence_used"`
	// UnusedCorrectRetrieval = |(retrieved ∩ gold) − written|.
	UnusedCorrectRetrieval int `json:"unused_correct_retrieval"`
	// AmbiguityNearMiss counts irrelevant retrieved files in the directory
	// of a gold file (top-level files have no directory and never count).
	AmbiguityNearMiss int `json:"ambiguity_near_miss"`
}

// Slice is CodeScaleBench's calibration slices.
type Slice struct {
	// CandidateSetSize is "small" (≤5 retrieved files), "medium" (≤20) or
	// "large"; CandidateSetCount the number of unique retrieved files.
	CandidateSetSize  string `json:"candidate_set_size"`
	CandidateSetCount int    `json:"candidate_set_count"`
	// DominantCategory is the most frequent event category (ties: the one
	// seen first), "none" without events.
	DominantCategory string `json:"dominant_retrieval_category"`
	// EvidenceType is "mcp" when any action read or searched through an
	// MCP tool (CodeScaleBench counts Sourcegraph's, the only MCP
	// retriever its runs use; a run of another's is as much MCP evidence).
	EvidenceType string `json:"evidence_type"`
}

// Metrics is one run's file-ranking metrics under one lens.
type Metrics struct {
	Lens string `json:"lens"`
	// Computable is false when the gold names no file (Reason
	// "no_ground_truth"); only Retrieved and Slice are filled then.
	Computable bool   `json:"computable"`
	Reason     string `json:"reason,omitempty"`
	// Retrieved is the ranked list: files in first-seen order.
	Retrieved    []string `json:"retrieved"`
	NRetrieved   int      `json:"n_retrieved"`
	NGroundTruth int      `json:"n_ground_truth"`
	NOverlap     int      `json:"n_overlap"`

	Precision         AtK     `json:"precision"`
	Recall            AtK     `json:"recall"`
	F1                AtK     `json:"f1"`
	NDCG              AtK     `json:"ndcg"`
	MRR               float64 `json:"mrr"`
	MAP               float64 `json:"map"`
	FileRecall        float64 `json:"file_recall"`
	ContextEfficiency float64 `json:"context_efficiency"`

	// TTFRStep is the 0-based action index (the number of actions before
	// it) of the first action that retrieved a gold file; nil when none did
	// or the lens's step has no action.
	TTFRStep *int `json:"ttfr_step"`
	// TTFRSeconds is that action's time since the first timestamped action.
	TTFRSeconds *float64 `json:"ttfr_seconds"`
	// TTFRTokens sums input, output and cache tokens of the actions up to
	// and including it (ir_analysis.py tokens_before_first_relevant).
	TTFRTokens *int `json:"ttfr_tokens"`
	// TTAllStep and TTAllSeconds are the same for the action that retrieved
	// the last gold file still missing (tt_all_r); nil unless all were.
	TTAllStep    *int     `json:"tt_all_step"`
	TTAllSeconds *float64 `json:"tt_all_seconds"`

	Utilization Utilization `json:"utilization"`
	Errors      Taxonomy    `json:"error_taxonomy"`
	Slice       Slice       `json:"slice"`
}

// event is one retrieval event: a lens step or a timeline action.
type event struct {
	action   int // index into Run.Actions, -1 when unknown
	category string
	files    []string // every target file, in order
	read     []string // files it read (file_read)
	readLike []string // files it read or searched
}

// Evaluate computes the metrics of an analysed run under a lens. The
// ContextBench lens's events are its steps (the final context when there
// are none, as upstream scores it), each a read; the observed lens's events
// are the actions, with the files they displayed, the files their searches
// listed and the files they edited, like CodeScaleBench's Read, Grep/Glob and
// Write/Edit events. Writes come from the timeline under both lenses.
func Evaluate(a *scoring.Analysis, lens model.Lens) *Metrics {
	m := &Metrics{Lens: lens.String()}
	events := lensEvents(a, lens)
	relevant := Relevant(a.Gold.Files) // sorted, each once

	seen := map[string]bool{}
	firstAt := map[string]int{} // retrieved file → event index
	for k, ev := range events {
		for _, f := range ev.files {
			if !seen[f] {
				seen[f] = true
				firstAt[f] = k
				m.Retrieved = append(m.Retrieved, f)
			}
		}
	}
	if m.Retrieved == nil {
		m.Retrieved = []string{}
	}
	m.NRetrieved = len(m.Retrieved)
	m.Slice = slice(a, events, len(m.Retrieved))
	if len(relevant) == 0 {
		m.Reason = "no_ground_truth"
		return m
	}
	m.Computable = true
	m.NGroundTruth = len(relevant)
	m.NOverlap = countRelevant(m.Retrieved, relevant)
	r := m.Retrieved
	for i, k := range Ks {
		m.Precision[i] = PrecisionAtK(r, relevant, k)
		m.Recall[i] = RecallAtK(r, relevant, k)
		m.F1[i] = F1AtK(r, relevant, k)
		m.NDCG[i] = NDCGAtK(r, relevant, k)
	}
	m.MRR = MRR(r, relevant)
	m.MAP = AveragePrecision(r, relevant)
	m.FileRecall = FileRecall(r, relevant)
	m.ContextEfficiency = ContextEfficiency(r, relevant)

	timing := newTiming(a.Run)
	first, last := -1, -1
	for _, f := range relevant {
		if k, ok := firstAt[f]; ok {
			if first < 0 || k < first {
				first = k
			}
			last = max(last, k)
		}
	}
	if first >= 0 {
		m.TTFRStep, m.TTFRSeconds, m.TTFRTokens = timing.at(events[first].action)
	}
	if m.NOverlap == len(relevant) {
		m.TTAllStep, m.TTAllSeconds, _ = timing.at(events[last].action)
	}

	written, firstWrite := writes(a)
	m.Utilization = utilization(events, relevant, written, firstWrite)
	m.Errors = taxonomy(m.Retrieved, relevant, written)
	return m
}

// lensEvents lists a lens's retrieval events in order.
func lensEvents(a *scoring.Analysis, lens model.Lens) []event {
	var out []event
	resolve := func(ev *event, list *[]string, p string, seen map[string]bool) {
		f := a.Files.Resolve(p)
		if f == "" {
			return
		}
		if list != nil {
			*list = append(*list, f)
		}
		if !seen[f] {
			seen[f] = true
			ev.files = append(ev.files, f)
		}
	}
	if lens == model.LensObserved {
		for i := range a.Run.Actions {
			act := &a.Run.Actions[i]
			ev := event{action: i, category: act.Category.String()}
			seen := map[string]bool{}
			for _, fl := range a.Actions[i].Reads {
				if !seen[fl.File] {
					seen[fl.File] = true
					ev.files = append(ev.files, fl.File)
				}
				ev.read = append(ev.read, fl.File)
				ev.readLike = append(ev.readLike, fl.File)
			}
			for _, h := range act.Searches {
				resolve(&ev, &ev.readLike, h.File, seen)
			}
			for _, e := range act.Edits {
				resolve(&ev, nil, e, seen)
			}
			tracked := act.Category == model.CategoryRead || act.Category == model.CategorySearch || act.Category == model.CategoryEdit
			if len(ev.files) > 0 || tracked {
				out = append(out, ev)
			}
		}
		return out
	}
	steps := a.Run.Prediction.Steps
	fallback := len(steps) == 0
	if fallback {
		steps = []model.Step{a.Run.Prediction.Final}
	}
	done := a.Lenses[model.LensContextBench].StepsDone
	for j, st := range steps {
		ev := event{action: -1, category: model.CategoryRead.String()}
		if !fallback {
			for i, d := range done {
				if d >= j+1 {
					ev.action = i
					break
				}
			}
		}
		seen := map[string]bool{}
		// The step's own order: its files, then files it gave lines or
		// symbols for.
		for _, f := range st.Files {
			resolve(&ev, nil, f, seen)
		}
		for _, fs := range st.Spans {
			resolve(&ev, nil, fs.File, seen)
		}
		for _, fs := range st.Symbols {
			resolve(&ev, nil, fs.File, seen)
		}
		ev.read = ev.files
		ev.readLike = ev.files
		out = append(out, ev)
	}
	return out
}

// writes returns the files the timeline edited and each one's first
// editing action.
func writes(a *scoring.Analysis) ([]string, map[string]int) {
	var files []string
	first := map[string]int{}
	for i := range a.Run.Actions {
		for _, e := range a.Run.Actions[i].Edits {
			f := a.Files.Resolve(e)
			if f == "" {
				continue
			}
			if _, ok := first[f]; !ok {
				first[f] = i
				files = append(files, f)
			}
		}
	}
	return files, first
}

func utilization(events []event, relevant Relevant, written []string, firstWrite map[string]int) Utilization {
	var u Utilization
	read := map[string]bool{}
	firstReadLike := map[string]int{}
	for _, ev := range events {
		for _, f := range ev.read {
			read[f] = true
		}
		if ev.action < 0 {
			continue // no position on the timeline to compare with writes
		}
		for _, f := range ev.readLike {
			if _, ok := firstReadLike[f]; !ok {
				firstReadLike[f] = ev.action
			}
		}
	}
	u.FilesRead = len(read)
	for f := range read {
		if relevant.Has(f) {
			u.FilesReadRelevant++
		}
	}
	u.ReadOverlap = float64(u.FilesReadRelevant) / float64(len(relevant))
	u.FilesWritten = len(written)
	if len(written) == 0 {
		u.WriteReason = "no_write_events"
		return u
	}
	u.WriteProbes = true
	before := 0
	for _, f := range written {
		if relevant.Has(f) {
			u.FilesWrittenRelevant++
		}
		if r, ok := firstReadLike[f]; ok && r < firstWrite[f] {
			before++
		}
	}
	wo := float64(u.FilesWrittenRelevant) / float64(len(relevant))
	rbw := float64(before) / float64(len(written))
	u.WriteOverlap, u.ReadBeforeWrite = &wo, &rbw
	return u
}

func taxonomy(retrieved []string, relevant Relevant, written []string) Taxonomy {
	var t Taxonomy
	got := map[string]bool{}
	for _, f := range retrieved {
		got[f] = true
	}
	wrote := map[string]bool{}
	for _, f := range written {
		wrote[f] = true
		if !relevant.Has(f) {
			t.WrongEvidenceUsed++
		}
	}
	goldDirs := map[string]bool{}
	for _, f := range relevant {
		if !got[f] {
			t.MissedKeyEvidence++
		} else if !wrote[f] {
			t.UnusedCorrectRetrieval++
		}
		if d := dir(f); d != "" {
			goldDirs[d] = true
		}
	}
	for _, f := range retrieved {
		if relevant.Has(f) {
			continue
		}
		t.IrrelevantRetrieval++
		if d := dir(f); d != "" && goldDirs[d] {
			t.AmbiguityNearMiss++
		}
	}
	return t
}

// dir is a repository path's directory, "" at the top level.
func dir(p string) string {
	d := path.Dir(p)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

func slice(a *scoring.Analysis, events []event, n int) Slice {
	s := Slice{CandidateSetCount: n, CandidateSetSize: "large", DominantCategory: "none", EvidenceType: "local"}
	switch {
	case n <= 5:
		s.CandidateSetSize = "small"
	case n <= 20:
		s.CandidateSetSize = "medium"
	}
	count := map[string]int{}
	best := 0
	for _, ev := range events {
		count[ev.category]++
		// Strictly greater keeps the first category to reach a count, as
		// Counter.most_common does on ties.
		if count[ev.category] > best {
			best = count[ev.category]
		}
	}
	for _, ev := range events {
		if count[ev.category] == best {
			s.DominantCategory = ev.category
			break
		}
	}
	for i := range a.Run.Actions {
		if a.Run.Actions[i].MCPEvidence() {
			s.EvidenceType = "mcp"
			break
		}
	}
	return s
}

// timing answers "when, and after how many tokens" for an action.
type timing struct {
	run    *model.Run
	origin float64 // first action timestamp, 0 when none
	cum    []int   // tokens up to and including each action
	tokens bool    // any action recorded usage
}

func newTiming(run *model.Run) timing {
	t := timing{run: run, cum: make([]int, len(run.Actions))}
	sum := 0
	for i, act := range run.Actions {
		if t.origin == 0 && act.Timestamp > 0 {
			t.origin = act.Timestamp
		}
		u := act.Usage
		n := int(u.InputTokens) + int(u.OutputTokens) + int(u.CacheRead) + int(u.CacheWrite)
		if n > 0 {
			t.tokens = true
		}
		sum += n
		t.cum[i] = sum
	}
	return t
}

func (t timing) at(action int) (step *int, seconds *float64, tokens *int) {
	if action < 0 || action >= len(t.run.Actions) {
		return nil, nil, nil
	}
	step = &action
	if ts := t.run.Actions[action].Timestamp; ts > 0 && t.origin > 0 {
		s := ts - t.origin
		seconds = &s
	}
	if t.tokens {
		n := t.cum[action]
		tokens = &n
	}
	return step, seconds, tokens
}
