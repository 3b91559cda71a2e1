package grep

import (
	"io"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

func sample() *model.Run {
	return &model.Run{
		InstanceID: "o__r-1", Task: "Fix the Parser\nit crashes on empty input",
		Actions:      []model.Action{{Command: "grep -n parse src/a.py"}, {Command: "cat b.py"}},
		Thoughts:     model.TextList{"Look for the parser.", ""},
		Observations: model.TextList{"12:def parse(x):\n13:    return x", "evil \x1b]0;pwned\x07 parse here\nnothing"},
	}
}

// Every line of the task, a command, a thought or an output that matches
// is printed where it is; -i ignores case; -l names the run once; what is
// printed cannot drive a terminal, and colour marks only the matches.
func TestRun(t *testing.T) {
	cases := []struct {
		name, pattern string
		o             Options
		want          string
	}{
		{"every field", "pars", Options{}, "o__r-1:1: grep -n parse src/a.py\no__r-1:1: Look for the parser.\no__r-1:1: 12:def parse(x):\no__r-1:2: evil \\e]0;pwned\\x07 parse here\n"},
		{"ignore case", "parser", Options{IgnoreCase: true}, "o__r-1:task: Fix the Parser\no__r-1:1: Look for the parser.\n"},
		{"case matters", "Parser", Options{}, "o__r-1:task: Fix the Parser\n"},
		{"files only", "pars", Options{FilesOnly: true}, "o__r-1\n"},
		{"colour", "crash", Options{Color: true}, "\x1b[35mo__r-1\x1b[0m:\x1b[32mtask\x1b[0m: it \x1b[1;31mcrash\x1b[0mes on empty input\n"},
		{"no match", "zzz", Options{}, ""},
	}
	for _, c := range cases {
		m, err := New(c.pattern, c.o)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		n, err := m.Run(&b, sample(), "")
		if err != nil || b.String() != c.want || (n == 0) != (c.want == "") {
			t.Errorf("%s: %d matches\n%q\nwant\n%q", c.name, n, b.String(), c.want)
		}
	}
	if _, err := New("(", Options{}); err == nil {
		t.Error("a bad pattern is accepted")
	}
}

// A long matching line is shown by a window around the match.
func TestLongLine(t *testing.T) {
	run := &model.Run{InstanceID: "x", Actions: []model.Action{{Command: strings.Repeat("a", 5000) + "NEEDLE" + strings.Repeat("b", 5000)}}}
	m, _ := New("NEEDLE", Options{})
	var b strings.Builder
	m.Run(&b, run, "")
	if out := b.String(); len(out) > maxShown+40 || !strings.Contains(out, "NEEDLE") || !strings.HasPrefix(out, "x:1: …") || !strings.HasSuffix(out, "…\n") {
		t.Errorf("%d bytes: %.80q", len(out), out)
	}
}

// A run is named by its file, so two models' runs of one task stay apart.
func TestRunNamesItsFile(t *testing.T) {
	m, _ := New("crash", Options{FilesOnly: true})
	var b strings.Builder
	m.Run(&b, sample(), "qwen_8b/o__r-1.traj.json")
	m.Run(&b, sample(), "qwen_32b/o__r-1.traj.json")
	if want := "qwen_8b/o__r-1.traj.json:o__r-1\nqwen_32b/o__r-1.traj.json:o__r-1\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}

// A line is searched for a bounded work: a complex pattern searches the
// first part of a very long line (and says how many lines), a simple one
// all of it.
func TestWorkBounded(t *testing.T) {
	long := strings.Repeat("a", 2<<20) + "needle"
	run := &model.Run{InstanceID: "x", Actions: []model.Action{{Command: long}}}
	complex, _ := New(`(\w+){100}needle`, Options{})
	if n, _ := complex.Run(io.Discard, run, ""); n != 0 || complex.Cut != 1 {
		t.Errorf("complex pattern: %d matches, %d lines cut; want the line cut before the needle", n, complex.Cut)
	}
	simple, _ := New(`needle`, Options{})
	if n, _ := simple.Run(io.Discard, run, ""); n != 1 || simple.Cut != 0 {
		t.Errorf("simple pattern: %d matches, %d lines cut", n, simple.Cut)
	}
}
