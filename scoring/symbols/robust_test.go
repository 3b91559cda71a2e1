package symbols

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/trajscope/trajscope/internal/python"
)

func TestLanguage(t *testing.T) {
	tests := []struct{ path, want string }{
		{"pkg/mod.py", "python"},
		{"a.js", "javascript"},
		{"a.jsx", "javascript"},
		{"a.ts", "typescript"},
		{"a.tsx", "tsx"},
		{"A.java", "java"},
		{"main.go", "go"},
		{"lib.rs", "rust"},
		{"x.c", "c"},
		{"x.h", "c"},
		{"x.cpp", "cpp"},
		{"x.cc", "cpp"},
		{"x.hpp", "cpp"},
		{"x.cs", "c_sharp"},
		{"x.php", "php"},
		{"x.rb", "ruby"},
		{"x.swift", "swift"},
		{"x.kt", "kotlin"},
		{"x.scala", "scala"},
		{"SRC/MOD.PY", "python"},    // lower-cased first
		{"x.K\u212at", ""},          // Kelvin sign: .kkt, not .kt
		{"x.\u212aT", "kotlin"},     // Kelvin sign lowers to ASCII k, as in Python
		{"x.SW\u0130FT", ""},        // Python lowers İ to "i\u0307", not "i"
		{".py", ""},                 // splitext: a leading-dot name has no extension
		{"dir/.py", ""},             //
		{"dir/..py", ""},            // only dots before the last dot
		{"a..py", "python"},         //
		{"a.tar.gz", ""},            // ".gz"
		{"pkg.py/README", ""},       // the dot is in a directory name
		{"x.cxx", ""},               // not in the upstream map
		{"x.hh", ""},                //
		{"x.mjs", ""},               //
		{"x.pyi", ""},               //
		{"", ""},                    //
		{"x.py\\y", ""},             // backslash is not a separator: ext ".py\y"
		{"C:\\src\\a.py", "python"}, // ... so this one is ".py"
	}
	for _, tc := range tests {
		if got := Language(tc.path); got != tc.want {
			t.Errorf("Language(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

func TestUnmappedGivesNil(t *testing.T) {
	src := []byte("def f():\n    pass\n")
	for _, p := range []string{"README.md", "a.pyi", ".py", "noext", "x.mjs"} {
		got, err := testDefs(p, src)
		if got != nil || err != nil {
			t.Errorf("testDefs(%q) = %v, %v; want nil, nil", p, got, err)
		}
	}
}

// allFixtures lists every language fixture with the path Defs sees.
func allFixtures(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "lang", "*"))
	if err != nil || len(paths) < 15 {
		t.Fatalf("fixtures: %v %v", paths, err)
	}
	paths = append(paths, filepath.Join("testdata", "mod.py"), filepath.Join("testdata", "util.py"))
	out := map[string][]byte{}
	for _, p := range paths {
		out[p] = readFixture(t, p)
	}
	return out
}

// TestConcurrent runs every fixture from many goroutines: pooled parsers
// must not be shared, and every run must give the sequential answer.
func TestConcurrent(t *testing.T) {
	fx := allFixtures(t)
	want := map[string][]Def{}
	for p, src := range fx {
		d, err := testDefs(p, src)
		if err != nil {
			t.Fatal(err)
		}
		want[p] = d
	}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				for p, src := range fx {
					got, err := testDefs(p, src)
					if err != nil || !reflect.DeepEqual(got, want[p]) {
						select {
						case errs <- p:
						default:
						}
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for p := range errs {
		t.Errorf("%s: concurrent result differs", p)
	}
}

// checkSane asserts the invariants every result must hold.
func checkSane(t testing.TB, path string, src []byte, defs []Def) {
	t.Helper()
	types := defNodes[Language(path)]
	for _, d := range defs {
		if d.Start < 0 || d.Start > d.End || d.End > len(src) {
			t.Fatalf("%s: def out of bounds %v (len %d)", path, d, len(src))
		}
		if !slices.Contains(types, d.Type) {
			t.Fatalf("%s: def type %q not in the table", path, d.Type)
		}
		if !utf8.ValidString(d.Name) {
			t.Fatalf("%s: name %q is not valid UTF-8", path, d.Name)
		}
	}
}

var extByLang = map[string]string{
	"python": ".py", "javascript": ".js", "typescript": ".ts", "tsx": ".tsx",
	"java": ".java", "go": ".go", "rust": ".rs", "c": ".c", "cpp": ".cpp",
	"c_sharp": ".cs", "php": ".php", "ruby": ".rb", "swift": ".swift",
	"kotlin": ".kt", "scala": ".scala",
}

func TestBadInput(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	garbage := make([]byte, 8<<10) // error recovery on garbage is slow: 64 KiB took 3.5 s in JS (2026-11-21)
	rng.Read(garbage)
	deep := strings.Repeat("(", 5000) + strings.Repeat(")", 5000)
	inputs := map[string][]byte{
		"empty":    nil,
		"nul":      bytes.Repeat([]byte{0}, 4096),
		"garbage":  garbage,
		"badutf8":  []byte("def \xff\xfe(x):\n  return '\xc0\xaf'\nclass \xe2\x82:\n  pass\n"),
		"deep":     []byte(deep),
		"longline": bytes.Repeat([]byte("a"), 256<<10),
		"bom":      []byte("\xef\xbb\xbfdef f():\n    pass\n"),
		"crlf":     []byte("def f():\r\n    pass\r\n"),
	}
	for lang, ext := range extByLang {
		for name, src := range inputs {
			path := "x/" + name + ext
			// No deadline: the question is what garbage gives, not how
			// fast (a loaded machine took JS past the 2 s default).
			defs, err := Defs(context.Background(), path, src)
			if err != nil {
				t.Errorf("%s (%s): %v", name, lang, err)
			}
			checkSane(t, path, src, defs)
			if len(src) == 0 && defs != nil {
				t.Errorf("%s: empty input gave %v", path, defs)
			}
		}
	}
	// A BOM or CRLF must not hide a Python def.
	for _, name := range []string{"bom", "crlf"} {
		defs, _ := testDefs("x.py", inputs[name])
		if len(defs) != 1 || defs[0].Name != "f" {
			t.Errorf("%s: got %v, want one def f", name, defs)
		}
	}
}

// TestHugeFile parses a multi-megabyte file: it must finish and find every
// definition (no silent parse cut-off).
func TestHugeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	src := genPython(60000) // ~1.3 MB
	defs, err := testDefs("big.py", src)
	if err != nil {
		t.Fatal(err)
	}
	checkSane(t, "big.py", src, defs)
	want := strings.Count(string(src), "def ") + strings.Count(string(src), "class ")
	if len(defs) != want {
		t.Errorf("got %d defs, want %d", len(defs), want)
	}
}

func TestPyStrip(t *testing.T) {
	tests := []struct{ in, want string }{
		{"  name\t\n", "name"},
		{"\x1cname\x1f", "name"}, // Python counts the separators as space
		{"\u00a0x\u3000", "x"},
		{"\u2028x\u0085", "x"},
		{"\u200bx", "\u200bx"}, // zero-width space is not space in Python
		{" \x0b\x0c ", ""},
	}
	for _, tc := range tests {
		if got := python.StripSpace(tc.in); got != tc.want {
			t.Errorf("python.StripSpace(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTimeout: a grammar loop (swift on a mutated TSX file, found by
// fuzzing; it ran for over eight minutes) ends at the deadline with an
// error, and the parser pool stays usable afterwards. The loop never ends
// by itself, so the outcome does not depend on the machine's speed.
func TestTimeout(t *testing.T) {
	src := readFixture(t, filepath.Join("testdata", "hang", "mutated_tsx.swift"))
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	defs, err := Defs(ctx, "hang.swift", src)
	if !errors.Is(err, context.DeadlineExceeded) || defs != nil {
		t.Fatalf("got %v, %v; want deadline exceeded", defs, err)
	}
	fx := filepath.Join("testdata", "lang", "sample.swift")
	if defs, err := testDefs(fx, readFixture(t, fx)); err != nil || len(defs) != 6 {
		t.Errorf("after a timeout: %d defs, %v", len(defs), err)
	}

	done, cancel2 := context.WithCancel(context.Background())
	cancel2()
	if _, err := Defs(done, "x.py", []byte("def f(): pass\n")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	if _, err := Defs(done, "x.md", nil); err != nil {
		t.Errorf("unmapped language with a cancelled context: %v", err)
	}
}

// TestPoolNotPoisoned repeats short parses whose contexts end right after
// each parse; go-tree-sitter's watcher goroutine can then raise the cancel
// flag of a pooled parser, which made later parses fail at random.
func TestPoolNotPoisoned(t *testing.T) {
	src := readFixture(t, filepath.Join("testdata", "mod.py"))
	for i := 0; i < 2000; i++ {
		defs, err := testDefs("pkg/mod.py", src)
		if err != nil || len(defs) != 4 {
			t.Fatalf("run %d: %d defs, %v", i, len(defs), err)
		}
	}
}

// TestDeepArrows: naming a chain of nested nameless arrows is quadratic;
// it must still finish and name none of them.
func TestDeepArrows(t *testing.T) {
	src := []byte("f(" + strings.Repeat("() => ", 3000) + "0)")
	defs, err := testDefs("deep.js", src)
	if err != nil {
		t.Fatal(err)
	}
	if len(defs) != 3000 {
		t.Fatalf("got %d defs, want 3000", len(defs))
	}
	for _, d := range defs {
		if d.Name != "" || d.Type != "arrow_function" {
			t.Fatalf("unexpected def %v", d)
		}
	}
}
