package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/internal/python"
)

// Every regular expression the packages compile on first use (lazyre.New,
// python.LazyRegexp) compiles: each call's pattern, a string constant
// (literals, and the package's constants joined by +), is read from the
// source and compiled here, so one that would panic fails the tests rather
// than the first run that needs it. The patterns need not be run to be
// checked, and nothing is registered for the check.
func TestEveryPatternCompiles(t *testing.T) {
	fset := token.NewFileSet()
	pkgs := map[string][]*ast.File{}
	filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			if d != nil && d.IsDir() && path != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		pkgs[filepath.Dir(path)] = append(pkgs[filepath.Dir(path)], f)
		return nil
	})
	// Every package's string constants, by package name: a pattern may
	// join another package's (python.ReWordStart).
	all := map[string]map[string]ast.Expr{}
	for _, files := range pkgs {
		for _, f := range files {
			consts := all[f.Name.Name]
			if consts == nil {
				consts = map[string]ast.Expr{}
				all[f.Name.Name] = consts
			}
			for _, decl := range f.Decls {
				if g, ok := decl.(*ast.GenDecl); ok && g.Tok == token.CONST {
					for _, spec := range g.Specs {
						vs := spec.(*ast.ValueSpec)
						for i, name := range vs.Names {
							if i < len(vs.Values) {
								consts[name.Name] = vs.Values[i]
							}
						}
					}
				}
			}
		}
	}
	n := 0
	for dir, files := range pkgs {
		for _, f := range files {
			consts := constants{all, f.Name.Name}
			ast.Inspect(f, func(node ast.Node) bool {
				call, ok := node.(*ast.CallExpr)
				if !ok || len(call.Args) != 1 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok {
					return true
				}
				pkg, ok := sel.X.(*ast.Ident)
				if !ok {
					return true
				}
				name := pkg.Name + "." + sel.Sel.Name
				if name != "lazyre.New" && name != "python.LazyRegexp" {
					return true
				}
				where := fset.Position(call.Pos()).String()
				pattern, ok := constString(call.Args[0], consts)
				if !ok {
					t.Errorf("%s: %s of a pattern that is not a constant string (%s): it cannot be checked here", where, name, dir)
					return true
				}
				n++
				if name == "python.LazyRegexp" {
					pattern = python.TranslateRegexp(pattern)
				}
				if _, err := regexp.Compile(pattern); err != nil {
					t.Errorf("%s: %v", where, err)
				}
				return true
			})
		}
	}
	if n < 130 {
		t.Errorf("%d patterns found; the packages hold about 140", n)
	}
}

// constants are the string constants of every package, and the package
// an expression is in.
type constants struct {
	all map[string]map[string]ast.Expr
	pkg string
}

// constString evaluates a constant string expression: literals, the
// packages' constants, and + of them.
func constString(e ast.Expr, consts constants) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.Ident:
		if v, ok := consts.all[consts.pkg][e.Name]; ok {
			return constString(v, consts)
		}
	case *ast.SelectorExpr:
		if pkg, ok := e.X.(*ast.Ident); ok {
			if v, ok := consts.all[pkg.Name][e.Sel.Name]; ok {
				return constString(v, constants{consts.all, pkg.Name})
			}
		}
	case *ast.ParenExpr:
		return constString(e.X, consts)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, ok1 := constString(e.X, consts)
			b, ok2 := constString(e.Y, consts)
			return a + b, ok1 && ok2
		}
	}
	return "", false
}
