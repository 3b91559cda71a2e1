package ir

import (
	"sort"
	"strings"
	"time"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// SchemaVersion is the version of CodeScaleBench's normalized
// retrieval-events schema the documents follow.
const SchemaVersion = "1.0"

// Document is one run's retrieval events in CodeScaleBench's normalized
// schema (schemas/retrieval_events_schema.json, version 1.0): what every
// stage of its retrieval pipeline reads. Field names and presence follow
// the schema, which admits no other member; trajscope's additions (the
// lines each event showed, its agent, its command) are in each event's
// free-form arguments.
type Document struct {
	SchemaVersion string      `json:"schema_version"`
	GeneratedAt   string      `json:"generated_at"`
	Provenance    Provenance  `json:"provenance"`
	Coverage      Coverage    `json:"coverage"`
	GroundTruth   GroundTruth `json:"ground_truth"`
	Events        []Event     `json:"events"`
	Summary       Summary     `json:"summary"`
}

// Provenance names the run, the task and the configuration.
type Provenance struct {
	RunID          string  `json:"run_id"`
	BatchTimestamp *string `json:"batch_timestamp"`
	TaskName       string  `json:"task_name"`
	TrialName      *string `json:"trial_name"`
	ConfigName     string  `json:"config_name"`
	Benchmark      string  `json:"benchmark"`
	Model          *string `json:"model"`
}

// Coverage says which trace the events come from and what ground truth
// there is.
type Coverage struct {
	HasTrajectory         bool    `json:"has_trajectory"`
	HasTranscript         bool    `json:"has_transcript"`
	HasGroundTruth        bool    `json:"has_ground_truth"`
	HasChunkGroundTruth   bool    `json:"has_chunk_ground_truth"`
	TraceSource           *string `json:"trace_source"`
	DegradedReason        *string `json:"degraded_reason"`
	GroundTruthSource     *string `json:"ground_truth_source"`
	GroundTruthConfidence *string `json:"ground_truth_confidence"`
}

// GroundTruth is the task's gold files, and its line spans as chunks.
type GroundTruth struct {
	Files  []string `json:"files"`
	Chunks []Chunk  `json:"chunks,omitempty"`
}

// Chunk is a gold line span.
type Chunk struct {
	File      string `json:"file"`
	LineStart int    `json:"line_start"`
	LineEnd   int    `json:"line_end"`
}

// Event is one retrieval event: a tool call that read, searched or wrote
// files.
type Event struct {
	StepIndex        int            `json:"step_index"`
	Timestamp        *string        `json:"timestamp"`
	ToolName         string         `json:"tool_name"`
	ToolCategory     string         `json:"tool_category"`
	IsMCP            bool           `json:"is_mcp"`
	Arguments        map[string]any `json:"arguments,omitempty"`
	TargetFiles      []string       `json:"target_files"`
	HitsGroundTruth  bool           `json:"hits_ground_truth"`
	MatchedGT        []string       `json:"matched_ground_truth_files"`
	IsSubagent       bool           `json:"is_subagent"`
	CumulativeTokens *int           `json:"cumulative_tokens"`
	ElapsedSeconds   *float64       `json:"elapsed_seconds"`
}

// Summary counts the events.
type Summary struct {
	TotalEvents         int            `json:"total_events"`
	MCPEvents           int            `json:"mcp_events"`
	LocalEvents         int            `json:"local_events"`
	UniqueFilesAccessed int            `json:"unique_files_accessed"`
	GTFilesHit          int            `json:"ground_truth_files_hit"`
	GTFilesTotal        int            `json:"ground_truth_files_total"`
	FirstGTHitStep      *int           `json:"first_ground_truth_hit_step"`
	EventsByCategory    map[string]int `json:"events_by_category"`
}

// Context is what a document says of a run that the analysis does not
// hold: its run id and benchmark, its agent's label per action, and when
// the document is made.
type Context struct {
	RunID, Benchmark string
	// AgentLabel names action i's agent ("Explore#1"), "" for the lead.
	AgentLabel func(i int) string
	Now        time.Time
}

// transcripts are the formats that are an agent's own session record
// (CodeScaleBench's "transcript"); the others are trajectories.
var transcripts = map[string]bool{"claude-code": true, "codex": true, "gemini-cli": true, "qwen-code": true,
	"opencode": true, "goose": true, "aider": true}

// Events is the run's retrieval-events document: one event per action
// that read, searched or wrote files (its 0-based action index is the
// step index, so events have gaps where actions retrieved nothing, as
// CodeScaleBench's do), with the files it touched, the lines it showed,
// whether it hit the gold and how (local or MCP).
func Events(a *scoring.Analysis, c Context) *Document {
	run := a.Run
	d := &Document{SchemaVersion: SchemaVersion, GeneratedAt: c.Now.UTC().Format(time.RFC3339)}
	d.Provenance = Provenance{RunID: c.RunID, TaskName: run.InstanceID, ConfigName: strings.TrimSpace(model.Who(run.Agent, run.Model)), Benchmark: c.Benchmark}
	if d.Provenance.ConfigName == "" {
		d.Provenance.ConfigName = run.Format
	}
	if run.Model != "" {
		m := run.Model
		d.Provenance.Model = &m
	}
	timing := newTiming(run)
	if timing.origin > 0 {
		s := isoTime(timing.origin)
		d.Provenance.BatchTimestamp = &s
	}

	gold := Relevant(a.Gold.Files)
	d.GroundTruth.Files = append([]string{}, a.Gold.Files...)
	for f, ivs := range a.Gold.Lines.All() {
		for _, iv := range model.MergeIntervals(append([]model.Interval(nil), ivs...)) {
			d.GroundTruth.Chunks = append(d.GroundTruth.Chunks, Chunk{File: f, LineStart: iv.Start, LineEnd: iv.End})
		}
	}
	sort.Slice(d.GroundTruth.Chunks, func(i, j int) bool {
		x, y := d.GroundTruth.Chunks[i], d.GroundTruth.Chunks[j]
		if x.File != y.File {
			return x.File < y.File
		}
		return x.LineStart < y.LineStart
	})
	cov := &d.Coverage
	cov.HasGroundTruth, cov.HasChunkGroundTruth = len(gold) > 0, len(d.GroundTruth.Chunks) > 0
	// Where the gold came from, and how sure it is: a human-marked gold
	// context, a reference patch's lines, or the run's own edits.
	from := [...][2]string{model.GoldFromFile: {"gold_context", "high"}, model.GoldFromPatch: {"patch", "medium"}, model.GoldFromEdits: {"run_edits", "low"}}[a.Gold.From]
	src, conf := from[0], from[1]
	if cov.HasGroundTruth {
		cov.GroundTruthSource, cov.GroundTruthConfidence = &src, &conf
	}
	trace := "trajectory"
	if transcripts[run.Format] {
		trace = "transcript"
	}
	if len(run.Actions) > 0 {
		cov.TraceSource = &trace
		cov.HasTrajectory, cov.HasTranscript = trace == "trajectory", trace == "transcript"
	}

	d.Events = []Event{}
	evs := lensEvents(a, model.LensObserved)
	seenFile, hitGold := map[string]bool{}, map[string]bool{}
	d.Summary.EventsByCategory = map[string]int{}
	for _, ev := range evs {
		act := &run.Actions[ev.action]
		e := Event{StepIndex: ev.action, ToolName: act.Tool, ToolCategory: toolCategory(act), IsMCP: act.MCPEvidence() || model.MCPTool(act.Tool),
			TargetFiles: append([]string{}, ev.files...), MatchedGT: []string{}, IsSubagent: act.Sidechain()}
		if e.ToolName == "" {
			e.ToolName = "shell"
		}
		if act.Timestamp > 0 {
			s := isoTime(act.Timestamp)
			e.Timestamp = &s
			if timing.origin > 0 {
				el := act.Timestamp - timing.origin
				e.ElapsedSeconds = &el
			}
		}
		if timing.tokens {
			n := timing.cum[ev.action]
			e.CumulativeTokens = &n
		}
		e.Arguments = arguments(a, ev.action, c)
		for _, f := range e.TargetFiles {
			seenFile[f] = true
			if gold.Has(f) {
				e.MatchedGT = append(e.MatchedGT, f)
				hitGold[f] = true
			}
		}
		e.HitsGroundTruth = len(e.MatchedGT) > 0
		if e.HitsGroundTruth && d.Summary.FirstGTHitStep == nil {
			k := e.StepIndex
			d.Summary.FirstGTHitStep = &k
		}
		if e.IsMCP {
			d.Summary.MCPEvents++
		} else {
			d.Summary.LocalEvents++
		}
		d.Summary.EventsByCategory[e.ToolCategory]++
		d.Events = append(d.Events, e)
	}
	d.Summary.TotalEvents = len(d.Events)
	d.Summary.UniqueFilesAccessed, d.Summary.GTFilesHit, d.Summary.GTFilesTotal = len(seenFile), len(hitGold), len(gold)
	switch {
	case len(run.Actions) == 0:
		r := "the run holds no tool call"
		cov.DegradedReason = &r
	case len(d.Events) == 0:
		r := "the trace holds tool calls but none read, searched or wrote a file"
		cov.DegradedReason = &r
	}
	return d
}

// arguments are an event's salient arguments: the command as the
// timeline shows it, the lines each file showed ({"lines": {"a.py":
// [[40, 65]]}}), and the agent that made it when not the lead.
func arguments(a *scoring.Analysis, i int, c Context) map[string]any {
	out := map[string]any{}
	if cmd := a.Run.Actions[i].Command; cmd != "" {
		out["command"] = cmd
	}
	lines := map[string][][2]int{}
	for _, fl := range a.Actions[i].Reads {
		for _, iv := range fl.Spans {
			lines[fl.File] = append(lines[fl.File], [2]int{iv.Start, iv.End})
		}
	}
	if len(lines) > 0 {
		out["lines"] = lines
	}
	if a.Run.Actions[i].Sidechain() && c.AgentLabel != nil {
		if l := c.AgentLabel(i); l != "" {
			out["agent"] = l
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// sgCategories are CodeScaleBench's categories of Sourcegraph's tools
// (normalize_retrieval_events.py), by the tool's name without its prefix.
var sgCategories = map[string]string{
	"read_file": "file_read", "list_files": "file_search", "list_repos": "file_search",
	"find_references": "symbol_navigation", "go_to_definition": "symbol_navigation",
	"keyword_search": "code_search", "nls_search": "code_search",
	"commit_search": "commit_search", "diff_search": "commit_search", "compare_revisions": "commit_search",
	"deepsearch": "deep_search", "deepsearch_read": "deep_search",
}

// listTools search for files by name rather than content.
var listTools = map[string]bool{"Glob": true, "glob": true, "find_files": true, "LS": true, "ls": true, "list_directory": true, "list": true}

// toolCategory is an action's category in the schema's terms: what it
// did, whatever the tool (a shell's cat is a file_read, its grep a
// code_search, its find a file_search).
func toolCategory(act *model.Action) string {
	if rest, ok := strings.CutPrefix(act.Tool, "mcp__sourcegraph__"); ok {
		if c, ok := sgCategories[strings.TrimPrefix(rest, "sg_")]; ok {
			return c
		}
		return "other"
	}
	switch act.Category {
	case model.CategoryRead:
		return "file_read"
	case model.CategoryEdit:
		return "file_write"
	case model.CategorySearch:
		if listTools[act.Tool] {
			return "file_search"
		}
		word, _, _ := strings.Cut(strings.TrimSpace(act.Command), " ")
		if word == "find" || word == "ls" || word == "tree" || word == "fd" {
			return "file_search"
		}
		return "code_search"
	}
	return "other"
}

func isoTime(unix float64) string {
	sec := int64(unix)
	return time.Unix(sec, int64((unix-float64(sec))*1e9)).UTC().Format(time.RFC3339Nano)
}
