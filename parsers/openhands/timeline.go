package openhands

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
	"github.com/trajscope/trajscope/parsers/internal/toolcall"
)

// The observed lens for OpenHands actions: what each one displayed, taken
// from its observation when that shows line numbers.

var (
	catNHeaderRe = lazyre.New("Here's the result of running `cat -n` on ")
	windowHdrRe  = lazyre.New(`(?m)^\[File: (.+?) \((\d+) lines total(?: after edit)?\)\]`)
	skillRe      = lazyre.New(`\b(open_file|goto_line|scroll_down|scroll_up|search_file|search_dir|find_file|edit_file_by_replace|insert_content_at_line|append_file|create_file|edit_file)\s*\(`)
	firstArgRe   = lazyre.New(`^\s*\(\s*(?:[a-z_]+\s*=\s*)?(?:'([^']*)'|"([^"]*)")`)
	// skillSearch is how the agentskills search tools print results.
	skillSearch = shell.SearchOutput{
		Header:   regexp.MustCompile(`(?m)^\[Found \d+ matches? for "(.*)" in (.+?)\][ \t]*$`),
		End:      "[End of matches",
		DirMatch: regexp.MustCompile(`(?m)^(\S.*?) \(Line (\d+)\):`),
	}
)

const listingPrefix = "Here's the files and directories up to 2 levels deep in"

// shellAction analyses a shell command with parsers/internal/shell.
func shellAction(a *model.Action, cmd, obs string) {
	r := shell.ConfirmFromObservation(shell.Analyze(cmd), obs)
	a.Category = r.Category
	if a.Category == 0 {
		a.Category = model.CategoryRun
	}
	a.Reads, a.Searches, a.Edits = r.Reads, r.Searches, r.Edits
	if a.Changes == nil && !a.Failed() { // a failed sed changed nothing
		a.Changes = r.Changes
	}
}

// readAction: a file view (FileReadAction / str_replace_editor view).
func readAction(a *model.Action, f *jsontree.Value, obs string) {
	a.Category = model.CategoryRead
	path := f.Get("path").Text()
	if path == "" {
		return
	}
	if strings.HasPrefix(strings.TrimSpace(obs), listingPrefix) {
		a.Category = model.CategorySearch // a directory listing
		return
	}
	if catNHeaderRe().MatchString(obs) || (f.Get("impl_source").Text() == "oh_aci" && hasListing(obs)) {
		a.Reads = shell.NumberedReads(path, obs, observed.Listing)
		return
	}
	if vr := f.Get("view_range").Items(); f.Get("view_range").Is(jsontree.Array) && len(vr) >= 2 {
		x, okA := vr[0].Int()
		y, okB := vr[1].Int()
		switch {
		case okA && okB && x > 0 && y == -1:
			a.Reads = []model.ObservedRead{{File: path, Kind: model.ReadFrom, Start: x}}
			return
		case okA && okB && x > 0 && y > 0:
			a.Reads = []model.ObservedRead{{File: path, Kind: model.ReadRange, Start: x, End: y}}
			return
		}
	}
	// FileReadAction's start/end are 0-based with an exclusive end (the
	// runtime slices lines[start:end]); end -1 means to the end of file.
	s, okS := f.Get("start").Int()
	e, okE := f.Get("end").Int()
	switch {
	case okS && okE && e == -1 && s > 0:
		a.Reads = []model.ObservedRead{{File: path, Kind: model.ReadFrom, Start: s + 1}}
	case okS && okE && e > 0:
		a.Reads = []model.ObservedRead{{File: path, Kind: model.ReadRange, Start: max(s, 0) + 1, End: e}}
	default:
		a.Reads = []model.ObservedRead{{File: path, Kind: model.ReadWhole}}
	}
}

// editAction: FileEditAction (str_replace_editor commands or the older
// LLM-based edit).
func editAction(a *model.Action, f *jsontree.Value, obs string, failed bool) {
	if f.Get("command").Text() == "view" {
		readAction(a, f, obs)
		return
	}
	a.Category = model.CategoryEdit
	if p := f.Get("path").Text(); p != "" && !failed {
		a.Edits = []string{p}
		a.Changes = toolcall.EditorChanges(p, f)
	}
}

