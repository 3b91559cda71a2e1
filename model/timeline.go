package model

import (
	"math"
	"strings"
)

// Category is the kind of an agent action, following CodeScaleBench's tool
// categories. The zero value is no category (a parser that set none).
type Category uint8

const (
	CategoryRead Category = iota + 1
	CategorySearch
	CategoryEdit
	CategoryRun
	CategorySubmit
	CategoryOther
)

var categoryNames = [...]string{"", "read", "search", "edit", "run", "submit", "other"}

// String is the category's name as CodeScaleBench writes it ("read"), ""
// for no category.
func (c Category) String() string {
	if int(c) < len(categoryNames) {
		return categoryNames[c]
	}
	return ""
}

// MarshalText writes the category by name, so that JSON never shows its
// number.
func (c Category) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// ReadKind says how an observed read's lines are known.
type ReadKind int

const (
	// ReadRange: Start..End as given (inclusive, 1-based).
	ReadRange ReadKind = iota
	// ReadWhole: the whole file was shown; its length comes from the source.
	ReadWhole
	// ReadHead: the first End lines (Start is 1).
	ReadHead
	// ReadTail: the last End lines; needs the file length from the source.
	ReadTail
	// ReadFrom: Start to the end of the file (e.g. view_range [N, -1]).
	ReadFrom
	// ReadWindow: SWE-agent's file viewer, End lines (its WINDOW) around
	// the line Start (its CURRENT_LINE) once that is kept at least End/2
	// from either end of the file; needs the file length from the source.
	ReadWindow
)

// ObservedRead is a file region an action's output really displayed.
type ObservedRead struct {
	File  string
	Kind  ReadKind
	Start int
	End   int
}

// Resolve turns the read into a concrete inclusive line range given the
// file's line count. ok is false when nothing of the file was shown.
func (r ObservedRead) Resolve(fileLines int) (span Interval, ok bool) {
	switch r.Kind {
	case ReadWhole:
		span = Interval{1, fileLines}
	case ReadHead:
		span = Interval{1, r.End}
	case ReadTail:
		span = Interval{fileLines - r.End + 1, fileLines}
	case ReadFrom:
		span = Interval{r.Start, fileLines}
	case ReadWindow:
		// The viewer shows `head -n L+W/2 | tail -n W` of the file for the
		// kept line L.
		half := r.End / 2
		l := max(min(r.Start, fileLines-half), half)
		span = Interval{l + half - r.End + 1, l + half}
	default:
		span = Interval{r.Start, r.End}
	}
	if span.Start < 1 {
		span.Start = 1
	}
	if fileLines > 0 && span.End > fileLines {
		span.End = fileLines
	}
	return span, span.Start <= span.End
}

// SearchHit is a file (and optionally a line) that a search action listed.
// A hit is evidence the agent knew of the file, not that it read it.
type SearchHit struct {
	File string
	Line int // 0 when the hit names only the file
}

// Usage is token accounting for one action, when the format records it.
// One call's counts fit 32 bits; sums over a run are taken as int.
type Usage struct {
	InputTokens  int32
	OutputTokens int32
	CacheRead    int32
	CacheWrite   int32
	// CostUSD is what the call cost, when the format records it per step
	// (ATIF's metrics.cost_usd, mini-swe-agent v2's extra.cost).
	CostUSD float64
}

// NewUsage is the usage of the counts given; a count beyond 32 bits (no
// model call is that large) is kept as the nearest that fits.
func NewUsage(input, output, cacheRead, cacheWrite int) Usage {
	return Usage{InputTokens: Clamp32(input), OutputTokens: Clamp32(output), CacheRead: Clamp32(cacheRead), CacheWrite: Clamp32(cacheWrite)}
}

// Plus adds two usages field by field.
func (u Usage) Plus(v Usage) Usage {
	w := NewUsage(int(u.InputTokens)+int(v.InputTokens), int(u.OutputTokens)+int(v.OutputTokens),
		int(u.CacheRead)+int(v.CacheRead), int(u.CacheWrite)+int(v.CacheWrite))
	w.CostUSD = u.CostUSD + v.CostUSD
	return w
}

// Clamp32 is n as an int32, the nearest that fits when n does not: the
// counts kept in 32 bits (tokens, exit statuses, lines an action showed)
// never need more, so more is nonsense from input.
func Clamp32(n int) int32 { return int32(max(math.MinInt32, min(n, math.MaxInt32))) }

