package runset

import (
	"testing"

	"github.com/trajscope/trajscope/live"
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

