// Package retrievalevents reads CodeScaleBench's normalized retrieval-events
// documents (schema version 1.0, TASK.retrieval_events.json: what `convert
// --to retrieval-events` writes and its retrieval pipeline reads) as runs, so
// a pipeline's output can be explored and scored.
//
// Each event is one action at its step index: a file_read reads its target
// files, the lines it showed when its arguments say them ("lines": {"a.py":
// [[40, 65]]}, as trajscope writes them) and the whole file otherwise; a
// search lists its target files as hits; a file_write edits them. An event
// of a sub-agent is the sub-agent's action. There is no declared final
// context: the ContextBench prediction is one step per action that
// displayed file lines, and their union as the final.
package retrievalevents

import (
	"bytes"
	"fmt"
	"time"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "retrieval-events"

var (
	versionRe = lazyre.New(`"schema_version"\s*:\s*"1\.0"`)
	eventsRe  = lazyre.New(`"(?:events|provenance)"\s*:`)
)

// Sniff reports a retrieval-events document: a JSON object stamped with
// schema version 1.0 and holding provenance or events.
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return len(t) > 0 && t[0] == '{' && versionRe().Match(head) && eventsRe().Match(head)
}

// categories maps the schema's tool categories to the timeline's.
var categories = map[string]model.Category{
	"file_read": model.CategoryRead, "file_search": model.CategorySearch, "code_search": model.CategorySearch,
	"symbol_navigation": model.CategorySearch, "commit_search": model.CategorySearch, "deep_search": model.CategorySearch,
	"file_write": model.CategoryEdit, "other": model.CategoryOther,
}

// ParseRuns reads one document into a run.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	v, err := toolcall.Decode(data)
	if err != nil {
		return nil, jsontree.At(path, err)
	}
	doc := v.Object()
	if doc == nil || !doc.Get("events").Is(jsontree.Array) {
		return nil, fmt.Errorf(`%s: expected a retrieval-events document (a JSON object with an "events" list)`, path)
	}
	prov := doc.Get("provenance")
	run := model.Run{Path: path, Format: Name, InstanceID: prov.Get("task_name").Text(), Model: prov.Get("model").Text()}
	run.Agent = prov.Get("config_name").Text()
	team := toolcall.NewTeam()
	sub := false
	for i, ev := range doc.Get("events").Items() {
		e := ev.Object()
		if e == nil {
			return nil, fmt.Errorf("%s: events[%d]: expected an event object", path, i)
		}
		a := model.Action{Tool: e.Get("tool_name").Text()}
		cat, ok := categories[e.Get("tool_category").Text()]
		if !ok {
			cat = model.CategoryOther
			run.NoteUnread("tool_category:" + e.Get("tool_category").Text())
		}
		a.Category = cat
		args := e.Get("arguments")
		a.Command = args.Get("command").Text()
		if a.Command == "" {
			a.Command = a.Tool
		}
		if ts := e.Get("timestamp").Text(); ts != "" {
			if t, err := time.Parse(time.RFC3339Nano, ts); err == nil {
				a.Timestamp = float64(t.UnixNano()) / 1e9
			}
		}
		lines := args.Get("lines").Object()
		for _, f := range e.Get("target_files").Items() {
			file := f.Text()
			if file == "" {
				continue
			}
			switch cat {
			// spans are [start, end] pairs of 1-based lines.
			case model.CategoryRead:
				if spans := lines.Get(file); spans.Is(jsontree.Array) {
					for _, sp := range spans.Items() {
						s, e, ok := pair(sp)
						if ok {
							a.Reads = append(a.Reads, model.ObservedRead{File: file, Kind: model.ReadRange, Start: s, End: e})
						}
					}
				} else {
					a.Reads = append(a.Reads, model.ObservedRead{File: file, Kind: model.ReadWhole})
				}
			case model.CategorySearch:
				a.Searches = append(a.Searches, model.SearchHit{File: file})
				// A search that showed matching lines (grep -n) read them.
				for _, sp := range lines.Get(file).Items() {
					s, e, ok := pair(sp)
					if ok {
						a.Reads = append(a.Reads, model.ObservedRead{File: file, Kind: model.ReadRange, Start: s, End: e})
					}
				}
			case model.CategoryEdit:
				a.Edits = append(a.Edits, file)
			}
		}
		if e.Get("is_subagent").True() {
			if !sub {
				team.Add("subagent", model.Agent{Type: args.Get("agent").Text(), Parent: 0, Call: -1})
				sub = true
			}
			a.Agent = 1
		}
		a.Index = int32(len(run.Actions))
		run.Actions = append(run.Actions, a)
	}
	run.Agents = team.Agents(nil)
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return []model.Run{run}, nil
}

// pair reads a [start, end] span of 1-based lines.
func pair(v *jsontree.Value) (start, end int, ok bool) {
	items := v.Items()
	if len(items) != 2 {
		return 0, 0, false
	}
	s, ok1 := items[0].AnyInt()
	e, ok2 := items[1].AnyInt()
	return s, e, ok1 && ok2 && s >= 1 && e >= s
}
