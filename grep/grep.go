// Package grep finds text across runs, as ripgrep finds it across files:
// every line of an action's command, thought or output, and of the run's
// task, that a regular expression matches, printed as
// "instance:action: line" ("instance:task: line" for the task). What is
// printed comes from trajectories: control characters are made inert
// before anything is written, and colour is added only after that.
package grep

import (
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
)

// Options say how to match and print.
type Options struct {
	// IgnoreCase matches letters of either case (-i).
	IgnoreCase bool
	// FilesOnly prints each matching run's instance once (-l).
	FilesOnly bool
	// Color marks the instance, the action and each match (on a terminal).
	Color bool
}

// Matcher is one search.
type Matcher struct {
	re *regexp.Regexp
	o  Options
	// inst is the size of the compiled pattern: RE2 is linear in the
	// input, with the pattern's size as the factor ((\w+){100} over one
	// 10 MB line is 20 s), so a line is searched for at most maxWork
	// instruction-bytes.
	inst int
	// Cut counts the lines searched only in part.
	Cut int
}

// maxWork bounds the work of searching one line: a line longer than
// maxWork / (the pattern's size) bytes is searched in its first that many
// (a simple pattern searches 30 MB of a line, (\w+){100} 650 KB).
const maxWork = 1 << 28

// New compiles pattern (Go regular expression syntax, RE2: linear time
// whatever the input).
func New(pattern string, o Options) (*Matcher, error) {
	if o.IgnoreCase {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, fmt.Errorf("the pattern: %w", err)
	}
	m := &Matcher{re: re, o: o, inst: 1}
	if s, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		if prog, err := syntax.Compile(s.Simplify()); err == nil {
			m.inst = max(len(prog.Inst), 1)
		}
	}
	return m, nil
}

// maxShown bounds how much of a matching line is printed: a minified file
// is one line of megabytes.
const maxShown = 400

// SGR sequences, as ripgrep colours its output.
const (
	sgrInstance = "\x1b[35m"
	sgrWhere    = "\x1b[32m"
	sgrMatch    = "\x1b[1;31m"
	sgrReset    = "\x1b[0m"
)

// Run writes the matching lines of one run and returns how many there were
// (with FilesOnly, at most one line is written). file names the run where
// it was read ("runs/a.traj.json", "page.json#2" for the second run of a
// file of several; "" for none): two runs of one instance by two models are
// two files, and every line says which.
func (m *Matcher) Run(w io.Writer, run *model.Run, file string) (int, error) {
	n := 0
	id := termsafe.Line(run.InstanceID)
	if file != "" {
		id = termsafe.Line(file) + ":" + id
	}
	emit := func(where, text string) (bool, error) {
		for _, line := range strings.Split(text, "\n") {
			if limit := maxWork / m.inst; len(line) > limit {
				m.Cut++
				line = strings.ToValidUTF8(line[:limit], "")
			}
			loc := m.re.FindStringIndex(line)
			if loc == nil {
				continue
			}
			n++
			if m.o.FilesOnly {
				_, err := io.WriteString(w, m.paint(sgrInstance, id)+"\n")
				return true, err
			}
			if _, err := io.WriteString(w, m.paint(sgrInstance, id)+":"+m.paint(sgrWhere, where)+": "+m.show(line, loc)+"\n"); err != nil {
				return true, err
			}
		}
		return false, nil
	}
	if done, err := emit("task", run.Task); done || err != nil {
		return n, err
	}
	for i := range run.Actions {
		where := strconv.Itoa(i + 1)
		for _, text := range []string{run.Actions[i].Command, run.Thought(i), run.Observation(i)} {
			if done, err := emit(where, text); done || err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// show makes a matching line safe to print: a window of it around the first
// match, control characters made visible, the matches coloured when asked.
func (m *Matcher) show(line string, loc []int) string {
	from, to := 0, len(line)
	if to > maxShown {
		from = max(0, loc[0]-maxShown/4)
		to = min(len(line), from+maxShown)
		for from > 0 && line[from]&0xC0 == 0x80 {
			from--
		}
		for to < len(line) && line[to]&0xC0 == 0x80 {
			to++
		}
	}
	part := line[from:to]
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
	}
	if !m.o.Color {
		b.WriteString(termsafe.Line(part))
	} else {
		// Colour each match: the text around and inside is made inert
		// piece by piece, so the only escapes are these.
		last := 0
		for _, mt := range m.re.FindAllStringIndex(part, -1) {
			if mt[1] == mt[0] {
				continue
			}
			b.WriteString(termsafe.Line(part[last:mt[0]]))
			b.WriteString(sgrMatch + termsafe.Line(part[mt[0]:mt[1]]) + sgrReset)
			last = mt[1]
		}
		b.WriteString(termsafe.Line(part[last:]))
	}
	if to < len(line) {
		b.WriteString("…")
	}
	return b.String()
}

func (m *Matcher) paint(sgr, s string) string {
	if !m.o.Color {
		return s
	}
	return sgr + s + sgrReset
}
