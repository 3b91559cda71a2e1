// Package atif loads Harbor's Agent Trajectory Interchange Format
// (trajectory.json, schema_version ATIF-v1.0 … ATIF-v1.7).
//
// Every steps[].tool_calls entry becomes one timeline action, paired with
// its observation.results entry by source_call_id. Tool names map like
// Claude Code's (Read, Grep, Glob, Bash, Edit, …, and the same tools under
// other agents' names), through parsers/internal/toolcall. The structured
// result Harbor keeps in observation.results[].extra.tool_result_metadata
// (v1.7) is used for Read ranges; the "[metadata] {…}" text Harbor appends
// to result content is not part of what the model saw and is removed.
//
// Version differences handled: message and result content may be a string
// or a list of content parts (v1.6); tool calls and results carry extra
// (v1.7); sub-agent runs are embedded in subagent_trajectories (v1.7) or
// referenced by observation results' subagent_trajectory_ref (a file
// beside this one); steps copied from an earlier trajectory
// (is_copied_context) are skipped; Claude Code sub-agent steps carry
// extra.is_sidechain. Each sub-agent trajectory is an agent of the run
// (Run.Agents), its actions placed after the call that launched them. A
// file another file refers to (a sub-agent's, a continuation) is read once,
// however often it is named.
//
// Metrics are deduplicated: exporters repeat one API call's metrics on
// every step made from it (ATIF-v1.2 text and tool steps of one message),
// so a step whose metrics equal the previous agent step's is not counted
// again. A step's usage goes to its first action; a step without tool calls
// passes it to the next action (the last action when none follows).
package atif

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/task"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "atif"

var (
	schemaRe     = lazyre.New(`"schema_version"\s*:\s*"ATIF-v\d`)
	versionRe    = lazyre.New(`^ATIF-v1\.(\d{1,3})$`)
	maxDepth     = 8
	maxRefFileSz = int64(256 << 20)
)

// Sniff reports whether a file is an ATIF trajectory: a JSON object (or
// JSON lines of them, or a list of them) whose schema_version is "ATIF-v…".
func Sniff(name string, head []byte) bool {
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	if len(t) > 0 && t[0] == '[' {
		t = bytes.TrimLeft(t[1:], " \t\r\n") // a list of trajectory objects
	}
	return len(t) > 0 && t[0] == '{' && schemaRe().Match(head)
}

// ParseRuns reads an ATIF file's content, data: one trajectory, or JSON
// lines of trajectories (one run each). Sub-agent trajectories it refers to
// and the Harbor trial's result.json are read beside path.
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	runs, err := parse(path, data, filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	trial := toolcall.TrialName(path, inputfile.ReadRegular)
	for i := range runs {
		runs[i].Path = path
		if trial != "" && len(runs) == 1 {
			runs[i].InstanceID = trial
			runs[i].Prediction.InstanceID = trial
		}
	}
	return runs, nil
}

// parse decodes data; dir is where referenced sub-agent files are looked
// up ("" to never read other files).
func parse(path string, data []byte, dir string) ([]model.Run, error) {
	v, err := toolcall.Decode(data)
	if err == nil && v.Is(jsontree.Array) {
		// A list of trajectories (agent-data-protocol's sample_atif.json):
		// a run each.
		var runs []model.Run
		for i, t := range v.Arr {
			run, err := load(path, t.Object(), dir, fmt.Sprintf("[%d]: ", i))
			if err != nil {
				return nil, err
			}
			runs = append(runs, run)
		}
		return runs, nil
	}
	if err == nil {
		run, err := load(path, v.Object(), dir, "")
		if err != nil {
			return nil, err
		}
		return []model.Run{run}, nil
	}
	// JSON lines of trajectories? Only when the first line is a whole
	// object; otherwise the error is in the one document.
	lines := toolcall.Lines(data)
	if len(lines) < 2 {
		return nil, jsontree.At(path, err)
	}
	if first, ferr := toolcall.Decode(lines[0].Text); ferr != nil || first.Object() == nil {
		return nil, jsontree.At(path, err)
	}
	var runs []model.Run
	for _, ln := range lines {
		lv, lerr := toolcall.DecodeAt(ln.Text, ln.No)
		if lerr != nil {
			return nil, jsontree.At(path, lerr)
		}
		run, lerr := load(path, lv.Object(), dir, fmt.Sprintf("line %d: ", ln.No))
		if lerr != nil {
			return nil, lerr
		}
		runs = append(runs, run)
	}
	return runs, nil
}

