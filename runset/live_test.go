package runset

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/trajscope/trajscope/live"
	"github.com/trajscope/trajscope/model"
)

// The events that came while a reading was made are one reading; a
// truncation among them is what it says.
func TestLatestEvent(t *testing.T) {
	for _, c := range []struct {
		first live.Kind
		more  []live.Kind
		want  live.Kind
	}{
		{live.Grew, nil, live.Grew},
		{live.Grew, []live.Kind{live.Grew, live.Truncated, live.Grew}, live.Truncated},
		{live.Replaced, []live.Kind{live.Grew}, live.Replaced},
		{live.Grew, []live.Kind{live.Idle}, live.Idle},
	} {
		ch := make(chan live.Event, len(c.more))
		for _, k := range c.more {
			ch <- live.Event{Kind: k}
		}
		if got := latest(live.Event{Kind: c.first}, ch); got.Kind != c.want || len(ch) != 0 {
			t.Errorf("%v then %v: %v (%d left), want %v", c.first, c.more, got.Kind, len(ch), c.want)
		}
	}
}

// A followed file replaced by a FIFO is not read (reading it would wait
// for a writer forever): the reading says so, and following stops when
// asked (issue 48 #5: q hung).
func TestWatchFileReplacedByFIFO(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	line := `{"type": "user", "uuid": "u0", "sessionId": "s", "message": {"role": "user", "content": "go"}}` + "\n"
	os.WriteFile(path, []byte(line), 0o644)
	s, err := New([]string{path}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.Prepare(Options{Sem: model.ContextBench})
	s.LoadAll()
	updates := make(chan Update, 16)
	stop := s.Watch(1, time.Hour, func(u Update) { updates <- u })
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		stop()
		t.Skip(err)
	}
	for u := range updates {
		if strings.Contains(u.Note, "no longer a regular file") {
			if u.St != nil {
				t.Error("a FIFO was read")
			}
			break
		}
	}
	stop()
}

// A session last written days ago is not "live" from the start: the first
// update says it looks ended, and how long it has been (issue 46 #3).
func TestWatchOldFileStartsEnded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(path, []byte(`{"type": "user", "uuid": "u0", "sessionId": "s", "message": {"role": "user", "content": "go"}}`+"\n"), 0o644)
	old := time.Now().Add(-75 * time.Hour)
	os.Chtimes(path, old, old)
	s, err := New([]string{path}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.Prepare(Options{Sem: model.ContextBench})
	s.LoadAll()
	updates := make(chan Update, 4)
	stop := s.Watch(1, 2*time.Minute, func(u Update) { updates <- u })
	defer stop()
	select {
	case u := <-updates:
		if !u.Ended || u.Note != "nothing written for 3 days: the session looks ended" {
			t.Errorf("first update %+v", u)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed claim
		t.Fatal("no update")
	}
}
