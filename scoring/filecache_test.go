package scoring

import (
	"testing"
	"testing/fstest"

	"github.com/trajscope/trajscope/source"
)

// TestDefsSharedByContent: two trees holding the same Python file (at
// different paths) share one parse; the same bytes as another language or
// changed content do not.
func TestDefsSharedByContent(t *testing.T) {
	src := []byte("def shared_by_content_test():\n    return 1\n")
	a := NewFileCache(source.NewFS(fstest.MapFS{"a.py": {Data: src}}))
	b := NewFileCache(source.NewFS(fstest.MapFS{"pkg/b.py": {Data: src}, "c.js": {Data: src}, "d.py": {Data: append([]byte("#\n"), src...)}}))
	da, db := a.Defs("a.py"), b.Defs("pkg/b.py")
	if len(da) != 1 || da[0].Name != "shared_by_content_test" {
		t.Fatalf("defs of a.py: %+v", da)
	}
	if len(db) != 1 || &da[0] != &db[0] {
		t.Errorf("identical content parsed twice (%p, %p)", da, db)
	}
	if dc := b.Defs("c.js"); len(dc) > 0 && &dc[0] == &da[0] {
		t.Error("a .js file shared the Python parse")
	}
	dd := b.Defs("d.py")
	if len(dd) != 1 || &dd[0] == &da[0] || dd[0].Start != da[0].Start+2 {
		t.Errorf("changed content: %+v", dd)
	}
}
