// Package toolcall turns the tool calls of coding-agent transcripts (Claude
// Code, Harbor ATIF, mini-swe-agent v2, …) into timeline actions: category,
// observed reads, search hits and edits. It also builds the ContextBench
// prediction those formats have no upstream extractor for: one step per
// action that displayed file lines, and the union as the final.
//
// Nothing here runs anything a trajectory contains: commands are only read.
package toolcall

import (
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/cmdfail"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
	"github.com/trajscope/trajscope/parsers/internal/shell"
)

// Call is one tool invocation as a transcript recorded it.
type Call struct {
	// Name is the tool name as recorded ("Read", "Bash", "read_file", …).
	Name string
	// Input is the decoded arguments object (nil when there were none).
	Input *jsontree.Value
	// Output is the result text the model was shown.
	Output string
	// HasOutput is true when the transcript recorded a result at all; an
	// action without one is judged from its arguments alone.
	HasOutput bool
	// Meta is the structured result when the format keeps one (Claude
	// Code's toolUseResult); nil otherwise.
	Meta *jsontree.Value
	// IsError marks a result the tool reported as an error.
	IsError bool
	// Exit is the command's exit status when the transcript recorded one
	// (HasExit).
	Exit    int
	HasExit bool
	// NotRun says why the call was refused before it ran, when the format
	// records that in its structure (a declined status); refusals the
	// output words are recognised by Apply.
	NotRun string
}

// kind is a tool's role, whatever the agent calls it.
type kind int

const (
	kOther kind = iota
	kRead
	kGrep
	kGlob
	kList
	kBash
	kEdit
	kEditor // str_replace_editor-style: view or edit by sub-command
	kPatch  // apply_patch
	kAgent  // sub-agent launch
	kSGRead
	kSGSearch
	kReadMany // Gemini CLI's read_many_files: whole files, named or matched
	kMCP      // another MCP server's tool: retrieval when its result shows it
)

// toolKinds maps recorded tool names to roles. Claude Code's names come
// first; the others are the same tools under the names
// other agents export to ATIF (Gemini CLI, OpenCode, Codex, OpenHands).
var toolKinds = map[string]kind{
	"Read": kRead, "read": kRead, "read_file": kRead, "ReadFile": kRead, "NotebookRead": kRead,
	"Grep": kGrep, "grep": kGrep, "search_file_content": kGrep, "grep_search": kGrep, "rg": kGrep, "ripgrep": kGrep,
	"Glob": kGlob, "glob": kGlob, "find_files": kGlob,
	"LS": kList, "ls": kList, "list_directory": kList, "list": kList,
	"Bash": kBash, "bash": kBash, "shell": kBash, "execute_bash": kBash, "run_shell_command": kBash,
	"exec_command": kBash, "shell_command": kBash, "local_shell": kBash, "terminal": kBash, "run_command": kBash, "execute_command": kBash,
	"Edit": kEdit, "MultiEdit": kEdit, "Write": kEdit, "NotebookEdit": kEdit, "edit": kEdit, "multiedit": kEdit,
	"write": kEdit, "write_file": kEdit, "replace": kEdit, "edit_file": kEdit, "create_file": kEdit,
	"str_replace_editor": kEditor, "str_replace_based_edit_tool": kEditor, "text_editor": kEditor, "file_editor": kEditor,
	"apply_patch": kPatch, "Task": kAgent, "Agent": kAgent, "invoke_agent": kAgent, "create_sub_session": kAgent, "task": kAgent,
	"read_many_files": kReadMany, "patch": kPatch,
}

