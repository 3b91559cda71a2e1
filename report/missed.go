package report

import (
	"sort"

	"github.com/trajscope/trajscope/scoring/diagnose"
)

// DefaultTop is how many gold spans and files the missed-gold table lists.
const DefaultTop = 20

// MissedItem is one gold span (or file, with Start and End 0) of one task,
// with what became of it in each run that diagnosed it.
type MissedItem struct {
	InstanceID string `json:"instance_id"`
	File       string `json:"file"`
	Start      int    `json:"start,omitempty"`
	End        int    `json:"end,omitempty"`
	// Runs counts the runs that diagnosed it, Missed those where it was not
	// found; Counts splits Runs by diagnosis.
	Runs   int             `json:"runs"`
	Missed int             `json:"missed"`
	Counts diagnose.Counts `json:"counts"`
}

// MissedGold lists the gold that most runs missed: where agents fail
// together rather than one by one.
type MissedGold struct {
	Lens string `json:"lens"`
	// Diagnosed counts runs with at least one diagnosed instance; without
	// any, the inputs carry no diagnosis (upstream JSONL) and the lists
	// are empty.
	Diagnosed int `json:"runs_with_diagnosis"`
	// Undiagnosed names the runs without diagnosis.
	Undiagnosed []string `json:"runs_without_diagnosis,omitempty"`
	// TotalSpans and TotalFiles count the distinct gold spans and files
	// diagnosed; Spans and Files are the Top most missed of each.
	TotalSpans int          `json:"total_spans"`
	TotalFiles int          `json:"total_files"`
	Top        int          `json:"top"`
	Spans      []MissedItem `json:"spans"`
	Files      []MissedItem `json:"files"`
}

type missKey struct {
	id, file   string
	start, end int
}

// missedFold tallies the diagnosis of every gold span and file, over the
// instances given one at a time.
type missedFold struct {
	spans, files map[missKey]*MissedItem
}

func newMissedFold() *missedFold {
	return &missedFold{spans: map[missKey]*MissedItem{}, files: map[missKey]*MissedItem{}}
}

// add tallies one instance under lens and reports whether it had a
// diagnosis.
func (m *missedFold) add(in *Instance, lens string) bool {
	le := in.Extras.Lens(lens)
	if le == nil || le.Diagnosis == nil {
		return false
	}
	id := in.Result.InstanceID
	for _, s := range le.Diagnosis.Spans {
		tally(m.spans, missKey{id, s.File, s.Start, s.End}, s.Category)
	}
	for _, f := range le.Diagnosis.Files {
		tally(m.files, missKey{id: id, file: f.File}, f.Category)
	}
	return true
}

func tally(set map[missKey]*MissedItem, k missKey, c diagnose.Category) {
	it := set[k]
	if it == nil {
		it = &MissedItem{InstanceID: k.id, File: k.file, Start: k.start, End: k.end}
		set[k] = it
	}
	it.Runs++
	it.Counts[c]++
	if c != diagnose.Found {
		it.Missed++
	}
}

// table keeps the top most missed spans and files; the caller counts the
// runs with and without diagnosis.
func (m *missedFold) table(lens string, top int) *MissedGold {
	return &MissedGold{Lens: lens, Top: top, TotalSpans: len(m.spans), TotalFiles: len(m.files),
		Spans: mostMissed(m.spans, top), Files: mostMissed(m.files, top)}
}

// mostMissed sorts by runs that missed, then by the share missed (fewer
// runs diagnosing it), then by task, file and line, and keeps the first
// top (all when top ≤ 0).
func mostMissed(set map[missKey]*MissedItem, top int) []MissedItem {
	out := make([]MissedItem, 0, len(set))
	for _, it := range set {
		out = append(out, *it)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := &out[i], &out[j]
		switch {
		case a.Missed != b.Missed:
			return a.Missed > b.Missed
		case a.Runs != b.Runs:
			return a.Runs < b.Runs
		case a.InstanceID != b.InstanceID:
			return a.InstanceID < b.InstanceID
		case a.File != b.File:
			return a.File < b.File
		case a.Start != b.Start:
			return a.Start < b.Start
		}
		return a.End < b.End
	})
	// Only gold some run missed belongs in a table of missed gold.
	n := 0
	for n < len(out) && out[n].Missed > 0 {
		n++
	}
	if top > 0 && n > top {
		n = top
	}
	return out[:n]
}
