package lexers

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	upstream "github.com/alecthomas/chroma/v2/lexers"

	"github.com/trajscope/trajscope/internal/testkit"
)

// skipped are the upstream lexers not carried (gen.go says why), by file
// and by name.
var (
	skippedFiles = map[string]bool{"raku.go": true, "haxe.go": true, "emacs.go": true}
	skippedNames = map[string]bool{"Raku": true, "Haxe": true, "EmacsLisp": true}
	// delegating are lexers that hand blocks to a skipped one (Org's
	// emacs-lisp source blocks): their tokens differ there.
	delegating = map[string]bool{"Org Mode": true}
)

// upstreamDir is the directory of the lexers package of the chroma that
// go.mod names.
func upstreamDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/alecthomas/chroma/v2").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "lexers")
}

// The copy is upstream's: the same XML byte for byte, and every Go file of
// upstream's but the skipped ones (less its tests) and no other. A chroma
// upgrade in go.mod fails here or below until the copy is taken again.
func TestFilesAreUpstreams(t *testing.T) {
	dir := upstreamDir(t)
	list := func(root string, skip map[string]bool) (names []string) {
		for _, pat := range []string{"*.go", "embedded/*.xml"} {
			m, _ := filepath.Glob(filepath.Join(root, pat))
			for _, f := range m {
				rel, _ := filepath.Rel(root, f)
				if !strings.HasSuffix(f, "_test.go") && !skip[rel] {
					names = append(names, rel)
				}
			}
		}
		return names
	}
	want := list(dir, skippedFiles)
	got := list(".", map[string]bool{"configs.go": true, "gen.go": true})
	if len(want) < 250 || !reflect.DeepEqual(got, want) {
		t.Fatalf("files differ from %s:\n got %v\nwant %v", dir, got, want)
	}
	for _, f := range want {
		if !strings.HasPrefix(f, "embedded/") {
			continue
		}
		a, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs from upstream's", f)
		}
	}
}

// configs.go and the keyed copies of upstream's Go lexers are what gen.go
// makes, untouched.
func TestFilesAreGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	out := t.TempDir()
	if b, err := exec.Command("go", "run", "gen.go", "-o", out).CombinedOutput(); err != nil {
		t.Fatalf("go run gen.go: %v\n%s", err, b)
	}
	made, _ := filepath.Glob(filepath.Join(out, "*.go"))
	if len(made) < 15 {
		t.Fatalf("gen.go made only %d files", len(made))
	}
	for _, m := range made {
		got, err := os.ReadFile(m)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Base(m))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not gen.go's output: run go generate", filepath.Base(m))
		}
	}
}

// The registry built late is upstream's built early: the same lexers in the
// same order with the same configuration, less the two skipped lexers that
// have no XML (Raku, Haxe).
func TestRegistryIsUpstreams(t *testing.T) {
	got := Registry().Lexers
	want := slices.DeleteFunc(slices.Clone(upstream.GlobalLexerRegistry.Lexers), func(l chroma.Lexer) bool {
		return l.Config().Name == "Raku" || l.Config().Name == "Haxe"
	})
	if len(got) != len(want) || len(got) < 250 {
		t.Fatalf("%d lexers, upstream %d (less Raku and Haxe)", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i].Config(), want[i].Config()) {
			t.Errorf("lexer %d: %+v, upstream %+v", i, got[i].Config(), want[i].Config())
		}
	}
}

// upstreamTexts are chroma's own test inputs: name (the file's base) to text.
func upstreamTexts(t *testing.T, sub string, least int) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(upstreamDir(t), "testdata", sub, "*.actual"))
	if len(files) < least {
		t.Fatalf("only %d of chroma's test inputs in %s", len(files), sub)
	}
	texts := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts[strings.TrimSuffix(filepath.Base(f), ".actual")] = string(b)
	}
	return texts
}