// Action is one thing the agent did: a tool call or shell command, with what
// it displayed. Its output and thought are the run's (Run.Observation,
// Run.Thought): they are most of a run's size and are read one at a time.
// A long run holds a million actions, so the small fields are small and come
// last, packed together.
type Action struct {
	Tool    string
	Command string
	// Failure says why the command failed, in one line ("exit 2: /bin/sh:
	// 2: Syntax error: ..."), or is "" when nothing says it did: a non-zero
	// exit status, an error flag the format set, or output saying the
	// command could not run. It changes no score: the evaluator counts a
	// failed action's steps like any other.
	Failure  string
	Reads    []ObservedRead
	Searches []SearchHit
	// Edits lists files the action changed.
	Edits []string
	// Steps are indices into Run.Prediction.Steps that this action produced.
	Steps []int
	// Timestamp is seconds since the Unix epoch, 0 when unknown.
	Timestamp float64
	Usage     Usage
	Index     int32 // 0-based position in the run
	// ExitCode is the command's exit status when the format recorded one
	// (ExitKnown).
	ExitCode  int32
	Category  Category
	ExitKnown bool
	// Agent is the index in Run.Agents of the agent that made the action:
	// 0, the lead, for a run of one agent.
	Agent int32
	// Changes are the edits the action made, as the format recorded them
	// (a str_replace's old and new text, Claude Code's Edit, a patch's
	// hunks); nil when it recorded none (a shell's sed -i).
	Changes []Change
	// NotRun marks an action refused before it ran (a user's or a policy's
	// denial, a blocklist); Failure says why. It displayed nothing, so the
	// observed lens reads nothing from it.
	NotRun bool
	// Pending marks a call whose result the record does not hold (yet: a
	// followed session's running command, or one the session ended
	// before). It has shown nothing, so no lens counts a read of it.
	Pending bool
}

// Sidechain reports whether a sub-agent made the action.
func (a *Action) Sidechain() bool { return a.Agent > 0 }

// Change is one recorded edit of a file.
type Change struct {
	File string
	Kind ChangeKind
	// Old is the text replaced (ChangeReplace); New the text put in its
	// place, the file's whole content (ChangeWhole) or the lines inserted
	// after line Line (ChangeInsert; 0 inserts at the top).
	Old, New string
	Line     int
	// Unrecorded: the run wrote the file (a shell redirection, tee) but
	// the record does not hold what it wrote; the change is known by its
	// file and kind only, and cannot be placed.
	Unrecorded bool
}

// ChangeKind says how a Change applies.
type ChangeKind uint8

const (
	// ChangeReplace replaces the first occurrence of Old by New, as
	// str_replace and Claude Code's Edit do.
	ChangeReplace ChangeKind = iota
	// ChangeWhole makes New the file's content (a created or rewritten file).
	ChangeWhole
	// ChangeInsert inserts New after line Line.
	ChangeInsert
	// ChangeAppend adds New at the file's end (echo … >> f, tee -a f).
	ChangeAppend
)

// Failed reports whether the action's command failed.
func (a *Action) Failed() bool { return a.Failure != "" }

// Run is one agent run on one task instance, seen through both lenses: the
// timeline of actions and the ContextBench prediction.
type Run struct {
	InstanceID string
	// RecordedID is the instance id the file itself records, when the
	// evaluator's rule named the run otherwise (a renamed
	// "qwen_8b__pydata__xarray-4075.traj.json" is instance
	// "qwen_8b__pydata__xarray-4075" by its file name, "pydata__xarray-4075"
	// by its record); "" when they agree.
	RecordedID string
	Format     string
	Agent      string
	Model      string
	Actions    []Action
	Prediction Prediction
	// Path is the file the run was loaded from.
	Path string
	// RestUsage is what the run spent on no action: a final answer after
	// its last call, the calls of a run that made none. It counts in the
	// run's total, on no step.
	RestUsage Usage
	// CostUSD is what the run cost in US dollars, when the format records
	// it; 0 means not recorded.
	CostUSD float64
	// RecordedPatch is the patch the file records where the evaluator reads
	// none (the OpenHands resolver's top-level git_patch): shown, never
	// scored. Patch gives the patch to show.
	RecordedPatch string
	// Task is the task statement the run was given (the issue text), as
	// its format records it; "" when it records none.
	Task string
	// ExitStatus is how the run ended, as its format words it
	// ("Submitted", "LimitsExceeded", Claude Code's "success" or
	// "error_max_turns"); "" when the format records none.
	ExitStatus string
	// Observations holds the actions' outputs (what each displayed), text i
	// for action i, and Thoughts the model's text accompanying each; nil
	// when there are none. A parser gives TextLists; a loaded run holds
	// them compressed.
	Observations, Thoughts Texts
	// Agents are the run's agents: the lead first, then every sub-agent it
	// or another sub-agent started, in the order they started; empty for
	// a run of one agent. Action.Agent indexes it.
	Agents []Agent
	// Unread counts what the reader did not understand, by what it was
	// ("record:agent_progress", "tool:FooTool"): empty when it understood
	// everything. Formats move; this says where a reading may be short.
	Unread map[string]int
	// Warnings are what the reader skipped and why ("line 11: invalid
	// JSON …"), at most MaxWarnings of them; MoreWarnings counts the rest.
	Warnings     []string
	MoreWarnings int
}

