package task

import "testing"

// The issue comes out of each harness's wrapper, and a bare prompt is the
// task itself.
func TestFromPrompt(t *testing.T) {
	cases := []struct{ prompt, want string }{
		{"<pr_description>\nConsider the following PR description:\nFix the bug in x.\n</pr_description>\n<instructions>…</instructions>", "Fix the bug in x."},
		{"<uploaded_files>\n/workspace/o__r__1.0\n</uploaded_files>\nI've uploaded a repository.\n<issue_description>\nCrash on empty input\n</issue_description>\nCan you help me?", "Crash on empty input"},
		{"<pr_description></pr_description><issue>Second tag</issue>", "Second tag"},
		{"  Fix the flaky test in pkg/a.  ", "Fix the flaky test in pkg/a."},
		{"", ""},
	}
	for _, c := range cases {
		if got := FromPrompt(c.prompt); got != c.want {
			t.Errorf("FromPrompt(%.40q) = %q, want %q", c.prompt, got, c.want)
		}
	}
}
