package openhands

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// OpenHands V1 keeps a local conversation as a folder: base_state.json (the
// conversation's id and its agent, with the model), events/event-NNNNN-<id>.json
// (one V1 event a file, numbered in order) and, for the sub-agents its
// delegate and task tools started, subagents/<conversation>/, each a
// conversation folder of its own. The folder is one run: the sub-agents are
// its agents, their actions in time order with the lead's.

// maxEventFiles bounds the events one conversation folder reads, and
// maxConversations the sub-agent folders followed in all.
const (
	maxEventFiles    = 2 * model.MaxActions
	maxConversations = 1024
	maxNesting       = 5
)

// IsConversationDir reports whether dir is an OpenHands V1 conversation
// folder: base_state.json beside an events folder.
func IsConversationDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, "base_state.json"))
	if err != nil || !st.Mode().IsRegular() {
		return false
	}
	ev, err := os.Stat(filepath.Join(dir, "events"))
	return err == nil && ev.IsDir()
}

// IsDir reports a directory this format reads: an llm_completions folder or
// a V1 conversation folder.
func IsDir(dir string) bool { return IsConversationDir(dir) || IsCompletionsDir(dir) }

// LoadAnyDir reads a directory IsDir accepts.
func LoadAnyDir(dir string) ([]model.Run, error) {
	if IsConversationDir(dir) {
		run, err := loadConversation(filepath.Clean(dir))
		if err != nil {
			return nil, err
		}
		return []model.Run{run}, nil
	}
	return LoadDir(dir)
}

// conversationReader reads one folder and the sub-agent folders below it.
type conversationReader struct {
	team     *toolcall.Team
	actions  []model.Action
	obs      model.TextList
	thoughts model.TextList
	read     int // conversation folders read
	warn     []string
	unread   map[string]int // every conversation's, for the run
	// kinds[i] is the sub-agent type action i asked for (its
	// subagent_type), when it started one.
	kinds []string
	// refs reads every event and state file of the conversation and its
	// sub-agents': each once, never through a link, one budget in all.
	refs *inputfile.Refs
}

func loadConversation(dir string) (model.Run, error) {
	r := &conversationReader{team: toolcall.NewTeam(), unread: map[string]int{}, refs: inputfile.NewRefs(model.MaxFileBytes)}
	lead, err := r.conversation(dir, 0, 0)
	if err != nil {
		return model.Run{}, err
	}
	order := toolcall.OrderByTime(r.actions)
	acts, texts := toolcall.Reorder(order, r.actions, r.obs, r.thoughts)
	run := lead
	run.Actions, run.Observations, run.Thoughts = acts, texts[0], texts[1]
	run.Agents = r.team.Agents(order)
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	for _, w := range r.warn {
		run.Warn(w)
	}
	run.Unread = nil
	if len(r.unread) > 0 {
		run.Unread = r.unread
	}
	run.Prediction = model.Prediction{InstanceID: run.InstanceID}
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format, run.Path = Name, dir
	if run.Agent == "" {
		run.Agent = "openhands"
	}
	return run, nil
}

