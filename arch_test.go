package main

import (
	"bufio"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/trajscope/trajscope"

// tier is one row of ARCHITECTURE.md's tier table.
type tier struct {
	name     string
	patterns []string // "model", "parsers/...", "." for the command
}

// readTiers reads the table under "## Tiers" in ARCHITECTURE.md: a row per
// tier, lowest first, the packages in the second column as `patterns`.
func readTiers(t *testing.T) []tier {
	t.Helper()
	f, err := os.Open("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tiers []tier
	in := false
	pat := regexp.MustCompile("`([^`]+)`")
	for sc := bufio.NewScanner(f); sc.Scan(); {
		l := sc.Text()
		if strings.HasPrefix(l, "## ") {
			in = l == "## Tiers"
			continue
		}
		if !in || !strings.HasPrefix(l, "| ") || strings.HasPrefix(l, "| tier ") || strings.HasPrefix(l, "|---") {
			continue
		}
		cells := strings.Split(l, "|")
		if len(cells) < 4 {
			continue
		}
		tr := tier{name: strings.TrimSpace(cells[1])}
		for _, m := range pat.FindAllStringSubmatch(cells[2], -1) {
			tr.patterns = append(tr.patterns, m[1])
		}
		tiers = append(tiers, tr)
	}
	if len(tiers) < 5 {
		t.Fatalf("ARCHITECTURE.md: %d tiers read under \"## Tiers\"", len(tiers))
	}
	return tiers
}

// tierOf is the index of the tier a package (relative to the module, "."
// for the root) belongs to, -1 when none names it: the tier of the longest
// pattern that names it (parsers/internal/predtest is test support, the
// rest of parsers/... data). names lists every tier whose longest match
// ties with it.
func tierOf(tiers []tier, pkg string) (int, []string) {
	var names []string
	at, best := -1, -1
	for i, tr := range tiers {
		for _, p := range tr.patterns {
			base, all := strings.CutSuffix(p, "/...")
			if pkg != base && !(all && strings.HasPrefix(pkg, base+"/")) {
				continue
			}
			switch {
			case len(base) > best:
				at, best, names = i, len(base), []string{tr.name}
			case len(base) == best && i != at:
				names = append(names, tr.name)
			}
		}
	}
	return at, names
}

// goList is each package of the module with what its non-test files
// import, or with everything it depends on.
func goList(t *testing.T, field string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join ."+field+" \" \"}}", "./...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	pkgs := map[string][]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		p, imps, _ := strings.Cut(l, "|")
		pkgs[rel(p)] = strings.Fields(imps)
	}
	return pkgs
}

func rel(p string) string {
	if p == module {
		return "."
	}
	return strings.TrimPrefix(p, module+"/")
}

// The imports follow ARCHITECTURE.md's tiers: every package is in one
// tier, imports only from its own tier or lower ones, internal/ imports
// nothing above it, and only tests and cmd/ import the test support.
func TestTiers(t *testing.T) {
	tiers := readTiers(t)
	support := slices.IndexFunc(tiers, func(tr tier) bool { return strings.HasPrefix(tr.name, "test support") })
	if support < 0 {
		t.Fatal(`ARCHITECTURE.md: no "test support" row`)
	}
	for pkg, imps := range goList(t, "Imports") {
		at, names := tierOf(tiers, pkg)
		if len(names) != 1 {
			t.Errorf("%s is in %d tiers %v, want exactly one", pkg, len(names), names)
			continue
		}
		for _, imp := range imps {
			if !strings.HasPrefix(imp, module+"/") {
				continue
			}
			dep := rel(imp)
			to, _ := tierOf(tiers, dep)
			switch {
			case to == support && at != support && !strings.HasPrefix(pkg, "cmd/"):
				t.Errorf("%s (%s) imports the test support %s", pkg, tiers[at].name, dep)
			case at != support && to != support && to > at:
				t.Errorf("%s (%s) imports %s (%s): an arrow up", pkg, tiers[at].name, dep, tiers[to].name)
			}
		}
	}
}

// What the tiers promise of the outside world: the data and engine tiers
// and report know nothing of the terminal, git or syntax colouring, and
// each heavy dependency comes in through one package.
func TestDependencies(t *testing.T) {
	deps := goList(t, "Deps")
	imports := goList(t, "Imports")
	terminal := []string{"charm.land/bubbletea", "charm.land/lipgloss", "charm.land/bubbles", "github.com/alecthomas/chroma", "github.com/go-git/go-git"}
	for _, pkg := range []string{"model", "scoring", "report", "story", "compare", "parsers"} {
		for _, d := range deps[pkg] {
			for _, bad := range terminal {
				if strings.HasPrefix(d, bad) {
					t.Errorf("%s depends on %s", pkg, d)
				}
			}
		}
	}
	// The one door of each: who may import it (tests aside).
	doors := map[string][]string{
		"github.com/alecthomas/chroma":      {"highlight"},
		"github.com/smacker/go-tree-sitter": {"scoring/symbols"},
		module + "/scoring/symbols":         {"scoring"}, // symbols are parsed where they are scored
		"gonum.org/v1/plot":                 {"report/charts"},
	}
	for pkg, imps := range imports {
		for _, imp := range imps {
			for mod, allowed := range doors {
				if (imp == mod || strings.HasPrefix(imp, mod+"/")) && !slices.Contains(allowed, pkg) {
					t.Errorf("%s imports %s; only %v may", pkg, imp, allowed)
				}
			}
		}
	}
	// The explorer (its run list among it) draws tables, not charts: it
	// does not link the plotting library.
	for pkg, ds := range deps {
		if pkg != "ui" && !strings.HasPrefix(pkg, "ui/") {
			continue
		}
		for _, d := range ds {
			if strings.HasPrefix(d, "gonum.org/v1/plot") {
				t.Errorf("%s depends on %s", pkg, d)
				break
			}
		}
	}
}
