package model

// Category is the kind of an agent action, following CodeScaleBench's tool
// categories.
type Category string

const (
	CategoryRead   Category = "read"
	CategorySearch Category = "search"
	CategoryEdit   Category = "edit"
	CategoryRun    Category = "run"
	CategorySubmit Category = "submit"
	CategoryOther  Category = "other"
)

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
type Usage struct {
	InputTokens  int
	OutputTokens int
	CacheRead    int
	CacheWrite   int
}

// Action is one thing the agent did: a tool call or shell command, with what
// it displayed.
type Action struct {
	Index       int // 0-based position in the run
	Tool        string
	Command     string
	Observation string
	Category    Category
	Reads       []ObservedRead
	Searches    []SearchHit
	// Edits lists files the action changed.
	Edits []string
	// Steps are indices into Run.Prediction.Steps that this action produced.
	Steps []int
	// Timestamp is seconds since the Unix epoch, 0 when unknown.
	Timestamp float64
	Usage     Usage
	// Sidechain marks a sub-agent's action.
	Sidechain bool
	// Thought is the model's text accompanying the action, when present.
	Thought string
	// ExitCode is the command's exit status when the format recorded one
	// (ExitKnown).
	ExitCode  int
	ExitKnown bool
	// Failure says why the command failed, in one line ("exit 2: /bin/sh:
	// 2: Syntax error: ..."), or is "" when nothing says it did: a non-zero
	// exit status, an error flag the format set, or output saying the
	// command could not run. It changes no score: the evaluator counts a
	// failed action's steps like any other.
	Failure string
}

// Failed reports whether the action's command failed.
func (a *Action) Failed() bool { return a.Failure != "" }

// Run is one agent run on one task instance, seen through both lenses: the
// timeline of actions and the ContextBench prediction.
type Run struct {
	InstanceID string
	Format     string
	Agent      string
	Model      string
	Actions    []Action
	Prediction Prediction
	// Path is the file the run was loaded from.
	Path string
	// CostUSD is what the run cost in US dollars, when the format records
	// it; 0 means not recorded.
	CostUSD float64
	// ExitStatus is how the run ended, as its format words it
	// ("Submitted", "LimitsExceeded", Claude Code's "success" or
	// "error_max_turns"); "" when the format records none.
	ExitStatus string
}
