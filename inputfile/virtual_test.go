package inputfile

import (
	"fmt"
	"reflect"
	"testing"
)

// Glob finds mounted files by their directory (a pattern in one directory
// looks at its files alone) and still by a pattern over directories.
func TestGlobMountedByDirectory(t *testing.T) {
	root := "/virtual-glob.tar.gz"
	for i := range 1000 {
		Mount(fmt.Sprintf("%s/d%d/run.json", root, i), []byte("{}"))
	}
	Mount(root+"/d7/session-1-abc.json", []byte("{}"))
	if got := Glob(root + "/d7/session-*-abc.json*"); !reflect.DeepEqual(got, []string{root + "/d7/session-1-abc.json"}) {
		t.Errorf("one directory: %q", got)
	}
	if got := Glob(root + "/d*/session-*.json"); len(got) != 1 {
		t.Errorf("over directories: %q", got)
	}
	if got := Glob(root + "/d1/*.json"); len(got) != 1 {
		t.Errorf("d1: %q", got)
	}
}