// otherTools are tools that neither read, search nor edit the repository,
// which a reader understands as such: planning, the web, asking the user,
// task lists, sub-agent bookkeeping. A tool in neither table is counted as
// not understood (model.Run.Unread), so a new tool is seen, not guessed.
var otherTools = map[string]bool{
	// Claude Code
	"TodoWrite": true, "TodoRead": true, "WebSearch": true, "WebFetch": true, "ExitPlanMode": true, "EnterPlanMode": true,
	"AskUserQuestion": true, "KillShell": true, "KillBash": true, "BashOutput": true, "SlashCommand": true, "Skill": true,
	"TaskCreate": true, "TaskUpdate": true, "TaskList": true, "TaskGet": true, "TaskOutput": true, "TaskStop": true,
	"ListMcpResourcesTool": true, "ReadMcpResourceTool": true, "ToolSearch": true, "SendMessage": true,
	"TeamCreate": true, "TeamDelete": true, "EnterWorktree": true, "ExitWorktree": true, "LSP": true, "Monitor": true,
	"Workflow": true, "ListAgents": true, "ScheduleWakeup": true, "StructuredOutput": true,
	// Gemini CLI, Qwen Code
	"google_web_search": true, "web_fetch": true, "save_memory": true, "write_todos": true, "todo_write": true,
	"activate_skill": true, "exit_plan_mode": true, "enter_plan_mode": true, "ask_user": true, "complete_task": true,
	"get_internal_docs": true, "update_topic": true, "read_mcp_resource": true, "list_mcp_resources": true,
	"tracker_create_task": true, "tracker_update_task": true, "tracker_get_task": true, "tracker_list_tasks": true,
	"tracker_add_dependency": true, "tracker_visualize": true, "skill": true,
	// Codex
	"update_plan": true, "web_search": true, "view_image": true, "spawn_agent": true, "wait": true, "send_input": true,
	"close_agent": true, "request_user_input": true, "write_stdin": true,
	// Goose
	"todo__todo_write": true, "todo__todo_read": true, "dynamic_task__create_task": true, "subagent__execute_task": true,
	// OpenCode
	"todowrite": true, "todoread": true, "webfetch": true, "websearch": true, "question": true,
	// OpenHands
	"think": true, "finish": true, "task_tracker": true, "browser": true, "fetch": true,
}

// Known reports whether a tool name is one the readers understand: a tool
// they read reads, searches or edits from, or one of the otherTools. MCP
// tools (mcp__server__tool) are understood as other tools.
func Known(name string) bool {
	return kindOf(name) != kOther || otherTools[name]
}

// numberedTools are read tools whose output always numbers the lines shown
// (Claude Code's Read); other read tools print bare content.
var numberedTools = map[string]bool{"Read": true}

// zeroBasedOffset lists read tools whose offset counts from 0 (Gemini CLI
// read_file, OpenCode read). Claude Code's Read counts from 1: taking one
// for the other would shift every range by a line.
var zeroBasedOffset = map[string]bool{"read": true, "read_file": true, "ReadFile": true}

const sgPrefix = "mcp__sourcegraph__"

func kindOf(name string) kind {
	if k, ok := toolKinds[name]; ok {
		return k
	}
	if rest, ok := strings.CutPrefix(name, sgPrefix); ok {
		switch strings.TrimPrefix(rest, "sg_") {
		case "read_file":
			return kSGRead
		case "list_files", "list_repos", "keyword_search", "nls_search", "find_references",
			"go_to_definition", "deepsearch", "deepsearch_read":
			return kSGSearch
		}
	}
	if IsMCP(name) {
		return kMCP
	}
	return kOther
}

// IsMCP is model.MCPTool.
func IsMCP(name string) bool { return model.MCPTool(name) }

// Apply fills a's Tool, Command, Category, Reads, Searches, Edits and
// failure from c (its output, c.Output, is the run's to keep). It leaves the other fields (index, time, usage,
// …) alone. A call refused before it ran reads nothing.
func Apply(a *model.Action, c Call) {
	apply(a, c)
	reason := c.NotRun
	if reason == "" && c.HasOutput {
		reason = cmdfail.Refusal(c.Output)
	}
	if reason != "" {
		cmdfail.MarkNotRun(a, reason)
	}
}

