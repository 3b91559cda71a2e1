package live

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// What a look at the file reports, change by change: a half-written line
// waits for its newline, a shorter file is truncated, another file under
// the name is a replacement.
func TestLook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	f, err := Follow(path, Options{Idle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	f.Close() // looked at by hand below
	appendText := func(s string) {
		fh, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		fh.WriteString(s)
		fh.Close()
	}
	type want struct {
		kind Kind
		ok   bool
	}
	for _, c := range []struct {
		name   string
		change func()
		want   want
	}{
		{"nothing new", func() {}, want{0, false}},
		{"half a line", func() { appendText(`{"a":`) }, want{0, false}},
		{"its end", func() { appendText("1}\n") }, want{Grew, true}},
		{"two lines", func() { appendText("{}\n{}\n") }, want{Grew, true}},
		{"truncated", func() { os.WriteFile(path, []byte("{}\n"), 0o644) }, want{Truncated, true}},
		{"replaced", func() {
			other := filepath.Join(dir, "new.jsonl")
			os.WriteFile(other, []byte("{}\n{}\n{}\n{}\n{}\n"), 0o644)
			os.Rename(other, path)
		}, want{Replaced, true}},
	} {
		c.change()
		if k, ok := f.look(); (want{k, ok}) != c.want {
			t.Errorf("%s: %v %v, want %+v", c.name, k, ok, c.want)
		}
	}
}

// Following delivers a change through the file system's notifications,
// and says when the file has gone quiet.
func TestFollowDelivers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	first := func(idle time.Duration, change func()) Kind {
		f, err := Follow(path, Options{Idle: idle})
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		change()
		select {
		case ev := <-f.C:
			return ev.Kind
		case <-time.After(time.Minute): // a hang guard, not a speed claim
			t.Fatal("no event")
		}
		return 0
	}
	if k := first(time.Hour, func() { os.WriteFile(path, []byte("{}\n{}\n"), 0o644) }); k != Grew {
		t.Errorf("a written line: %v, want Grew", k)
	}
	if k := first(time.Millisecond, func() {}); k != Idle {
		t.Errorf("nothing written: %v, want Idle", k)
	}
}

// A transcript written beside the followed one is a change of the
// session when the caller says such files are its sub-agents' (Codex).
func TestFollowSiblings(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-a.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	f, err := Follow(path, Options{Idle: time.Hour, Siblings: func(name string) bool { return strings.HasPrefix(name, "rollout-") }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644) // not a sibling
	os.WriteFile(filepath.Join(dir, "rollout-b.jsonl"), []byte("{}\n"), 0o644)
	select {
	case ev := <-f.C:
		if ev.Kind != Grew {
			t.Errorf("a sibling written: %v, want Grew", ev.Kind)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("a sibling written: no event")
	}
}

// A file beside the followed one that is no sibling changes nothing: the
// first event is the silence.
func TestFollowIgnoresOtherFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "rollout-a.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	f, err := Follow(path, Options{Idle: 300 * time.Millisecond, Siblings: func(name string) bool { return strings.HasPrefix(name, "rollout-") }})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte("{}\n"), 0o644)
	select {
	case ev := <-f.C:
		if ev.Kind != Idle {
			t.Errorf("another file written: %v, want only the silence", ev.Kind)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("no event")
	}
}

// A bare file name, followed from its own folder, is followed as any path
// (issue 46: "● live", then "nothing written" while it grew).
func TestFollowBareName(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	os.WriteFile("s.jsonl", []byte("{}\n"), 0o644)
	f, err := Follow("s.jsonl", Options{Idle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte("{}\n{}\n"), 0o644)
	select {
	case ev := <-f.C:
		if ev.Kind != Grew {
			t.Errorf("%v, want Grew", ev.Kind)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("no event for a bare name")
	}
}

// A write that ends halfway through a line reports the whole lines before
// it at once (issue 46: 47 actions held back until the newline came).
func TestFollowReportsWholeLinesBeforeAHalfLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	f, err := Follow(path, Options{Idle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	os.WriteFile(path, []byte("{}\n{}\n{}\n{\"half"), 0o644)
	select {
	case ev := <-f.C:
		if ev.Kind != Grew {
			t.Errorf("%v, want Grew", ev.Kind)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("the whole lines before a half line were held back")
	}
}

// A deleted file is said once; one made again under the name is the file
// replaced (issue 46 #3).
func TestFollowDeleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte("{}\n"), 0o644)
	f, err := Follow(path, Options{Idle: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	next := func() Kind {
		t.Helper()
		select {
		case ev := <-f.C:
			return ev.Kind
		case <-time.After(time.Minute): // a hang guard, not a speed claim
			t.Fatal("no event")
		}
		return 0
	}
	os.Remove(path)
	if k := next(); k != Deleted {
		t.Fatalf("%v, want Deleted", k)
	}
	os.WriteFile(path, []byte("{}\n{}\n"), 0o644)
	if k := next(); k != Replaced {
		t.Errorf("%v, want Replaced", k)
	}
}
