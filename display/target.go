package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// TargetWords says where a run's gold came from when it is not a gold
// file: for a patch, that its changes are the target; for the run's own
// edits, how much of what it changed it had read first under lens l. ""
// for a gold file.
func TargetWords(t *story.Target, l model.Lens) string {
	var parts []string
	tl := &t.Lenses[l]
	switch t.From {
	case model.GoldFromFile:
		return ""
	case model.GoldFromPatch:
		parts = append(parts, "gold from the patch: the regions it changes")
	case model.GoldFromEdits:
		if len(tl.Edits) == 0 && t.Unlocated > 0 {
			parts = append(parts, "gold from edits: no edited region could be placed")
			break
		}
		if len(tl.Edits) == 0 {
			parts = append(parts, "gold from edits: the run changed nothing that was in the repository, so there is no target")
			break
		}
		parts = append(parts, fmt.Sprintf("gold from edits: %s, %d of %d lines read before their edit (%s lens: %s), %s",
			Count(len(tl.Edits), "edited region"), tl.ReadBefore, tl.Lines, l, Ratio(tl.ReadBefore, tl.Lines), Count(tl.Blind, "blind edit")))
		if tl.Reads > 0 {
			// Actions, not steps: the count beside it is the lens's.
			parts = append(parts, fmt.Sprintf("%d of the %s that put lines in view led to no edit", tl.Unused, Count(tl.Reads, "action")))
		}
	}
	if t.Unlocated > 0 {
		parts = append(parts, t.NotFound())
	}
	return strings.Join(parts, "; ")
}

// EmptyTarget says why a run's target has no span: the gold file names
// none, the run changed nothing yet, or a patch's changes were not found
// where they were sought.
func EmptyTarget(t *story.Target) string {
	switch {
	case t.From == model.GoldFromEdits && t.Unlocated > 0:
		return "gold from edits: " + t.NotFound()
	case t.From == model.GoldFromEdits:
		return "gold from edits: the run has changed nothing in the repository yet"
	case t.From == model.GoldFromPatch && t.Unlocated > 0:
		return "gold from the patch: " + t.NotFound()
	}
	return "no gold context"
}

// EditWords says what the run had read of one edited region before it
// changed it: "read @3, 5 actions before its edit @8", or "blind edit @8".
func EditWords(e story.EditRead) string {
	if e.Blind() {
		return fmt.Sprintf("blind edit @%d", e.EditedAt+1)
	}
	return fmt.Sprintf("read @%d, %s before its edit @%d", e.ReadAt+1, Count(e.EditedAt-e.ReadAt, "action"), e.EditedAt+1)
}

// Count is n and w, plural when n is not one: "3 actions".
func Count(n int, w string) string { return fmt.Sprintf("%d %s", n, Plural(n, w)) }

// EditLabel is EditWords for a narrow column: "read @3 → edit @8", or
// "blind edit @8".
func EditLabel(e story.EditRead) string {
	if e.Blind() {
		return fmt.Sprintf("blind edit @%d", e.EditedAt+1)
	}
	return fmt.Sprintf("read @%d → edit @%d", e.ReadAt+1, e.EditedAt+1)
}

// TargetTitle is what a pane of the target is titled: "Gold" for a gold
// file's, "Patch" for a reference patch's regions, "Edits" for the run's
// own edits; and what its spans are called. Every width says which.
func TargetTitle(from model.GoldFrom) (title, spans string) {
	switch from {
	case model.GoldFromPatch:
		return "Patch", "regions"
	case model.GoldFromEdits:
		return "Edits", "regions"
	}
	return "Gold", "spans"
}

// CoverageTitle is the coverage pane's title: coverage of what.
func CoverageTitle(from model.GoldFrom) string {
	switch from {
	case model.GoldFromPatch:
		return "Coverage of the patch"
	case model.GoldFromEdits:
		return "Coverage of the run's edits"
	}
	return "Coverage"
}

// AsideWords says what the run read that is not a repository file: "reads
// not in the repository: 3 (2 of files the run wrote, 1 outside it)"; ""
// for none.
func AsideWords(a *story.Aside) string {
	if a.Count() == 0 {
		return ""
	}
	var parts []string
	if a.Created > 0 {
		parts = append(parts, fmt.Sprintf("%d of files the run wrote", a.Created))
	}
	if a.Outside > 0 {
		parts = append(parts, fmt.Sprintf("%d outside it", a.Outside))
	}
	return fmt.Sprintf("%s: %d (%s)", GlyphAside+" reads not in the repository", a.Count(), strings.Join(parts, ", "))
}