func apply(a *model.Action, c Call) {
	if c.HasOutput {
		// Only a shell prints the error lines cmdfail reads; another tool's
		// output is file content or hits, whatever it says.
		out := ""
		if kindOf(c.Name) == kBash {
			out = c.Output
		}
		cmdfail.Mark(a, c.Exit, c.HasExit, c.IsError, out)
	}
	a.Tool = c.Name
	a.Command = Describe(c.Name, c.Input)
	in := c.Input
	switch kindOf(c.Name) {
	case kRead:
		a.Category = model.CategoryRead
		file := in.First("file_path", "path", "filePath", "absolute_path", "notebook_path", "file")
		if file == "" {
			return
		}
		base := 1
		if zeroBasedOffset[c.Name] {
			base = 0
		}
		a.Reads = readRegion(file, in, base, c)
	case kGrep:
		a.Category = model.CategorySearch
		a.Searches = grepHits(c)
		if grepContent(c) {
			// Content mode prints the matching lines, numbered with -n.
			a.Reads = shell.LineReads(a.Searches)
		}
	case kGlob:
		a.Category = model.CategorySearch
		a.Searches = listHits(c)
	case kList:
		a.Category = model.CategorySearch
	case kBash:
		cmd := shellCommand(in)
		a.Command = cmd
		if cmd == "" {
			a.Category = model.CategoryRun
			return
		}
		if strings.HasPrefix(cmd, "apply_patch") {
			// Codex runs `apply_patch <<'EOF' … EOF` itself, as its
			// apply_patch tool: the patch names the files it edits.
			a.Category = model.CategoryEdit
			a.Edits, a.Changes = shell.PatchFiles(cmd), shell.PatchChanges(cmd)
			return
		}
		r := shell.Analyze(cmd)
		if c.HasOutput {
			r = shell.ConfirmRecorded(r, c.Output)
		}
		a.Category = r.Category
		if a.Category == 0 || a.Category == model.CategoryOther {
			a.Category = model.CategoryRun
		}
		a.Reads, a.Searches, a.Edits = r.Reads, r.Searches, r.Edits
		if a.Changes == nil && !c.IsError { // a failed sed changed nothing
			a.Changes = r.Changes
		}
	case kEdit:
		a.Category = model.CategoryEdit
		if c.IsError {
			return // a failed edit changed nothing
		}
		if f := in.First("file_path", "path", "filePath", "notebook_path", "absolute_path", "target_file", "file"); f != "" {
			a.Edits = []string{f}
			a.Changes = editChanges(f, in)
		}
	case kEditor:
		editorCall(a, c)
		if a.Category == model.CategoryEdit && !c.IsError {
			a.Changes = EditorChanges(in.First("path", "file_path"), in)
		}
	case kPatch:
		a.Category = model.CategoryEdit
		p := in.First("input", "patch", "diff", "content")
		a.Edits, a.Changes = shell.PatchFiles(p), shell.PatchChanges(p)
	case kReadMany:
		a.Category = model.CategoryRead
		a.Reads = manyRead(c)
	case kSGRead:
		a.Category = model.CategoryRead
		a.Reads = sgRead(c)
	case kSGSearch:
		a.Category = model.CategorySearch
		a.Searches = jsonPathHits(c.Output)
	case kMCP:
		mcpCall(a, c)
	default:
		a.Category = model.CategoryOther
	}
}

// firstOf is the first of m's members that is set and not null.
func firstOf(m *jsontree.Value, keys ...string) *jsontree.Value {
	for _, k := range keys {
		if v := m.Get(k); !v.IsNull() {
			return v
		}
	}
	return nil
}

// shellCommand reads the command of a shell tool: a string, or an argv list
// (Codex "shell": ["bash", "-lc", "…"]) whose script is the last word.
func shellCommand(in *jsontree.Value) string {
	for _, k := range []string{"command", "cmd", "script", "commands"} {
		switch v := in.Get(k); {
		case v.Is(jsontree.String):
			if v.Str != "" {
				return v.Str
			}
		case v.Is(jsontree.Array):
			var words []string
			for _, w := range v.Arr {
				if s, ok := w.AsString(); ok {
					words = append(words, s)
				}
			}
			if len(words) >= 3 && (words[0] == "bash" || words[0] == "sh" || words[0] == "zsh") &&
				strings.HasPrefix(words[1], "-") && strings.Contains(words[1], "c") {
				return words[len(words)-1]
			}
			if len(words) > 0 {
				return strings.Join(words, " ")
			}
		}
	}
	return ""
}

// UnwrapShell returns the script of `bash -lc '…'` as Codex prints a
// command it ran (the argv shell-quoted and joined: `codex exec --json`,
// AgentStackBench traces), or cmd as it is.
func UnwrapShell(cmd string) string {
	for _, sh := range []string{"bash -lc ", "/bin/bash -lc ", "bash -c ", "/bin/bash -c ", "/bin/zsh -lc ", "zsh -lc ", "sh -c ", "/bin/sh -c "} {
		if rest, ok := strings.CutPrefix(cmd, sh); ok {
			if s, ok := oneWord(rest); ok {
				return s
			}
			return rest
		}
	}
	return cmd
}

// oneWord undoes POSIX quoting when s is exactly one shell word: 'a'"'"'b'
// and "a'b" and a\'b are all a'b.
func oneWord(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 2
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i == len(s) {
				return "", false
			}
			i++
		case '\\':
			if i+1 == len(s) {
				return "", false
			}
			b.WriteByte(s[i+1])
			i += 2
		case ' ', '\t', '\n':
			return "", false // more than one word
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), true
}

// LaunchesAgent reports whether a tool starts a sub-agent (Claude Code's
// Task, later Agent).
func LaunchesAgent(name string) bool { return kindOf(name) == kAgent }

// KindIsShell reports whether a tool runs shell commands.
func KindIsShell(name string) bool { return kindOf(name) == kBash }
