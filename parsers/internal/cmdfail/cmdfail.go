// Package cmdfail decides whether an agent's command failed, from what the
// format records (an exit status, an error flag) and from the error lines a
// shell or a file tool prints when a command could not run. Every format
// fills model.Action's failure fields through it, so the explorer marks
// failed commands the same way whatever wrote the run.
package cmdfail

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
)

var (
	// returnCodeRe is mini-swe-agent's exit status line.
	returnCodeRe = lazyre.New(`<returncode>\s*(-?\d{1,9})\s*</returncode>`)
	// shellErrRe: the shell itself refused the command ("/bin/sh: 2: Syntax
	// error: ...", "bash: line 1: foo: command not found").
	shellErrRe = lazyre.New(`^(?:/usr)?(?:/bin/)?(?:ba|da|z)?sh: (?:line )?\d+: \S.*$|^(?:/usr)?(?:/bin/)?(?:ba|da|z)?sh: .*(?:command not found|No such file or directory|Permission denied|syntax error.*)$`)
	// notFoundRe: a command name the shell did not find.
	notFoundRe = lazyre.New(`^\S+: command not found$`)
	// toolErrRe: a file tool that could not open what it was asked to show.
	// Only tools that read files are listed: a program's own output (a
	// test's traceback naming a missing file) is not the command failing.
	toolErrRe = lazyre.New(`^(?:cat|nl|head|tail|sed|grep|egrep|rg|ls|wc|awk|cd|less|more|find|sort|diff): .*(?:No such file or directory|Is a directory|cannot open|can't read|cannot access|can't cd)`)
)

// scanLines bounds how far into the output error lines are looked for: the
// shell reports a command it could not run before anything else.
const scanLines = 40

// ReturnCode reads mini-swe-agent's "<returncode>N</returncode>" from an
// observation; ok is false when there is none.
func ReturnCode(obs string) (code int, ok bool) {
	head := obs
	if len(head) > 256 {
		head = head[:256] // the status opens the observation
	}
	m := returnCodeRe().FindStringSubmatch(head)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// ErrorLine returns the first line of output that says the command could not
// run (a shell error, a command not found, a file tool that could not open
// its file), trimmed; "" when there is none.
func ErrorLine(output string) string {
	for i := 0; i < scanLines && output != ""; i++ {
		line, rest, _ := strings.Cut(output, "\n")
		output = rest
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if len(line) > 400 {
			continue // a long line is output, not an error message
		}
		if isErrorLine(line) {
			return line
		}
	}
	return ""
}

// isErrorLine matches a line against the three patterns, each only when the
// line has what its pattern requires: every error line has ": ", a shell's
// starts with the shell's name, a tool's with the tool's. Without the
// checks the backtracking patterns cost almost half of loading a long run.
func isErrorLine(line string) bool {
	name, _, ok := strings.Cut(line, ": ")
	switch {
	case !ok:
		return false
	case strings.HasSuffix(name, "sh") && shellErrRe().MatchString(line):
		return true
	case strings.HasSuffix(line, ": command not found") && notFoundRe().MatchString(line):
		return true
	}
	return fileTools[name] && toolErrRe().MatchString(line)
}

// fileTools are the tools toolErrRe names.
var fileTools = map[string]bool{}

func init() {
	for _, t := range strings.Fields("cat nl head tail sed grep egrep rg ls wc awk cd less more find sort diff") {
		fileTools[t] = true
	}
}

// Reason says why a command failed, "" when nothing says it did: a non-zero
// exit status the format recorded (known), an error flag it set (isError),
// or an error line in the output. The error line, when there is one, follows
// the status ("exit 2: /bin/sh: 2: Syntax error: ...").
func Reason(code int, known, isError bool, output string) string {
	line := ErrorLine(output)
	var r string
	switch {
	case known && code != 0:
		r = fmt.Sprintf("exit %d", code)
	case isError:
		r = "the tool reported an error"
	case line != "":
		return Clip(line)
	default:
		return ""
	}
	if line != "" {
		r += ": " + line
	}
	return Clip(r)
}

// Mark fills an action's exit status and failure from what the format
// recorded and the output the command printed.
func Mark(a *model.Action, code int, known, isError bool, output string) {
	// An exit status is a byte on every system.
	a.ExitCode, a.ExitKnown = model.Clamp32(code), known
	a.Failure = Reason(code, known, isError, output)
}

// refusals are the answers agents' harnesses give a command they refused to
// run, each from the agent's own source: Claude Code's rejection and
// permission messages (with is_error set), Codex's normalised denials and its
// approval guard, SWE-agent's default blocklist_error_template and its format
// errors. Each is
// matched at the start of the output only: a command's own output never
// opens with them.
var refusals = sync.OnceValue(func() []refusal {
	return []refusal{
		{regexp.MustCompile(`^The user doesn't want to (?:proceed with this tool use|take this action right now)`), "rejected by the user"},
		{regexp.MustCompile(`^Permission to use \S+.{0,400}? has been denied`), "permission denied"},
		{regexp.MustCompile(`^Claude requested permissions to use \S+`), "permission not granted"},
		{regexp.MustCompile(`^<tool_use_error>InputValidationError`), "invalid tool input"},
		{regexp.MustCompile(`^(?:exec command|patch) rejected by user`), "rejected by the user"},
		{regexp.MustCompile(`^This action was rejected due to unacceptable risk`), "rejected by the approval guard"},
		{regexp.MustCompile(`^Operation '.+' is not supported by this environment\.`), "blocked by the environment's blocklist"},
		// SWE-agent's parsers answer a reply that held no command they could
		// run (format_error_template and the function-calling parser's errors).
		{regexp.MustCompile(`^(?:Your output was not formatted correctly|Your last output (?:did not use any tool calls|included multiple tool calls)|Your action could not be parsed properly)`), "format error: the reply held no command to run"},
	}
})

// refusal is one harness's refusal wording and what it means.
type refusal struct {
	re     *regexp.Regexp
	reason string
}

// Refusal says why output is a harness's refusal of the command, "" when it
// is not one.
func Refusal(output string) string {
	head := strings.TrimSpace(output)
	if len(head) > 2200 {
		head = head[:2200]
	}
	for _, r := range refusals() {
		if r.re.MatchString(head) {
			return r.reason
		}
	}
	return ""
}

// MarkNotRun records that an action was refused before it ran: it failed,
// and it read, found and changed nothing.
func MarkNotRun(a *model.Action, reason string) {
	a.NotRun = true
	a.Failure = Clip("not run: " + reason)
	a.Reads, a.Searches, a.Edits, a.Changes = nil, nil, nil, nil
}

// Clip keeps a reason to one short line.
func Clip(s string) string { return termsafe.Cut(s, 160) }
