// Package aider loads Aider's chat history, the Markdown file it appends
// to as it works (.aider.chat.history.md). Aider writes three kinds of
// lines: what the user typed ("#### " before each line), its own output
// ("> " before each line: confirmations, files added, edits applied,
// commands run and their output, token counts) and, unmarked, the model's
// replies.
//
// Actions: files entering the chat (/add, /read-only, a file the model
// asked for and the user accepted) are whole-file reads; "Applied edit to
// FILE" is an edit; a command run (/run, "!cmd", or one the model
// suggested and the user accepted: "Running CMD") is read by
// parsers/internal/shell, with the output Aider echoed after it. The
// model's reply before an action is its thought; "Tokens: 1.9k sent, 638
// received" is the usage of the reply before it. Aider declares no
// context: the ContextBench steps are one per action that showed lines.
package aider

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// Name is the format name used by detection and --format.
const Name = "aider"

// suffix is the history file's name.
const suffix = ".aider.chat.history.md"

var (
	startedRe = lazyre.New(`(?m)^# aider chat started at `)
	addAskRe  = lazyre.New(`^Add (?:file|url) to the chat\? .*: *(\S*)\s*$`)
	tokensRe  = lazyre.New(`^Tokens: ([\d.]+)([kM]?) sent(?:, ([\d.]+)([kM]?) cache write)?(?:, ([\d.]+)([kM]?) cache hit)?, ([\d.]+)([kM]?) received\.`)
	costRe    = lazyre.New(`Cost: \$([\d.]+) message`)
	modelRe   = lazyre.New(`^Model: (\S+)`)
	versionRe = lazyre.New(`^Aider (v\S+)`)
)

// Sniff reports an Aider chat history: by its name, or a first line that
// starts a chat.
func Sniff(name string, head []byte) bool {
	if strings.HasSuffix(name, suffix) {
		return true
	}
	t := bytes.TrimLeft(head, " \t\r\n\ufeff")
	return bytes.HasPrefix(t, []byte("# aider chat started at ")) && startedRe().Match(head)
}

// ParseRuns reads one chat history into a single run (its sessions, one
// after another, are one timeline).
func ParseRuns(path string, data []byte) ([]model.Run, error) {
	if !startedRe().Match(data) {
		return nil, fmt.Errorf("%s: not an Aider chat history (expected \"# aider chat started at …\")", path)
	}
	b := &builder{}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		i = b.line(lines, i)
	}
	run := b.finish()
	run.Path = path
	if trial := toolcall.TrialName(path, inputfile.ReadRegular); trial != "" {
		run.InstanceID = trial
	}
	if run.InstanceID == "" {
		base := filepath.Base(path)
		run.InstanceID = strings.TrimSuffix(base, suffix)
		if run.InstanceID == "" || run.InstanceID == base {
			run.InstanceID = strings.TrimSuffix(base, filepath.Ext(base))
		}
		if run.InstanceID == "" { // the file is .aider.chat.history.md itself
			run.InstanceID = filepath.Base(filepath.Dir(path))
		}
	}
	run.Prediction.InstanceID = run.InstanceID
	return []model.Run{run}, nil
}

type builder struct {
	run      model.Run
	actions  []model.Action
	obs      model.TextList
	thoughts model.TextList
	reply    []string // the model's text since the last action
	carry    model.Usage
	cost     float64
}

// tool strips Aider's "> " (its output lines end in two spaces, a
// Markdown line break).
func tool(l string) (string, bool) {
	rest, ok := strings.CutPrefix(l, "> ")
	if !ok && l == ">" {
		return "", true
	}
	return strings.TrimSuffix(rest, "  "), ok
}

