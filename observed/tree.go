package observed

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/trajscope/trajscope/model"
)

// MaxLines bounds the lines the tree holds over all its files. A file is as
// long as the last line shown of it, so one shown line numbered 999999999
// would otherwise make a file of a billion lines; the lines of a file past
// what is left of the budget are dropped (Truncated says so).
const MaxLines = 1 << 21

// MaxLineBytes bounds a rebuilt line: a line is for reading in a pane, and
// one shown line of a gigabyte must not cost a gigabyte again.
const MaxLineBytes = 4096

// clipLine keeps the first MaxLineBytes of a line, on a character boundary,
// marking the cut.
func clipLine(s string) string {
	if len(s) <= MaxLineBytes {
		return s
	}
	cut := MaxLineBytes
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + " …"
}

// Tree is a repository rebuilt from what a run displayed.
type Tree struct {
	reason string
	// files maps the paths the run named to their known lines; nil for a
	// file it named (a search hit, a read without numbers) without showing
	// any line of it.
	files map[string]*file
	// gold lists the gold files, sorted, each once: files of the tree
	// whether or not the run named them. A list rather than map entries, so
	// a gold of a million files the run never came near costs a string
	// header each.
	gold []string
	// Truncated lists files whose lines past the budget were dropped.
	Truncated []string
}

type file struct {
	lines []string // lines[k] is line k+1; "" where unknown
	known []model.Interval
	// content is built on first read, once: a file a followed run's
	// readings fill once is read by the trees of both.
	once    sync.Once
	content []byte
}

// Build rebuilds what run displayed of its repository, for when the
// repository itself is missing: every line an action showed with its line
// number (nl -ba, cat -n, an editor's view, Claude Code's Read, OpenHands'
// and SWE-agent's file windows, grep -n hits) is put back at that line of
// its file, and every other line is unknown. The tree holds the gold files
// (gold: the gold's paths as scoring normalises them), every file an
// action showed lines of and every file a search listed; reason says why
// the repository is missing. File and line measures come from the line
// numbers; symbols and byte spans are not computable from it.
//
// c, when not nil, remembers what each action's output displayed: a run
// read again as it grows (followed) parses only its new outputs, and
// those whose reads changed.
func Build(run *model.Run, gold []string, reason string, c *Lines) *Tree {
	t := &Tree{reason: reason, files: map[string]*file{}, gold: make([]string, 0, len(gold))}
	n := newNamer(run)
	for _, p := range gold {
		n.addGold(t, p)
	}
	slices.Sort(t.gold)
	t.gold = slices.Clip(slices.Compact(t.gold))
	n.indexGold(t.gold)
	n.learnRoots(run)
	// What the actions read before did to the tree is taken as it was
	// left when they are the same actions under the same names: a followed
	// run's reading goes on from there.
	b := c.resume(run, t.gold, n.roots)
	for _, p := range b.added {
		t.add(p)
	}
	// The last actions of no output yet (running calls) are read in a
	// copy: their results change them, so they are not kept.
	settled := len(run.Actions)
	for settled > b.done && run.Observation(settled-1) == "" {
		settled--
	}
	for i := b.done; i < len(run.Actions); i++ {
		if i == settled && c != nil {
			c.last = b.copyKeys()
			b = b.overlay()
		}
		b.action(t, n, c, run, i)
	}
	if c != nil && settled == len(run.Actions) {
		c.last = b
	}
	budget := MaxLines
	for _, p := range b.order {
		budget -= b.fill(t, p, budget)
	}
	return t
}

// add names a file of the tree (known to exist, no lines known yet).
func (t *Tree) add(p string) {
	if _, ok := t.files[p]; !ok {
		t.files[p] = nil
	}
}

