package report

import "fmt"

// Group keys for --by.
const (
	ByLanguage = "language"
	BySource   = "source"
	// Unknown is the group of instances whose language or split nothing
	// names (upstream rows without --gold, an id the gold lacks).
	Unknown = "unknown"
)

// TaskInfo names a task's language and benchmark split.
type TaskInfo struct {
	Language, Source string
}

// TaskLookup finds a task by instance id, for results that carry no task
// information themselves (upstream JSONL joined with a gold file).
type TaskLookup func(instanceID string) (TaskInfo, bool)

// GroupRow is one run's summary over the instances of one group.
type GroupRow struct {
	Run   string `json:"run"`
	Group string `json:"group"`
	Row   Row    `json:"summary"`
}

// Grouping is the summary table per run × group.
type Grouping struct {
	// By is "language" or "source".
	By   string     `json:"by"`
	Rows []GroupRow `json:"rows"`
}

// ParseBy checks a --by value.
func ParseBy(s string) (string, error) {
	switch s {
	case ByLanguage, BySource:
		return s, nil
	}
	return "", fmt.Errorf("unknown --by %q (want %s or %s)", s, ByLanguage, BySource)
}

// groupOf is an instance's group: its trajscope extras' task first (the
// gold it was scored against), else the lookup's, else Unknown.
func groupOf(in *Instance, by string, tasks TaskLookup) string {
	var v string
	if e := in.Extras; e != nil {
		v = e.Language
		if by == BySource {
			v = e.Source
		}
	}
	if v == "" && tasks != nil {
		if t, ok := tasks(in.Result.InstanceID); ok {
			v = t.Language
			if by == BySource {
				v = t.Source
			}
		}
	}
	if v == "" {
		return Unknown
	}
	return v
}