// load converts one trajectory object into a run.
func load(path string, t *jsontree.Value, dir, where string) (model.Run, error) {
	if t == nil {
		return model.Run{}, fmt.Errorf("%s: %sexpected an ATIF trajectory object", path, where)
	}
	if err := checkVersion(t); err != nil {
		return model.Run{}, fmt.Errorf("%s: %s%v", path, where, err)
	}
	if !t.Get("steps").Is(jsontree.Array) {
		return model.Run{}, fmt.Errorf("%s: %ssteps: expected a list of steps", path, where)
	}
	w := &walker{path: path, dir: dir, embedded: map[string]*jsontree.Value{}, used: map[string]bool{},
		team: toolcall.NewTeam(), read: map[string]*jsontree.Value{}, walked: map[*jsontree.Value]bool{}}
	w.index(t)
	w.walked[t] = true
	w.read[filepath.Clean(path)] = t // a continuation naming this file is this trajectory
	if err := w.walk(t, 0, 0, where); err != nil {
		return model.Run{}, err
	}
	// A trajectory continued in another file (terminus-2 after a context
	// summary: continued_trajectory_ref "trajectory.cont-1.json") is one
	// run: the continuation's own steps follow, its copied context skipped.
	for cont, n := t, 0; n < maxDepth; n++ {
		ref := cont.Get("continued_trajectory_ref").Text()
		if ref == "" {
			break
		}
		next := w.refFile(ref)
		if next == nil || w.walked[next] {
			break // missing, or a loop of continuations
		}
		w.walked[next] = true
		if err := w.walk(next, 0, 0, where+"continuation "+ref+": "); err != nil {
			return model.Run{}, err
		}
		cont = next
	}
	// Embedded sub-agents no call referenced still ran: list them last.
	for _, key := range w.order {
		if !w.used[key] {
			w.used[key] = true
			sub := w.embedded[key]
			ag := w.team.Add(key, model.Agent{Type: sub.Path("agent", "name").Text(), Parent: 0, Call: -1})
			if err := w.walk(sub, ag, 1, where+"subagent "+key+": "); err != nil {
				return model.Run{}, err
			}
		}
	}

	agent := t.Get("agent").Object()
	run := model.Run{
		Format:       Name,
		Agent:        agent.Get("name").Text(),
		Model:        agent.Get("model_name").Text(),
		Actions:      w.actions,
		Observations: w.obs,
		Thoughts:     w.thoughts,
		Path:         path,
		CostUSD:      toolcall.Cost(t.Path("final_metrics", "total_cost_usd")),
		Task:         w.task,
		Agents:       w.team.Agents(nil),
	}
	for i := range run.Actions {
		run.Actions[i].Index = int32(i)
	}
	run.InstanceID = t.First("session_id", "trajectory_id")
	toolcall.NameByFile(&run, path)
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	return run, nil
}

func checkVersion(t *jsontree.Value) error {
	v, ok := t.Get("schema_version").AsString()
	if !ok {
		return fmt.Errorf("schema_version: expected a string like \"ATIF-v1.7\"")
	}
	if !versionRe().MatchString(v) {
		return fmt.Errorf("schema_version %q: expected ATIF-v1.0 … ATIF-v1.7", v)
	}
	return nil
}

type walker struct {
	path     string
	dir      string
	actions  []model.Action
	obs      model.TextList // obs[i] and thoughts[i] are action i's
	thoughts model.TextList
	carry    model.Usage
	lastUse  [3]int // the previous agent step's metrics, for dedup
	embedded map[string]*jsontree.Value
	order    []string
	used     map[string]bool
	files    int // referenced sub-agent files read
	task     string
	team     *toolcall.Team
	// read holds each referenced file as read (nil: unreadable), by its
	// cleaned path: a file named again is not read again.
	read map[string]*jsontree.Value
	// walked are the trajectories walked already: one named twice, or a
	// continuation naming itself, is walked once.
	walked map[*jsontree.Value]bool
}

// index records the embedded sub-agent trajectories by trajectory_id and
// session_id.
func (w *walker) index(t *jsontree.Value) {
	for _, s := range t.Get("subagent_trajectories").Items() {
		sub := s.Object()
		if sub == nil {
			continue
		}
		key := sub.First("trajectory_id", "session_id")
		if key == "" {
			key = fmt.Sprintf("#%d", len(w.order))
		}
		if _, dup := w.embedded[key]; dup {
			continue
		}
		w.embedded[key] = sub
		w.order = append(w.order, key)
		if sid := sub.Get("session_id").Text(); sid != "" && sid != key {
			if _, dup := w.embedded["session:"+sid]; !dup {
				w.embedded["session:"+sid] = sub
			}
		}
	}
}

func (w *walker) walk(t *jsontree.Value, agent int32, depth int, where string) error {
	if depth > maxDepth {
		return nil // a reference cycle or absurd nesting: stop descending
	}
	// Usage a trajectory spends after its last call stays with its own
	// last action, not the next trajectory's first.
	saved := w.carry
	w.carry = model.Usage{}
	defer func() {
		w.flushCarry()
		w.carry = saved
	}()
	for i, s := range t.Get("steps").Items() {
		step := s.Object()
		if step == nil {
			return fmt.Errorf("%s: %ssteps[%d]: expected a step object", w.path, where, i)
		}
		if step.Get("is_copied_context").True() {
			continue // repeated from an earlier trajectory
		}
		ag := agent
		if ag == 0 && step.Path("extra", "is_sidechain").True() {
			ag = w.team.Add("sidechain", model.Agent{Parent: 0, Call: -1})
		}
		w.step(step, ag, depth, where)
	}
	return nil
}