// Content detection is upstream's: the same lexer chosen for chroma's
// test inputs and a few of ours, and every analyser (the XML ones,
// compiled late here, and the three attached in init functions upstream)
// rating every text the same.
func TestAnalyseIsUpstreams(t *testing.T) {
	texts := upstreamTexts(t, "analysis", 8)
	for k, v := range upstreamTexts(t, "", 150) {
		texts["tokens."+k] = v
	}
	for k, v := range map[string]string{
		"dns":    "$ORIGIN example.com.\n@ IN SOA ns.example.com. admin.example.com. (1 2 3 4 5)\n",
		"mysql":  "SELECT `id`, `name` FROM `users` WHERE `id` = 1;\n",
		"zed":    "definition user {}\ndefinition doc {\n relation viewer: user\n permission view = viewer\n}\n",
		"golang": "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(1) }\n",
		"plain":  "plain words",
	} {
		texts["ours."+k] = v
	}
	for name, text := range texts {
		g, w := Analyse(text), upstream.Analyse(text)
		if (g == nil) != (w == nil) || g != nil && g.Config().Name != w.Config().Name {
			t.Errorf("Analyse(%s) = %v, upstream %v", name, g, w)
		}
	}
	rated := 0
	for _, w := range upstream.GlobalLexerRegistry.Lexers {
		if skippedNames[w.Config().Name] {
			continue
		}
		g := Get(w.Config().Name)
		for name, text := range texts {
			gs, ws := g.AnalyseText(text), w.AnalyseText(text)
			if gs != ws {
				t.Errorf("%s rates %s %v, upstream %v", w.Config().Name, name, gs, ws)
			}
			if gs > 0 {
				rated++
			}
		}
	}
	// Each hook ran: its lexer rates its own text above zero.
	for name, text := range map[string]string{"dns": texts["ours.dns"], "mysql": texts["ours.mysql"], "Zed": texts["ours.zed"]} {
		if score := Get(name).AnalyseText(text); score <= 0 {
			t.Errorf("%s analyser rates its text %v: the hook did not run", name, score)
		}
	}
	if rated < 30 {
		t.Errorf("only %d ratings above zero: the analysers were not exercised", rated)
	}
}

// The same tokens as upstream for chroma's own test inputs (one per lexer,
// ~180 of them) and for the lexers written in Go, which delegate and look
// others up by name.
func TestTokensAreUpstreams(t *testing.T) {
	texts := upstreamTexts(t, "", 150)
	for name, text := range map[string]string{
		"Go HTML Template": "<p>{{ .Name }}</p>\n",
		"Markdown":         "---\ntitle: x\n---\n# Head\n\n```go\nfunc f() {}\n```\n",
		"PHTML":            "<html><?php echo $x; ?></html>\n",
		"reStructuredText": "Title\n=====\n\n.. code-block:: python\n\n   print(1)\n",
		"YAML+Jinja":       "- name: {{ item }}\n  when: x\n",
		"ERB":              "<p><%= @user.name %></p>\n",
	} {
		texts[name] = text
	}
	compared := 0
	for name, text := range texts {
		w := upstream.Get(name)
		if w == nil || w == upstream.Fallback || skippedNames[w.Config().Name] || delegating[w.Config().Name] {
			continue
		}
		g := Get(name)
		if g == nil || g.Config().Name != w.Config().Name {
			t.Errorf("%s: got %v, upstream %v", name, g, w)
			continue
		}
		gt, gerr := chroma.Tokenise(g, nil, text)
		wt, werr := chroma.Tokenise(w, nil, text)
		if (gerr != nil) != (werr != nil) || !reflect.DeepEqual(gt, wt) {
			t.Errorf("%s: %d tokens (%v), upstream %d (%v)", name, len(gt), gerr, len(wt), werr)
		}
		compared++
	}
	if compared < 150 {
		t.Errorf("only %d lexers compared", compared)
	}
}

var initLine = regexp.MustCompile(`(?m)^init (\S+) @.*, (\d+) allocs$`)

// The point of the copy: no process parses the lexers' XML configurations
// when it starts, and the registry, built on first use, costs a fraction of
// what upstream's initialisation does (its allocations counted, as that
// count does not depend on the machine).
func TestNotBuiltAtStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	upstreamInit := testing.AllocsPerRun(1, func() {
		for _, x := range xmlConfigs {
			chroma.MustNewXMLLexer(embedded, x.file)
		}
	})
	build := testing.AllocsPerRun(1, func() { registerXML(chroma.NewLexerRegistry()) })
	if upstreamInit < 20000 || build > upstreamInit/10 {
		t.Errorf("registering the XML lexers allocates %v times; upstream's way %v", build, upstreamInit)
	}
	cmd := exec.Command(testkit.Binary(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("--version: %v %s", err, out)
	}
	found := false
	for _, m := range initLine.FindAllStringSubmatch(string(out), -1) {
		switch m[1] {
		case "github.com/alecthomas/chroma/v2/lexers":
			t.Errorf("the binary links and initialises chroma's own lexers package")
		case "github.com/trajscope/trajscope/internal/syntax/lexers":
			found = true
			if n, _ := strconv.Atoi(m[2]); n > int(upstreamInit/10) {
				t.Errorf("initialising the lexers allocates %d times", n)
			}
		}
	}
	if !found {
		t.Errorf("no init line for this package in:\n%s", out)
	}
}
