package cli

import (
	"runtime/debug"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/parsers"
)

func TestFormatVersion(t *testing.T) {
	tests := []struct {
		main     string
		settings map[string]string
		want     string
	}{
		{"v1.2.3", nil, "v1.2.3"},
		{"", nil, "(devel: no version stamped; build from a git checkout with go build -buildvcs=true)"},
		{"v0.0.0-20261127092541-07ce90995603+dirty", map[string]string{"vcs.revision": "07ce90995603aaaa", "vcs.modified": "true"}, "v0.0.0-20261127092541-07ce90995603+dirty"},
		{"(devel)", map[string]string{"vcs.revision": "0123456789abcdef0123", "vcs.modified": "false"}, "(devel) (0123456789ab)"},
		{"(devel)", map[string]string{"vcs.revision": "abc", "vcs.modified": "true"}, "(devel) (abc, modified)"},
	}
	for _, tc := range tests {
		bi := &debug.BuildInfo{Main: debug.Module{Version: tc.main}}
		for k, v := range tc.settings {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: k, Value: v})
		}
		if got := formatVersion(bi); got != tc.want {
			t.Errorf("formatVersion(%q, %v) = %q, want %q", tc.main, tc.settings, got, tc.want)
		}
	}
	out, _, code := run(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "trajscope ") {
		t.Errorf("--version: exit %d, %q", code, out)
	}
}

// TestUsageErrorsExit2: every way of calling a command wrongly exits 2.
func TestUsageErrorsExit2(t *testing.T) {
	for _, args := range [][]string{
		{"nosuch"},
		{"convert"},
		{"view", "--step", "0"},
		{"view", "../demo/task", "--step", "2"},
		{"score"},
		{"score", "--gold", "g"},
		{"score", "--pred", "p"},
		{"report"},
		{"score", "--nosuchflag"},
	} {
		_, errs, code := run(t, args...)
		if code != exitUsage || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line", args, code, errs)
		}
	}
	_, errs, _ := run(t, "score", "--gold", "g")
	if !strings.Contains(errs, "--pred") || strings.Contains(errs, "--gold") {
		t.Errorf("score --gold g: %q should name only the missing --pred", errs)
	}
}

// --input-format's help names every format it takes, in every command that
// has it.
func TestInputFormatHelpListsFormats(t *testing.T) {
	for _, cmd := range []string{"view", "compare", "export", "score"} {
		out, _, code := run(t, cmd, "--help")
		for _, name := range parsers.Formats() {
			if code != 0 || !strings.Contains(out, name) {
				t.Errorf("%s --help: exit %d, no %q", cmd, code, name)
			}
		}
	}
}