// line reads the line at i (and, for a command run, its output lines) and
// returns the index of the last line it consumed.
func (b *builder) line(lines []string, i int) int {
	l := lines[i]
	if user, ok := strings.CutPrefix(l, "#### "); ok {
		b.user(strings.TrimSpace(strings.TrimSuffix(user, "  ")))
		return i
	}
	out, ok := tool(l)
	if !ok {
		if !strings.HasPrefix(l, "# aider chat started at ") {
			b.reply = append(b.reply, l)
		}
		return i
	}
	switch {
	case modelRe().MatchString(out) && b.run.Model == "":
		b.run.Model = modelRe().FindStringSubmatch(out)[1]
	case versionRe().MatchString(out) && b.run.Agent == "":
		b.run.Agent = "aider " + versionRe().FindStringSubmatch(out)[1]
	case addAskRe().MatchString(out):
		// The file asked about is on the "> " line before (the user's
		// typed answer, "#### all", may come between).
		ans := strings.ToLower(addAskRe().FindStringSubmatch(out)[1])
		k := i - 1
		for k >= 0 && (strings.TrimSpace(lines[k]) == "" || strings.HasPrefix(lines[k], "#### ")) {
			k--
		}
		if prev, ok := "", false; k >= 0 {
			if prev, ok = tool(lines[k]); ok && !addAskRe().MatchString(prev) && (strings.HasPrefix(ans, "y") || strings.HasPrefix(ans, "a")) {
				b.read(prev, "add "+prev)
			}
		}
	case strings.HasPrefix(out, "Applied edit to "):
		f := strings.TrimPrefix(out, "Applied edit to ")
		b.add(model.Action{Tool: "edit", Command: "edit " + f, Category: model.CategoryEdit, Edits: []string{f}}, "")
	case strings.HasPrefix(out, "Running "):
		var output []string
		j := i + 1
		for ; j < len(lines); j++ {
			o, ok := tool(lines[j])
			if !ok || strings.HasPrefix(o, "Add command output to the chat?") {
				break
			}
			output = append(output, o)
		}
		b.shell(strings.TrimPrefix(out, "Running "), strings.Join(output, "\n"))
		return j - 1
	case tokensRe().MatchString(out):
		m := tokensRe().FindStringSubmatch(out)
		sent, write, hit, recv := count(m[1], m[2]), count(m[3], m[4]), count(m[5], m[6]), count(m[7], m[8])
		b.carry = b.carry.Plus(model.NewUsage(max(sent-write-hit, 0), recv, hit, write))
		if c := costRe().FindStringSubmatch(out); c != nil {
			if v, err := strconv.ParseFloat(c[1], 64); err == nil {
				b.cost += v
			}
		}
	}
	return i
}

// user reads a line the user typed: /add and /read-only bring files into
// the chat; anything else is the conversation (commands the user runs,
// /run and "!", are echoed as "Running …").
func (b *builder) user(s string) {
	cmd, args, _ := strings.Cut(s, " ")
	if cmd == "/add" || cmd == "/read-only" || cmd == "/read" {
		for _, f := range strings.Fields(args) {
			b.read(f, cmd+" "+f)
		}
		return
	}
	if b.run.Task == "" && !strings.HasPrefix(s, "/") && len(strings.Fields(s)) > 2 {
		b.run.Task = s // the first request (not a command or a one-word answer)
	}
}

// read adds a whole-file read of f.
func (b *builder) read(f, command string) {
	f = strings.TrimSpace(f)
	if f == "" || strings.Contains(f, "://") || strings.ContainsAny(f, " \t") {
		return // a URL or not a path
	}
	b.add(model.Action{Tool: "add", Command: command, Category: model.CategoryRead,
		Reads: []model.ObservedRead{{File: f, Kind: model.ReadWhole}}}, "")
}

// shell adds a command Aider ran, read as a shell command is.
func (b *builder) shell(cmd, output string) {
	a := model.Action{}
	toolcall.Apply(&a, toolcall.Call{Name: "bash", Input: jsontree.Wrap("command", jsontree.NewString(cmd)),
		Output: output, HasOutput: true})
	b.add(a, output)
}

func (b *builder) add(a model.Action, out string) {
	a.Usage, b.carry = b.carry, model.Usage{}
	b.actions = append(b.actions, a)
	b.obs = append(b.obs, out)
	b.thoughts = append(b.thoughts, strings.TrimSpace(strings.Join(b.reply, "\n")))
	b.reply = nil
}

func (b *builder) finish() model.Run {
	run := b.run
	if len(b.actions) > 0 && !toolcall.UsageZero(b.carry) {
		toolcall.AddUsage(&b.actions[len(b.actions)-1], b.carry)
	}
	for i := range b.actions {
		b.actions[i].Index = int32(i)
	}
	run.Actions, run.Observations, run.Thoughts = b.actions, b.obs, b.thoughts
	run.Prediction.Steps, run.Prediction.Final = observed.Declare(run.Actions)
	run.Format = Name
	if run.Agent == "" {
		run.Agent = "aider"
	}
	run.CostUSD = b.cost
	return run
}

// count reads Aider's rounded token counts ("1.9k", "638", "1.2M").
func count(n, unit string) int {
	v, err := strconv.ParseFloat(n, 64)
	if err != nil || v < 0 || v > 1e12 {
		return 0
	}
	switch unit {
	case "k":
		v *= 1e3
	case "M":
		v *= 1e6
	}
	return int(v + 0.5)
}
