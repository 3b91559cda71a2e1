package symbols

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAPIDeclarations: every declaration in tsapi.h is word for word one
// of the api.h that go-tree-sitter bundles at the version go.mod names, so
// walk.c calls the library it links as that library declares it.
func TestAPIDeclarations(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/smacker/go-tree-sitter").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no go command or module cache: nothing to compare with
	}
	api, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "api.h"))
	if err != nil {
		t.Fatal(err)
	}
	ours, err := os.ReadFile("tsapi.h")
	if err != nil {
		t.Fatal(err)
	}
	bundled := normalizeC(string(api))
	n := 0
	for _, decl := range strings.Split(normalizeC(string(ours)), ";") {
		decl = strings.TrimSpace(decl)
		// The guard, the includes and the grammars' entry points (declared
		// by each grammar, not by api.h) are not api.h's.
		if i := strings.LastIndex(decl, "#include <stdint.h>"); i >= 0 {
			decl = strings.TrimSpace(decl[i+len("#include <stdint.h>"):])
		}
		if decl == "" || strings.HasPrefix(decl, "#endif") || strings.Contains(decl, "*tree_sitter_") {
			continue
		}
		n++
		if !strings.Contains(bundled, decl+";") {
			t.Errorf("tsapi.h declares %q, which the bundled api.h does not", decl)
		}
	}
	if n < 20 {
		t.Errorf("checked %d declarations: tsapi.h read wrong", n)
	}
}

var (
	cComments = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)
	cSpace    = regexp.MustCompile(`\s+`)
	cTight    = regexp.MustCompile(`\s*([(),;{}])\s*`)
)

// normalizeC strips comments and lays C text out on one line, with single
// spaces and none around punctuation.
func normalizeC(s string) string {
	s = cComments.ReplaceAllString(s, " ")
	s = cSpace.ReplaceAllString(s, " ")
	return cTight.ReplaceAllString(s, "$1")
}
