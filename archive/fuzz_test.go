package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzMount: any bytes under an archive's name give members or one error,
// never a panic; every member is inside the archive's path.
func FuzzMount(f *testing.F) {
	dir := f.TempDir()
	for _, name := range []string{"seed.tar.gz", "seed.zip"} {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, ".zip") {
			writeZip(f, p)
		} else {
			writeTarGz(f, p)
		}
		b, _ := os.ReadFile(p)
		f.Add(b, strings.HasSuffix(name, ".zip"))
	}
	f.Add([]byte("\x1f\x8b\x08\x00"), false)
	f.Add([]byte("PK\x05\x06"+strings.Repeat("\x00", 18)), true)
	f.Fuzz(func(t *testing.T, data []byte, zip bool) {
		name := "f.tar.gz"
		if zip {
			name = "f.zip"
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		paths, _, err := Mount(p)
		if err != nil {
			return
		}
		for _, m := range paths {
			if !strings.HasPrefix(m, p+"/") || strings.Contains(m[len(p):], "/../") {
				t.Fatalf("member %q outside %q", m, p)
			}
		}
	})
}