// conversation reads the folder dir as agent's actions and returns its run
// (the lead's fields: id, task, model).
func (r *conversationReader) conversation(dir string, agent int32, depth int) (model.Run, error) {
	r.read++
	files, _ := filepath.Glob(filepath.Join(dir, "events", "event-*.json"))
	sort.Strings(files) // event-00000-…: zero-padded, in order
	if len(files) > maxEventFiles {
		return model.Run{}, fmt.Errorf("%s: %d event files, more than the %d a run may have", dir, len(files), maxEventFiles)
	}
	hist := make([]*jsontree.Value, 0, len(files))
	for _, f := range files {
		data, err := r.refs.Read(f)
		if err != nil {
			r.warn = append(r.warn, fmt.Sprintf("%s: not read: %v", rel(dir, f), err))
			continue
		}
		v, err := toolcall.Decode(data)
		if err != nil || v.Object() == nil {
			if err == nil {
				err = fmt.Errorf("expected an event object")
			}
			r.warn = append(r.warn, fmt.Sprintf("%s skipped: %v", rel(dir, f), jsontree.At(f, err)))
			continue
		}
		hist = append(hist, v.Object())
	}
	state := &jsontree.Value{Kind: jsontree.Object}
	if data, err := r.refs.Read(filepath.Join(dir, "base_state.json")); err == nil {
		if v, err := toolcall.Decode(data); err == nil && v.Object() != nil {
			state = v.Object()
		}
	}
	id := state.Get("id").Text()
	if id == "" {
		id = filepath.Base(dir)
	}
	rec := &jsontree.Value{Kind: jsontree.Object, Obj: []jsontree.Member{
		{Key: "instance_id", Val: jsontree.NewString(id)},
		{Key: "history", Val: &jsontree.Value{Kind: jsontree.Array, Arr: hist}},
	}}
	run, err := recordRun(rec)
	if err != nil {
		return model.Run{}, fmt.Errorf("%s: %w", dir, err)
	}
	run.Model = state.Path("agent", "llm", "model").Text()
	first := len(r.actions)
	var kinds []string // one per ActionEvent, as v1Actions makes one action each
	for _, e := range hist {
		if e.Get("kind").Text() == "ActionEvent" {
			args, _ := jsontree.Parse([]byte(e.Path("tool_call", "arguments").Text()))
			kinds = append(kinds, args.First("subagent_type", "agent_type", "agent"))
		}
	}
	for i := range run.Actions {
		a := run.Actions[i]
		a.Agent = agent
		r.actions = append(r.actions, a)
		r.obs = append(r.obs, run.Observation(i))
		r.thoughts = append(r.thoughts, run.Thought(i))
		k := ""
		if i < len(kinds) {
			k = kinds[i]
		}
		r.kinds = append(r.kinds, k)
	}
	for k, n := range run.Unread {
		r.unread[k] += n
	}
	if depth >= maxNesting {
		return run, nil
	}
	subs, _ := os.ReadDir(filepath.Join(dir, "subagents"))
	for _, s := range subs {
		sub := filepath.Join(dir, "subagents", s.Name())
		if !s.IsDir() || !IsConversationDir(sub) {
			continue
		}
		if r.read >= maxConversations {
			r.warn = append(r.warn, fmt.Sprintf("%s: more than %d conversations; the rest not read", dir, maxConversations))
			break
		}
		ag := r.team.Add(sub, model.Agent{ID: s.Name(), Parent: agent, Call: -1})
		start := len(r.actions)
		if _, err := r.conversation(sub, ag, depth+1); err != nil {
			r.warn = append(r.warn, err.Error())
			continue
		}
		r.tie(ag, s.Name(), first, start)
	}
	return run, nil
}

// tie gives sub-agent ag the call of its parent (the parent's actions are
// first..start) that started it: a delegate or task call whose output names
// the sub-agent's conversation, else the last such call that came before
// the sub-agent's first action.
func (r *conversationReader) tie(ag int32, id string, first, start int) {
	a := r.team.At(ag)
	var subStart float64
	for i := start; i < len(r.actions); i++ {
		if r.actions[i].Agent == ag {
			subStart = r.actions[i].Timestamp
			break
		}
	}
	best := -1
	for i := first; i < start; i++ {
		if r.actions[i].Agent != a.Parent || !launches(r.actions[i].Tool) {
			continue
		}
		if strings.Contains(r.obs.Text(i), id) || strings.Contains(r.obs.Text(i), strings.ReplaceAll(id, "-", "")) {
			best = i
			break
		}
		if subStart == 0 || r.actions[i].Timestamp <= subStart {
			best = i
		}
	}
	if best >= 0 {
		a.Call = int32(best)
		a.Type = r.kinds[best]
		if a.Type == "" {
			a.Type = r.actions[best].Tool
		}
	}
}

// launches reports a V1 tool that starts sub-agents.
func launches(tool string) bool {
	switch strings.ToLower(tool) {
	case "delegate", "task", "delegatetool", "tasktool":
		return true
	}
	return false
}

// rel is f relative to dir, for messages.
func rel(dir, f string) string {
	if r, err := filepath.Rel(dir, f); err == nil {
		return r
	}
	return f
}