// fill sets a file's lines from the numbered lines shown of it, within
// budget lines. The file is as long as a file window or a whole-file view
// said (total), else as the last line shown: never as long as a gold span
// claims, which is input too. It returns the lines used.
func (t *Tree) fill(p string, shown map[int]string, total, budget int) int {
	n := max(total, 0)
	for num := range shown {
		n = max(n, num)
	}
	if n > budget {
		n = max(budget, 0)
		t.Truncated = append(t.Truncated, p)
	}
	f := &file{lines: make([]string, n)}
	nums := make([]int, 0, len(shown))
	for num, text := range shown {
		if num >= 1 && num <= n {
			f.lines[num-1] = text
			nums = append(nums, num)
		}
	}
	sort.Ints(nums)
	for _, num := range nums {
		if k := len(f.known) - 1; k >= 0 && f.known[k].End+1 == num {
			f.known[k].End = num
			continue
		}
		f.known = append(f.known, model.Interval{Start: num, End: num})
	}
	t.files[p] = f
	return n
}

// Same reports whether u holds what t holds: the same files, lines and
// gold, for the same reason. A followed run's reading that showed no line
// not shown before rebuilds the same tree, and what was read of the last
// one holds for it.
func (t *Tree) Same(u *Tree) bool {
	if t == nil || u == nil || t.reason != u.reason || len(t.files) != len(u.files) ||
		!slices.Equal(t.gold, u.gold) || !slices.Equal(t.Truncated, u.Truncated) {
		return false
	}
	for p, f := range t.files {
		g, ok := u.files[p]
		if ok && f == g {
			continue // filled once, read by both
		}
		if !ok || (f == nil) != (g == nil) || f != nil && (!slices.Equal(f.lines, g.lines) || !slices.Equal(f.known, g.known)) {
			return false
		}
	}
	return true
}

// isGold reports a gold file.
func (t *Tree) isGold(p string) bool {
	_, ok := slices.BinarySearch(t.gold, p)
	return ok
}

// ReadFile returns a file's lines, unknown ones empty.
func (t *Tree) ReadFile(p string) ([]byte, error) {
	f, ok := t.files[p]
	if !ok && !t.isGold(p) {
		return nil, fmt.Errorf("%s: not shown by the run", p)
	}
	if f == nil {
		// Named (gold, a search hit, a read without numbers) but never
		// shown: a file of the tree without readable lines.
		return nil, fmt.Errorf("%s: no line of it was shown", p)
	}
	f.once.Do(func() {
		size := 0
		for _, l := range f.lines {
			size += len(l) + 1
		}
		b := make([]byte, 0, size)
		for _, l := range f.lines {
			b = append(append(b, l...), '\n')
		}
		f.content = b
	})
	return f.content, nil
}

// IsFile reports whether the run named p as a file.
func (t *Tree) IsFile(p string) bool {
	_, ok := t.files[p]
	return ok || t.isGold(p)
}

// Known returns the lines of p the run displayed.
func (t *Tree) Known(p string) []model.Interval {
	if f := t.files[p]; f != nil {
		return f.known
	}
	return nil
}

// Reason says why the repository is missing.
func (t *Tree) Reason() string { return t.reason }

