package cmdfail

import (
	"strings"
	"testing"
)

func TestReason(t *testing.T) {
	cases := []struct {
		name    string
		code    int
		known   bool
		isError bool
		output  string
		want    string
	}{
		{"success", 0, true, false, "ok\n", ""},
		{"no status, quiet output", 0, false, false, "hello", ""},
		{"non-zero exit", 1, true, false, "Traceback (most recent call last):\n...", "exit 1"},
		{"exit with the shell's own error", 2, true, false, "/bin/sh: 2: Syntax error: \"(\" unexpected\n", `exit 2: /bin/sh: 2: Syntax error: "(" unexpected`},
		{"bash line error, no status", 0, false, false, "bash: line 1: foo: command not found", "bash: line 1: foo: command not found"},
		{"command not found", 0, false, false, "rg: command not found", "rg: command not found"},
		{"a pipeline hides the status", 0, true, false, "nl: /testbed/x.py: No such file or directory\n", "nl: /testbed/x.py: No such file or directory"},
		{"cannot access", 0, false, false, "ls: cannot access 'x': No such file or directory", "ls: cannot access 'x': No such file or directory"},
		{"a program's traceback is not the command failing", 0, true, false, "FileNotFoundError: [Errno 2] No such file or directory: 'x'", ""},
		{"tool error flag", 0, false, true, "File does not exist.", "the tool reported an error"},
		{"error flag with a shell error", 0, false, true, "sh: 1: nl: not found", "the tool reported an error: sh: 1: nl: not found"},
		{"error line past the first lines is output", 0, false, false, strings.Repeat("x\n", 50) + "cat: y: No such file or directory", ""},
	}
	for _, c := range cases {
		if got := Reason(c.code, c.known, c.isError, c.output); got != c.want {
			t.Errorf("%s: Reason = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestReturnCode(t *testing.T) {
	for _, c := range []struct {
		obs  string
		code int
		ok   bool
	}{
		{"<returncode>0</returncode>\n<output>\n</output>", 0, true},
		{"<returncode>127</returncode>", 127, true},
		{"<returncode>-9</returncode>", -9, true},
		{"no status here", 0, false},
		{strings.Repeat("x", 300) + "<returncode>1</returncode>", 0, false}, // only where mini-swe-agent puts it
	} {
		code, ok := ReturnCode(c.obs)
		if code != c.code || ok != c.ok {
			t.Errorf("ReturnCode(%.40q) = %d %v, want %d %v", c.obs, code, ok, c.code, c.ok)
		}
	}
}

func TestClip(t *testing.T) {
	long := strings.Repeat("é", 200)
	got := Clip(long)
	if len(got) > 165 || !strings.HasSuffix(got, "…") || !strings.HasPrefix(long, strings.TrimSuffix(got, "…")) {
		t.Errorf("Clip cut %q badly", got)
	}
}

// The checks in front of the patterns never change their answer.
func TestIsErrorLineAgreesWithPatterns(t *testing.T) {
	for _, l := range []string{
		"/bin/sh: 2: Syntax error: \"(\" unexpected", "bash: line 1: foo: command not found", "sh: 1: cd: can't cd to x",
		"zsh: permission denied: ./x", "/usr/bin/bash: x: No such file or directory", "dash: 3: x: not found",
		"foo: command not found", "my tool: command not found", "cat: a.py: No such file or directory",
		"grep: src: Is a directory", "sed: can't read x: No such file or directory", "ls: cannot access 'x': No such file or directory",
		"python: can't open file 'x.py': [Errno 2] No such file or directory", "fish: Unknown command", "ok", "",
		"Traceback (most recent call last):", "cat a.py: No such file", "bash", "x: y", "sh:", "nl: x: Is a directory",
	} {
		want := shellErrRe().MatchString(l) || notFoundRe().MatchString(l) || toolErrRe().MatchString(l)
		if got := isErrorLine(l); got != want {
			t.Errorf("isErrorLine(%q) = %v, the patterns say %v", l, got, want)
		}
	}
}

// TestRefusal: each harness's refusal is recognised at the start of the
// output, and only there: a command's output that quotes one later, or
// words like it, is not a refusal.
func TestRefusal(t *testing.T) {
	cases := []struct{ output, want string }{
		{"The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).", "rejected by the user"},
		{"The user doesn't want to take this action right now. STOP what you are doing", "rejected by the user"},
		{"Permission to use Bash with command rm -rf /tmp/x has been denied.", "permission denied"},
		{"Claude requested permissions to use Edit, but you haven't granted it yet.", "permission not granted"},
		{"<tool_use_error>InputValidationError: Read failed due to the following issue:", "invalid tool input"},
		{"exec command rejected by user", "rejected by the user"},
		{"patch rejected by user", "rejected by the user"},
		{"This action was rejected due to unacceptable risk. Reason: deletes the repository", "rejected by the approval guard"},
		{"  Operation 'vim a.py' is not supported by this environment.", "blocked by the environment's blocklist"},
		{"Your output was not formatted correctly. You must always include one discussion and one command as part of your response.", "format error: the reply held no command to run"},
		{"Your last output did not use any tool calls!\nPlease make sure your output includes exactly _ONE_ function call!", "format error: the reply held no command to run"},
		// Not refusals.
		{"x = 1\nexec command rejected by user", ""},
		{"     1→The user doesn't want to proceed with this tool use.", ""},
		{"Operation 'vim a.py'\n is not supported by this environment.", ""},
		{"Permission to use Bash was granted", ""},
		{"<tool_use_error>File does not exist.</tool_use_error>", ""},
		{"", ""},
	}
	for _, c := range cases {
		if got := Refusal(c.output); got != c.want {
			t.Errorf("Refusal(%.60q) = %q, want %q", c.output, got, c.want)
		}
	}
}
