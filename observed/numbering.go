package observed

import (
	"strconv"
	"strings"
)

// Numbering is one way tools number the lines of a file they show: the
// one grammar every reader of numbered output and the tree rebuilt from it
// share. A numbered line is blanks (spaces or tabs, per Indent), the
// line's number (1 to 9 digits), spaces when Gap allows them, then one of
// Seps ("" stands for the end of the line), then the line's text.
type Numbering struct {
	Seps   []string
	Indent Indent
	Gap    bool
}

// Indent says whether blanks may, must or must not come before a number.
type Indent uint8

const (
	IndentAny Indent = iota
	IndentNone
	IndentSome
)

// The numberings trajscope reads.
var (
	// Listing is nl -ba, cat -n, an editor's view and Harbor's Read
	// ("   12\ttext"), and Claude Code's Read ("    12→text").
	Listing = Numbering{Seps: []string{"\t", "→"}, Gap: true}
	// ReadTool is what the Read tools print: Claude Code's ("     12→",
	// "12\t"), OpenCode's ("00012| " in 2025, "12: " in 2026).
	ReadTool = Numbering{Seps: []string{"→", "\t", "| ", ": "}}
	// Window is a file viewer's window, its numbers at the margin:
	// SWE-agent's "12:text", OpenHands' "12|text".
	Window = Numbering{Seps: []string{":", "|"}, Indent: IndentNone}
	// Abbreviated is a view that cut its lines short: "  12 text", or a
	// number alone for an empty line.
	Abbreviated = Numbering{Seps: []string{" ", ""}}
	// spacedNumbers and bare are Abbreviated as the rebuilt tree reads
	// them inside other output: indented, and a bare number may end in
	// spaces.
	spacedNumbers = Numbering{Seps: []string{" "}, Indent: IndentSome}
	bare          = Numbering{Seps: []string{""}, Indent: IndentSome, Gap: true}
)

// Line reads one numbered line: its number and its text after the
// separator.
func (n Numbering) Line(l string) (num int, text string, ok bool) {
	start := 0
	for start < len(l) && (l[start] == ' ' || l[start] == '\t') {
		start++
	}
	if start > 0 && n.Indent == IndentNone || start == 0 && n.Indent == IndentSome {
		return 0, "", false
	}
	end := start
	for end < len(l) && end-start < 10 && '0' <= l[end] && l[end] <= '9' {
		end++
	}
	if d := end - start; d < 1 || d > 9 {
		return 0, "", false
	}
	i := end
	if n.Gap {
		for i < len(l) && l[i] == ' ' {
			i++
		}
	}
	for _, sep := range n.Seps {
		if sep == "" && i == len(l) || sep != "" && strings.HasPrefix(l[i:], sep) {
			num, _ = strconv.Atoi(l[start:end])
			return num, l[i+len(sep):], true
		}
	}
	return 0, "", false
}

// Lines gives the number of each numbered line of text, in order.
func (n Numbering) Lines(text string) []int {
	var out []int
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if num, _, ok := n.Line(line); ok {
			out = append(out, num)
		}
	}
	return out
}

// First is the number of the first numbered line of text.
func (n Numbering) First(text string) (int, bool) {
	for len(text) > 0 {
		line, rest, _ := strings.Cut(text, "\n")
		text = rest
		if num, _, ok := n.Line(line); ok {
			return num, true
		}
	}
	return 0, false
}
