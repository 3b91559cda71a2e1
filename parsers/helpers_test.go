package parsers

import (
	"os"
	"path/filepath"
	"testing"
)

// writer returns a function that writes a file under dir (making its
// folders) and returns its path: the runs a test writes in each format.
func writer(t *testing.T, dir string) func(name, body string) string {
	return func(name, body string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
}