func (w *walker) step(step *jsontree.Value, agent int32, depth int, where string) {
	if step.Get("source").Text() == "user" && w.task == "" && agent == 0 {
		w.task = task.FromPrompt(toolcall.Text(step.Get("message"))) // the first prompt
	}
	if step.Get("source").Text() != "agent" && step.Get("tool_calls").IsNull() {
		return
	}
	usage := w.metrics(step)
	ts := toolcall.ParseTime(step.Get("timestamp").Text())
	thought := toolcall.Text(step.Get("message"))
	if thought == "" {
		thought = step.Get("reasoning_content").Text()
	}
	results := step.Path("observation", "results").Items()
	calls := step.Get("tool_calls").Items()
	typed := false // terminus-2: commands typed into a terminal, no tool calls
	if len(calls) == 0 && step.Get("source").Text() == "agent" {
		calls, thought = keystrokes(thought)
		typed = len(calls) > 0
	}
	byID := map[string]*jsontree.Value{}
	var loose []*jsontree.Value
	for _, r := range results {
		res := r.Object()
		if res == nil {
			continue
		}
		if id := res.Get("source_call_id").Text(); id != "" {
			if _, dup := byID[id]; !dup {
				byID[id] = res
			}
			continue
		}
		loose = append(loose, res)
	}
	first := true
	for ci, c := range calls {
		call := c.Object()
		if call == nil {
			continue
		}
		res := byID[call.Get("tool_call_id").Text()]
		if res == nil && len(calls) == 1 && len(loose) == 1 {
			res = loose[0]
		}
		if res == nil && len(loose) == len(calls) {
			res = loose[ci]
		}
		if res == nil && typed && len(loose) == 1 && ci == len(calls)-1 {
			res = loose[0] // the terminal's output after the batch
		}
		tc := toolcall.Call{Name: call.First("function_name", "name"), Input: jsontree.Compact(arguments(call.Get("arguments")))}
		if res != nil {
			text, _ := toolcall.StripMetadata(toolcall.Text(res.Get("content")))
			tc.Output = text
			tc.HasOutput = !res.Get("content").IsNull()
			meta := res.Path("extra", "tool_result_metadata")
			tc.Meta = jsontree.Compact(meta.Path("tool_use_result").Object())
			tc.IsError = meta.Path("raw_tool_result", "is_error").True() ||
				res.Path("extra", "is_error").True()
		}
		a := model.Action{Timestamp: ts, Agent: agent}
		th := ""
		if first {
			th = thought
			a.Usage = toolcall.SumUsage(w.carry, usage)
			w.carry = model.Usage{}
			first = false
		}
		toolcall.Apply(&a, tc)
		w.actions = append(w.actions, a)
		w.obs, w.thoughts = append(w.obs, tc.Output), append(w.thoughts, th)
		if res != nil {
			w.subagents(res, agent, len(w.actions)-1, depth, where)
		}
	}
	if first {
		// No tool call: the step's tokens were spent before the next action.
		w.carry = toolcall.SumUsage(w.carry, usage)
	}
	// Results that no call claims may still launch sub-agents.
	if len(calls) == 0 {
		for _, res := range loose {
			w.subagents(res, agent, -1, depth, where)
		}
	}
}

// flushCarry charges usage left after the last action to that action.
func (w *walker) flushCarry() {
	if len(w.actions) > 0 && !toolcall.UsageZero(w.carry) {
		toolcall.AddUsage(&w.actions[len(w.actions)-1], w.carry)
	}
	w.carry = model.Usage{}
}

// metrics reads a step's metrics, or nothing when they repeat the previous
// agent step's (one API call exported as several steps).
func (w *walker) metrics(step *jsontree.Value) model.Usage {
	m := step.Get("metrics").Object()
	if m == nil {
		return model.Usage{}
	}
	prompt, _ := m.Get("prompt_tokens").AnyInt()
	completion, _ := m.Get("completion_tokens").AnyInt()
	cached, hasCached := m.Get("cached_tokens").AnyInt()
	key := [3]int{prompt, completion, cached}
	if key == w.lastUse && key != [3]int{} {
		return model.Usage{}
	}
	w.lastUse = key
	extra := m.Get("extra").Object()
	if !hasCached {
		cached, _ = extra.Get("cache_read_input_tokens").AnyInt()
	}
	write, _ := extra.Get("cache_creation_input_tokens").AnyInt()
	// prompt_tokens counts all input, cached included (ATIF RFC).
	input := prompt - cached - write
	if input < 0 {
		input = max(prompt-cached, 0)
		if prompt < cached {
			input = prompt
		}
	}
	u := model.NewUsage(input, completion, cached, write)
	u.CostUSD = toolcall.Cost(m.Get("cost_usd"))
	return u
}

// arguments decodes a tool call's arguments: an object, or (from exporters
// that keep the provider's raw form) a JSON string holding one.
func arguments(v *jsontree.Value) *jsontree.Value {
	switch {
	case v.Is(jsontree.Object):
		return v
	case v.Is(jsontree.String):
		if d, err := toolcall.Decode([]byte(v.Str)); err == nil {
			if m := d.Object(); m != nil {
				return m
			}
		}
		return jsontree.Wrap("input", v)
	}
	return nil
}
