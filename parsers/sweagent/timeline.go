package sweagent

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/parsers/internal/cmdfail"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/shell"
)

// This file builds the observed lens: for one SWE-agent action string and its
// observation, what the agent did and which file regions it really saw. The
// observation wins over the command whenever it shows line numbers, because
// it is what was displayed (a view past the end of a file, an abbreviated
// file map or a usage error all differ from what the command asked for).

// editorTools are the SWE-agent commands that are not shell commands.
var editorTools = map[string]bool{
	"str_replace_editor": true, "open": true, "goto": true, "scroll_up": true,
	"scroll_down": true, "create": true, "edit": true, "insert": true,
	"find_file": true, "search_dir": true, "search_file": true, "submit": true,
}

var (
	catNHeaderRe = lazyre.New("Here's the result of running `cat -n` on ")
	windowHdrRe  = lazyre.New(`(?m)^\[File: (.+?) \((\d+) lines total(?: after edit)?\)\]`)
	// toolSearch is how SWE-agent's search tools print results.
	toolSearch = shell.SearchOutput{
		Header:   regexp.MustCompile(`(?m)^Found \d+ matches for "(.*)" in (.+?):[ \t]*$`),
		End:      "End of matches",
		DirMatch: regexp.MustCompile(`(?m)^(.+?) \(\d+ matches\)[ \t]*$`),
	}
	// editorFailRe is the first line of a SWE-agent tool that refused its
	// command.
	editorFailRe = lazyre.New(`(?i)^(?:usage: |error\b|invalid |the path .* does not exist|no replacement was performed|file .* not found)`)
	errorObsRe   = lazyre.New(`(?i)(^usage: |error:|does not exist|invalid .*view_range|not found|no such file|is a directory)`)

	rangeFlagRe  = lazyre.New(`--view_range[ \t]+\[?[ \t]*(-?\d+)[ \t]*,?[ \t]*(-?\d+)[ \t]*\]?`)
	rangeArrayRe = lazyre.New(`\[[ \t]*(-?\d+)[ \t]*,[ \t]*(-?\d+)[ \t]*\]`)
)

const (
	listingPrefix = "Here's the files and directories up to 2 levels deep in"
	abbrevMarker  = "This file is too large to display entirely"
)

// analyzeAction fills the timeline fields of a for one SWE-agent action.
// tool is the recorded tool name when the format has one; openFile is the
// file SWE-agent had open (0.x state), used when neither the command nor the
// observation names it; v is the run's 0.x file viewer, which open, goto,
// scroll_*, create and edit move.
func analyzeAction(a *model.Action, tool, action, obs, openFile string, v *viewer) {
	defer markFailure(a, obs)
	cmd := strings.TrimSpace(action)
	a.Command = cmd
	if cmd == "" {
		a.Command = "(no command)" // a reply SWE-agent could not parse
	}
	args := tokens(firstLine(cmd))
	name := ""
	if len(args) > 0 {
		name = args[0]
	}
	if !editorTools[name] && editorTools[tool] && tool != name {
		// A recorded editor tool whose action lacks the tool word.
		args = append([]string{tool}, args...)
		name = tool
	}
	if name == "bash" && tool != "bash" && len(args) > 1 && !strings.HasPrefix(args[1], "-") {
		// A model typing "bash CMD" as its action (the real flask sample)
		// meant CMD: analyse CMD. "bash -c ..." is left to parsers/internal/shell.
		cmd = strings.TrimSpace(strings.TrimPrefix(cmd, "bash"))
	}
	switch name {
	case "str_replace_editor":
		a.Tool = name
		editorAction(a, cmd, args, obs)
	case "open", "goto", "scroll_up", "scroll_down":
		a.Tool = name
		a.Category = model.CategoryRead
		a.Reads = v.view(name, args, obs, openFile)
	case "search_file", "search_dir", "find_file":
		a.Tool = name
		a.Category = model.CategorySearch
		a.Searches = toolSearch.Hits(name, obs)
		// search_file prints each matching line ("Line 12:text").
		a.Reads = shell.LineReads(a.Searches)
	case "create":
		a.Tool = name
		a.Category = model.CategoryEdit
		if len(args) > 1 {
			a.Edits = []string{args[1]}
		}
		// create opens the new file: later scrolls move over it.
		if m := windowHdrRe().FindStringSubmatch(obs); m != nil {
			v.sync(m[1], obs)
		}
	case "edit", "insert":
		a.Tool = name
		a.Category = model.CategoryEdit
		if m := windowHdrRe().FindStringSubmatch(obs); m != nil {
			a.Edits = []string{m[1]}
			if !strings.Contains(obs, "NOT been applied") {
				// The edited file's window around the edit: the viewer is
				// there now. A rejected edit prints windows too, then puts
				// the viewer back where it was.
				v.sync(m[1], obs)
			}
		} else if openFile != "" {
			a.Edits = []string{openFile}
		}
	case "submit":
		a.Tool = name
		a.Category = model.CategorySubmit
	case "":
		a.Tool = tool
		a.Category = model.CategoryOther
	default:
		a.Tool = "bash"
		r := shell.ConfirmFromObservation(shell.Analyze(cmd), obs)
		a.Category = r.Category
		if a.Category == 0 {
			a.Category = model.CategoryRun
		}
		a.Reads, a.Searches, a.Edits = r.Reads, r.Searches, r.Edits
	}
}