// replaceArgsRe reads agentskills' edit_file_by_replace(file,
// to_replace="""…""", new_content="""…""") (triple-quoted either way).
var replaceArgsRe = lazyre.New(`(?s)to_replace=(?:"""(.*?)"""|'''(.*?)''')\s*,\s*new_content=(?:"""(.*?)"""|'''(.*?)''')`)

// ipythonAction: IPython code, usually an agentskills call whose output is a
// numbered window ("[File: PATH (N lines total)]" then "12|text").
func ipythonAction(a *model.Action, code, obs string) {
	loc := skillRe().FindStringSubmatchIndex(code)
	if loc == nil {
		a.Category = model.CategoryRun
		return
	}
	name := code[loc[2]:loc[3]]
	arg := ""
	if m := firstArgRe().FindStringSubmatch(code[loc[1]-1:]); m != nil {
		arg = m[1] + m[2]
	}
	hdr := windowHdrRe().FindStringSubmatch(obs)
	switch name {
	case "open_file", "goto_line", "scroll_down", "scroll_up":
		a.Category = model.CategoryRead
		file := arg
		if name != "open_file" {
			file = ""
		}
		if hdr != nil {
			file = hdr[1]
		}
		if file != "" {
			a.Reads = shell.NumberedReads(file, obs, observed.Window)
		}
	case "search_file", "search_dir", "find_file":
		a.Category = model.CategorySearch
		a.Searches = skillSearch.Hits(name, obs)
		// search_file and search_dir print each matching line.
		a.Reads = shell.LineReads(a.Searches)
	default:
		a.Category = model.CategoryEdit
		file := arg
		if name == "edit_file" || file == "" {
			if hdr != nil {
				file = hdr[1]
			}
		}
		if file != "" && !strings.Contains(obs, "[Your proposed edit has introduced new syntax error") &&
			!strings.HasPrefix(strings.TrimSpace(obs), "[No exact match found") {
			a.Edits = []string{file}
			if name == "edit_file_by_replace" {
				if m := replaceArgsRe().FindStringSubmatch(code); m != nil {
					a.Changes = []model.Change{{File: file, Kind: model.ChangeReplace, Old: shell.Clip(m[1] + m[2]), New: shell.Clip(m[3] + m[4])}}
				}
			}
		}
	}
}

// commandExitRe is how OpenHands ends a shell command's output.
var commandExitRe = lazyre.New(`\[Command finished with exit code (-?\d{1,9})\]`)

// exitCode reads a command's exit status from its observation event
// (extras.exit_code, extras.metadata.exit_code, or the flat older field),
// else from the output's closing "[Command finished with exit code N]".
func exitCode(obs *jsontree.Value, text string) (int, bool) {
	extras := obs.Get("extras").Object()
	for _, v := range []*jsontree.Value{extras.Path("metadata", "exit_code"), extras.Get("exit_code"), obs.Get("exit_code")} {
		if n, ok := v.AnyInt(); ok {
			return n, true
		}
	}
	if m := commandExitRe().FindAllStringSubmatch(text, -1); m != nil {
		n, err := strconv.Atoi(m[len(m)-1][1])
		return n, err == nil
	}
	return 0, false
}

// markFailure records whether an answered action failed: an error
// observation, a non-zero exit status, or output saying the command could
// not run.
func markFailure(a *model.Action, obs event, isError bool, text string) {
	if obs.m == nil {
		return // never answered: nothing says how it went
	}
	code, known := exitCode(obs.m, text)
	out := ""
	switch a.Tool {
	case "run", "execute_bash", "bash", "terminal":
		out = text // a shell's output: its error lines say what could not run
	}
	cmdfail.Mark(a, code, known, isError, out)
	if obs.m.Get("observation").Text() == "user_rejected" {
		cmdfail.MarkNotRun(a, "rejected by the user") // UserRejectObservation
	}
}

// hasListing reports output with a numbered line (cat -n, nl -ba).
func hasListing(obs string) bool {
	_, ok := observed.Listing.First(obs)
	return ok
}
