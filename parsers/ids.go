package parsers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
)

// RunRef is one run as a list shows it: the file it came from, its 1-based
// position in the list, and its instance id.
type RunRef struct {
	Path string
	Pos  int
	ID   string
}

// Warning is an error that does not stop the work: the output is written,
// but the user should know (runs without ids, duplicate ids).
type Warning string

func (w Warning) Error() string { return string(w) }

// IDWarnings words the runs a user could mix up: runs without an instance
// id, and ids that more than one run holds (a .traj and its
// .checkpoints.jsonl, a run converted twice). Each names the files and
// positions, in list order.
func IDWarnings(refs []RunRef) []Warning {
	var out []Warning
	byID := map[string][]RunRef{}
	var ids []string
	for _, r := range refs {
		if _, seen := byID[r.ID]; !seen {
			ids = append(ids, r.ID)
		}
		byID[r.ID] = append(byID[r.ID], r)
	}
	sort.SliceStable(ids, func(a, b int) bool { return byID[ids[a]][0].Pos < byID[ids[b]][0].Pos })
	for _, id := range ids {
		rs := byID[id]
		switch {
		case id == "":
			out = append(out, Warning(fmt.Sprintf("%d %s no instance id: %s", len(rs), plural(len(rs), "run has", "runs have"), places(rs))))
		case len(rs) > 1:
			out = append(out, Warning(fmt.Sprintf("instance %q appears %d times: %s", termsafe.Line(id), len(rs), places(rs))))
		}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// places lists runs as "file #2, #5; other #1".
func places(rs []RunRef) string {
	var parts []string
	for i, r := range rs {
		pos := fmt.Sprintf("#%d", r.Pos)
		if i == 0 || rs[i-1].Path != r.Path {
			parts = append(parts, termsafe.Line(r.Path)+" "+pos)
		} else {
			parts[len(parts)-1] += ", " + pos
		}
	}
	return strings.Join(parts, "; ")
}