// Files lists the tree's files, sorted.
func (t *Tree) Files() []string {
	out := make([]string, 0, len(t.files)+len(t.gold))
	out = append(out, t.gold...)
	for p := range t.files {
		out = append(out, p)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// namer maps the paths a run printed to repository paths: gold files as
// scoring normalised them, and other paths with the sandbox root they sat under
// removed. Roots are the usual sandbox ones (/testbed, /workspace/<name>,
// /app, /repo) plus any the run shows by naming a gold file under it.
type namer struct {
	byBase map[string][]string // gold files by base name, for the bases below
	bases  map[string]bool     // base names of the absolute paths the run printed
	roots  []string            // learned roots, longest first
}

func newNamer(run *model.Run) *namer {
	n := &namer{byBase: map[string][]string{}, bases: map[string]bool{}}
	// Only gold files an absolute path of the run can end with are worth
	// indexing: a gold of a million files costs no index then.
	note := func(p string) {
		if p = slashes(p); strings.HasPrefix(p, "/") {
			n.bases[path.Base(p)] = true
		}
	}
	for i := range run.Actions {
		for _, r := range run.Actions[i].Reads {
			note(r.File)
		}
		for _, h := range run.Actions[i].Searches {
			note(h.File)
		}
	}
	return n
}

func (n *namer) addGold(t *Tree, p string) {
	// The path exactly as scoring normalised it, so the gold's files are
	// the tree's; one that climbs out of the root names nothing.
	if p == "" || strings.HasPrefix(p, "/") || clean(p) == "" || strings.Contains("/"+p+"/", "/../") {
		return
	}
	t.gold = append(t.gold, p)
}

// indexGold indexes the gold files (sorted, each once) by base name, for
// the base names of the absolute paths the run printed.
func (n *namer) indexGold(gold []string) {
	for _, p := range gold {
		if b := path.Base(p); n.bases[b] {
			n.byBase[b] = append(n.byBase[b], p)
		}
	}
}

// learnRoots finds the directories the run's absolute paths put gold files
// under ("/home/u/proj/" for "/home/u/proj/pkg/a.py" and gold "pkg/a.py").
func (n *namer) learnRoots(run *model.Run) {
	seen := map[string]bool{}
	learn := func(raw string) {
		p := slashes(raw)
		if !strings.HasPrefix(p, "/") {
			return
		}
		for _, g := range n.byBase[path.Base(p)] {
			if strings.HasSuffix(p, "/"+g) {
				if root := p[:len(p)-len(g)]; !seen[root] {
					seen[root] = true
					n.roots = append(n.roots, root)
				}
			}
		}
	}
	for i := range run.Actions {
		for _, r := range run.Actions[i].Reads {
			learn(r.File)
		}
		for _, h := range run.Actions[i].Searches {
			learn(h.File)
		}
	}
	sort.Slice(n.roots, func(i, j int) bool { return len(n.roots[i]) > len(n.roots[j]) })
}

// name is the repository path of a path the run printed, "" when it is not
// one: outside every known root, or climbing with "..".
func (n *namer) name(raw string) string {
	p := slashes(raw)
	if !strings.HasPrefix(p, "/") {
		return clean(p)
	}
	for _, r := range n.roots {
		if strings.HasPrefix(p, r) {
			return clean(p[len(r):])
		}
	}
	if rel, ok := underRoot(p); ok {
		return rel
	}
	return ""
}

// underRoot is the repository path of an absolute path under a container's
// checkout: /testbed/, /app/, /repo/, /workspace/ (or OpenHands'
// /workspace/<owner>__<repo>__<version>/), SWE-agent 0.x's
// /<owner>__<repo>/; ok is false for any other path.
func underRoot(p string) (string, bool) {
	for _, r := range []string{"/testbed/", "/app/", "/repo/"} {
		if strings.HasPrefix(p, r) {
			return clean(p[len(r):]), true
		}
	}
	if rest, ok := strings.CutPrefix(p, "/workspace/"); ok {
		// OpenHands checks a task out at /workspace/<owner>__<repo>__<version>/;
		// other agents (Claude Code, Harbor) work in /workspace itself, whose
		// first directory is the repository's ("src/App.css").
		if dir, inner, ok := strings.Cut(rest, "/"); ok && strings.Contains(dir, "__") {
			return clean(inner), true
		}
		return clean(rest), true
	}
	// SWE-agent 0.x checks a task out at /<owner>__<repo>/
	// ("/sympy__sympy/sympy/core/basic.py").
	if dir, inner, ok := strings.Cut(p[1:], "/"); ok && strings.Contains(dir, "__") && !strings.HasPrefix(dir, "__") {
		return clean(inner), true
	}
	return "", false
}

func slashes(p string) string {
	return strings.ReplaceAll(strings.TrimSpace(p), `\`, "/")
}

// clean is a relative slash path without "." segments or repeated slashes,
// "" when it is empty or climbs out with "..".
func clean(p string) string {
	var parts []string
	for _, x := range strings.Split(p, "/") {
		switch x {
		case "", ".":
			continue
		case "..":
			return ""
		}
		parts = append(parts, x)
	}
	return strings.Join(parts, "/")
}
