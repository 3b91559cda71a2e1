package export

import (
	"bytes"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/story"
)

func TestKind(t *testing.T) {
	for in, want := range map[string]string{"run.html": ".html", "a/b/talk.CAST": ".cast", "x.svg": ".svg", "x.htm": "", "x": "", "x.html.gz": ""} {
		got, err := Kind(in)
		if got != want || (want == "") != (err != nil) {
			t.Errorf("Kind(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// Each kind writes what it should, starting as its format starts.
func TestWriteEachKind(t *testing.T) {
	a := exporttest.Demo(t)
	for kind, prefix := range map[string]string{".html": "<!DOCTYPE html>", ".cast": `{"version":2,"width":100,"height":30`, ".svg": "<svg "} {
		var b bytes.Buffer
		if err := Write(&b, kind, story.Tell(a), Options{Width: 100, Height: 30, Theme: "dark", Step: 2}); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if !strings.HasPrefix(b.String(), prefix) {
			t.Errorf("%s starts %.60q", kind, b.String())
		}
	}
	if err := Write(&bytes.Buffer{}, ".txt", story.Tell(a), Options{}); err == nil {
		t.Error("an unknown kind was written")
	}
}