// MaxWarnings bounds a run's Warnings: past it only the count grows.
const MaxWarnings = 20

// MCPTool reports a tool an MCP server provides, as the agents spell it:
// mcp__server__tool (Claude Code, and Sourcegraph's in CodeScaleBench's
// runs), mcp_server_tool (OpenCode's older sessions).
func MCPTool(name string) bool {
	return strings.HasPrefix(name, "mcp__") || strings.HasPrefix(name, "mcp_") && strings.Count(name, "_") >= 2
}

// MCPEvidence reports an action that retrieved through an MCP server: a
// read or a search by an MCP tool (the evidence CodeScaleBench calls
// "mcp", where any other is "local").
func (a *Action) MCPEvidence() bool {
	return MCPTool(a.Tool) && (a.Category == CategoryRead || a.Category == CategorySearch)
}

// NoteUnread counts one thing the reader did not understand.
func (r *Run) NoteUnread(what string) {
	if r.Unread == nil {
		r.Unread = map[string]int{}
	}
	r.Unread[what]++
}

// Warn records a warning, keeping at most MaxWarnings.
func (r *Run) Warn(msg string) {
	if len(r.Warnings) < MaxWarnings {
		r.Warnings = append(r.Warnings, msg)
		return
	}
	r.MoreWarnings++
}

// Texts is a list of texts read back by index.
type Texts interface {
	// Text returns text i, "" when there is none.
	Text(i int) string
}

// TextList is a list of texts held as strings.
type TextList []string

// Text returns text i, "" when there is none.
func (l TextList) Text(i int) string {
	if i < 0 || i >= len(l) {
		return ""
	}
	return l[i]
}

// Patch is the patch the run submitted: the one the evaluator scores, else
// the one its file records otherwise.
func (r *Run) Patch() string {
	if r.Prediction.ModelPatch != "" {
		return r.Prediction.ModelPatch
	}
	return r.RecordedPatch
}

// Observation returns action i's output.
func (r *Run) Observation(i int) string {
	if r.Observations == nil {
		return ""
	}
	return r.Observations.Text(i)
}

// Thought returns action i's thought.
func (r *Run) Thought(i int) string {
	if r.Thoughts == nil {
		return ""
	}
	return r.Thoughts.Text(i)
}

// Submitted reports an exit status that says the run handed in its work
// (mini-swe-agent's "Submitted", Claude Code's "success", …), rather than
// stopping on a limit, a timeout or an error.
func Submitted(status string) bool {
	s := strings.ToLower(status)
	return strings.Contains(s, "submit") || s == "success" || s == "completed" || s == "finished"
}

// MarkRejectedSubmits marks failed the submits a run's harness refused: a
// submit the run went on after (the harness answered it and the agent
// acted again), and a last submit when the run ended with a status that is
// not a submission (a guard such as ExploreContextEnforcementExceeded
// refused it). Every surface then shows them as failed, not as "✓ submit".
// The ContextBench runner answers every first submit with a
// <context_request> for the final context: that submit is the protocol's
// first half, not refused.
func MarkRejectedSubmits(run *Run) {
	last := map[int32]int{} // each agent's last action
	for i := range run.Actions {
		last[run.Actions[i].Agent] = i
	}
	for i := range run.Actions {
		act := &run.Actions[i]
		if act.Category != CategorySubmit || act.Failed() {
			continue
		}
		switch {
		case i < last[act.Agent] && strings.Contains(run.Observation(i), "<context_request>"):
		case i < last[act.Agent]:
			act.Failure = "submit not accepted: the run went on after it"
		case run.ExitStatus != "" && !Submitted(run.ExitStatus) && act.Agent == 0:
			act.Failure = "submit not accepted: the run ended with " + run.ExitStatus
		}
	}
}
