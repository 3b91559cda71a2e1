package symbols

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// genPython writes about n lines of Python: classes with methods, top-level
// functions, comments and nested helpers, like a typical library module.
func genPython(n int) []byte {
	var b strings.Builder
	b.WriteString("import os\nimport sys\n\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "\n\nclass Model%d(Base):\n    \"\"\"Docstring %d.\"\"\"\n\n", i, i)
		for m := 0; m < 4; m++ {
			fmt.Fprintf(&b, "    def method_%d(self, x, y=%d):\n", m, m)
			b.WriteString("        # compute something\n")
			fmt.Fprintf(&b, "        total = [v * %d for v in range(x) if v %% 2]\n", m)
			b.WriteString("        if total:\n            return sum(total) + y\n")
			b.WriteString("        return {\"x\": x, \"y\": y}\n\n")
		}
		fmt.Fprintf(&b, "\ndef helper_%d(a, *args, **kw):\n", i)
		b.WriteString("    def inner(z):\n        return z + 1\n")
		b.WriteString("    return inner(a) if a else None\n")
	}
	return []byte(b.String())
}

// genJS writes about n lines of JavaScript with classes, functions and many
// arrow functions (each one a def upstream).
func genJS(n int) []byte {
	var b strings.Builder
	b.WriteString("'use strict';\nconst util = require('util');\n")
	for i := 0; strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "\nclass Service%d extends Base {\n", i)
		b.WriteString("  constructor(opts) {\n    super(opts);\n    this.items = [];\n  }\n")
		b.WriteString("  load(list) {\n    // keep the even ones\n")
		b.WriteString("    return list.filter((x) => x % 2 === 0).map((x) => ({ id: x, name: `n${x}` }));\n  }\n")
		b.WriteString("  async run() {\n    await Promise.all(this.items.map(async (it) => { await it.start(); }));\n  }\n}\n")
		fmt.Fprintf(&b, "\nfunction make%d(a, b) {\n  const add = (p, q) => p + q;\n  return add(a, b) * %d;\n}\n", i, i)
		fmt.Fprintf(&b, "const handler%d = (req, res) => {\n  res.send(JSON.stringify({ ok: true, n: %d }));\n};\n", i, i)
	}
	return []byte(b.String())
}

func benchDefs(b *testing.B, path string, src []byte) {
	b.Helper()
	defs, err := testDefs(path, src)
	if err != nil || len(defs) == 0 {
		b.Fatalf("warm-up: %d defs, %v", len(defs), err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := testDefs(path, src); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(defs)), "defs")
}

func BenchmarkDefsPython2000(b *testing.B) {
	benchDefs(b, "gen.py", genPython(2000))
}

func BenchmarkDefsJSLarge(b *testing.B) {
	benchDefs(b, "gen.js", genJS(10000))
}

func TestGenerators(t *testing.T) {
	py := genPython(2000)
	if n := strings.Count(string(py), "\n"); n < 2000 || n > 2100 {
		t.Errorf("genPython(2000) has %d lines", n)
	}
	defs, err := testDefs("gen.py", py)
	if err != nil {
		t.Fatal(err)
	}
	// Every "def " and "class " in the generated text is a definition.
	if want := strings.Count(string(py), "def ") + strings.Count(string(py), "class "); len(defs) != want {
		t.Errorf("gen.py: %d defs, want %d", len(defs), want)
	}
	js := genJS(2000)
	defs, err = testDefs("gen.js", js)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Count(string(js), "=>") + strings.Count(string(js), "class ") +
		strings.Count(string(js), "function ") + 3*strings.Count(string(js), "constructor(")
	if len(defs) != want {
		t.Errorf("gen.js: %d defs, want %d", len(defs), want)
	}
}

// FuzzDefs checks that any bytes under any mapped extension give in-bounds
// defs of table types, never panic, and agree with the literal upstream walk.
func FuzzDefs(f *testing.F) {
	exts := make([]string, 0, len(extByLang))
	for _, lang := range []string{"python", "javascript", "typescript", "tsx", "java", "go", "rust",
		"c", "cpp", "c_sharp", "php", "ruby", "swift", "kotlin", "scala"} {
		exts = append(exts, extByLang[lang])
	}
	for p, src := range allFixtures(f) {
		ext := filepath.Ext(p)
		for i, e := range exts {
			if strings.EqualFold(e, ext) {
				f.Add(uint8(i), src)
			}
		}
	}
	f.Add(uint8(0), []byte("def \xff(:\n"))
	f.Fuzz(func(t *testing.T, lang uint8, src []byte) {
		defer testkit.FuzzBudget(t)()
		path := "f" + exts[int(lang)%len(exts)]
		// Some grammars take seconds or loop on odd input (TestTimeout;
		// C# on "{0(){A"); that is the grammar's business, not a failure
		// here, so the parse gives up well inside the input's budget.
		ctx, cancel := context.WithTimeout(context.Background(), testkit.Budget/4)
		defer cancel()
		defs, err := Defs(ctx, path, src)
		if errors.Is(err, context.DeadlineExceeded) {
			t.Skip("parse too slow")
		}
		if err != nil {
			t.Fatal(err)
		}
		checkSane(t, path, src, defs)
		checkOracle(t, path, src)
	})
}