// editorAction handles `str_replace_editor SUBCOMMAND PATH ...`.
func editorAction(a *model.Action, cmd string, args []string, obs string) {
	if len(args) < 3 {
		a.Category = model.CategoryOther
		return
	}
	sub, path := args[1], args[2]
	switch sub {
	case "view":
		a.Category = model.CategoryRead
		if strings.HasPrefix(strings.TrimSpace(obs), listingPrefix) {
			// A directory listing shows names, not file contents.
			a.Category = model.CategorySearch
			return
		}
		a.Reads = viewReads(path, firstLine(cmd), obs)
	case "create", "str_replace", "insert", "undo_edit":
		a.Category = model.CategoryEdit
		a.Edits = []string{path}
		a.Changes = editorChanges(sub, path, tokens(cmd))
	default:
		a.Category = model.CategoryOther
	}
}

// viewReads is what a `str_replace_editor view` displayed: the numbered
// lines of its observation when there are any, nothing when the observation
// is an error, else what the command asked for.
func viewReads(path, cmd, obs string) []model.ObservedRead {
	switch {
	case catNHeaderRe().MatchString(obs):
		return shell.NumberedReads(path, obs, observed.Listing)
	case strings.Contains(obs, abbrevMarker):
		// "   579 ... eliding lines 579-585 ..." marks lines not shown.
		var shown []string
		for _, l := range strings.Split(obs, "\n") {
			if !strings.Contains(l, "... eliding lines ") {
				shown = append(shown, l)
			}
		}
		return shell.NumberedReads(path, strings.Join(shown, "\n"), observed.Abbreviated)
	case errorObsRe().MatchString(obs):
		return nil
	}
	rest := cmd
	if i := strings.Index(rest, path); i >= 0 {
		rest = rest[i+len(path):]
	}
	m := rangeFlagRe().FindStringSubmatch(rest)
	if m == nil {
		m = rangeArrayRe().FindStringSubmatch(rest)
	}
	if m == nil {
		return []model.ObservedRead{{File: path, Kind: model.ReadWhole}}
	}
	a, _ := strconv.Atoi(m[1])
	b, _ := strconv.Atoi(m[2])
	switch {
	case a > 0 && b == -1:
		return []model.ObservedRead{{File: path, Kind: model.ReadFrom, Start: a}}
	case a > 0 && b > 0:
		return []model.ObservedRead{{File: path, Kind: model.ReadRange, Start: a, End: b}}
	}
	return nil
}

// windowReads parses a SWE-agent 0.x window ("[File: PATH (N lines total)]"
// then "123:text" lines).
func windowReads(obs string) (string, []model.ObservedRead) {
	file := ""
	if m := windowHdrRe().FindStringSubmatch(obs); m != nil {
		file = m[1]
	}
	return file, shell.NumberedReads("", obs, observed.Window)
}

// tokens splits a command line on blanks, honouring single and double
// quotes (enough to read SWE-agent's own command arguments).
func tokens(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// stateOpenFile reads open_file from a SWE-agent state, which 0.x writes as
// a JSON string and the checkpoints writer as an object.
func stateOpenFile(state *jsontree.Value) string {
	if s, ok := state.AsString(); ok {
		v, err := jsontree.Parse([]byte(s))
		if err != nil {
			return ""
		}
		state = v
	}
	f := state.Get("open_file").Text()
	if f == "n/a" {
		return ""
	}
	return f
}

// markFailure records a failed command: SWE-agent keeps no exit status, so
// a shell command failed when its output says it could not run, and an
// editor tool when its output opens with the tool's refusal.
func markFailure(a *model.Action, obs string) {
	if r := cmdfail.Refusal(obs); r != "" {
		cmdfail.MarkNotRun(a, r)
		return
	}
	if editorTools[a.Tool] {
		if first := firstLine(strings.TrimSpace(obs)); editorFailRe().MatchString(first) {
			a.Failure = cmdfail.Clip(strings.TrimSpace(first))
		}
		return
	}
	if a.Tool == "bash" {
		cmdfail.Mark(a, 0, false, false, obs)
	}
}

// editorChanges reads the edit a `str_replace_editor` command spells in its
// flags (--old_str, --new_str, --file_text, --insert_line), quoted as
// SWE-agent quotes them; nil when it spells none.
func editorChanges(sub, path string, args []string) []model.Change {
	flag := func(name string) (string, bool) {
		for i := 0; i+1 < len(args); i++ {
			if args[i] == name {
				return args[i+1], true
			}
		}
		return "", false
	}
	switch sub {
	case "str_replace":
		if old, ok := flag("--old_str"); ok {
			nw, _ := flag("--new_str")
			return []model.Change{{File: path, Kind: model.ChangeReplace, Old: shell.Clip(old), New: shell.Clip(nw)}}
		}
	case "create":
		if text, ok := flag("--file_text"); ok {
			return []model.Change{{File: path, Kind: model.ChangeWhole, New: shell.Clip(text)}}
		}
	case "insert":
		l, okL := flag("--insert_line")
		nw, okN := flag("--new_str")
		if n, err := strconv.Atoi(l); okL && okN && err == nil && n >= 0 {
			return []model.Change{{File: path, Kind: model.ChangeInsert, Line: n, New: shell.Clip(nw)}}
		}
	}
	return nil
}
