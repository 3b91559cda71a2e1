// Package cast records the explorer's autoplay as an asciinema v2 file: a
// JSON header line, then one [time, "o", text] event per screen change. The
// playback is deterministic: it is the explorer's own autoplay (ui.Model
// Advance) on a fixed-size screen, timed by its interval instead of a clock,
// holding longer on a step that finds new gold. Each event redraws only the
// rows that changed, from the screen's cells (package screen); every row is
// written whole and ends with its styles reset, so applying the events in
// order reproduces each screen exactly. Nothing from the run reaches the
// file except through the explorer's panes, which make it inert.
package cast

import (
	"bufio"
	"encoding/json"
	"fmt"
	"github.com/trajscope/trajscope/ui"
	"io"
	"strconv"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/story"
)

// Options configure a recording.
type Options struct {
	screen.Options
	// GoldHold is how many intervals a step that finds new gold stays on
	// screen (0: 3), so the audience sees what was found.
	GoldHold int
	// Note, when set, hears what the reader of the recording should know
	// (that it samples the steps of a long run).
	Note func(string)
}

// MaxFrames bounds a recording: a run of more steps is sampled, every
// k-th step shown (a step that finds gold is held as long as the steps it
// stands for), so its length and the time to make it stay those of a long
// talk, whatever the run.
const MaxFrames = 1000

// Header is the first line of an asciinema v2 file.
type Header struct {
	Version int               `json:"version"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Title   string            `json:"title,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
}

// Control sequences the recording writes itself: hide the cursor and clear
// the screen first, put it back at the end, and move to a row's first
// column before redrawing it.
const (
	start = "\x1b[?25l\x1b[2J"
	end   = "\x1b[?25h"
)

// Goto moves the cursor to the start of row y (0-based).
func Goto(y int) string { return "\x1b[" + strconv.Itoa(y+1) + ";1H" }

// Write records the autoplay of an analysed run from o.Step to the last step.
func Write(w io.Writer, st *story.Story, o Options) error {
	a := st.A
	if o.GoldHold <= 0 {
		o.GoldHold = ui.GoldHold // as the explorer's autoplay holds
	}
	o.Autoplay = true
	m, err := screen.Open(st, o.Options)
	if err != nil {
		return err
	}
	b := bufio.NewWriter(w)
	h := Header{Version: 2, Width: o.Width, Height: o.Height,
		Title: "trajscope · " + termsafe.Line(a.Run.InstanceID), Env: map[string]string{"TERM": "xterm-256color"}}
	if err := writeJSON(b, h); err != nil {
		return err
	}
	step := m.Interval()
	acts := a.Lenses[o.Lens].Actions
	stride := max(1, (len(acts)-1-m.Current()+MaxFrames-2)/(MaxFrames-1))
	if stride > 1 && o.Note != nil {
		o.Note(fmt.Sprintf("the recording shows one step in %d of the run's %d (at most %d frames); --step N starts it later", stride, len(acts), MaxFrames))
	}
	var prev []uv.Line
	t := time.Duration(0)
	gold := acts[m.Current()].NewGold > 0
	for more := true; ; {
		cur := screen.Grab(m, o.Width, o.Height)
		data := diff(prev, cur)
		if prev == nil {
			data = start + data
		}
		if err := event(b, t, data); err != nil {
			return err
		}
		prev = cur
		if !more {
			break
		}
		hold := step
		if gold {
			hold *= time.Duration(o.GoldHold)
		}
		t += hold
		gold = false
		for k := 0; k < stride && more; k++ {
			more = m.Advance()
			gold = gold || acts[m.Current()].NewGold > 0
		}
	}
	if err := event(b, t+2*step, end); err != nil {
		return err
	}
	return b.Flush()
}

// diff redraws the rows of cur that differ from prev (all of them when prev
// is nil).
func diff(prev, cur []uv.Line) string {
	var out []byte
	for y, l := range cur {
		if prev != nil && equal(prev[y], l) {
			continue
		}
		out = append(out, Goto(y)...)
		out = append(out, l.Render()...)
	}
	return string(out)
}

func equal(a, b uv.Line) bool {
	if len(a) != len(b) {
		return false
	}
	for x := range a {
		if !a[x].Equal(&b[x]) {
			return false
		}
	}
	return true
}

// event writes one output event; times are seconds with millisecond
// precision, so they stay exact and monotonic.
func event(b *bufio.Writer, t time.Duration, data string) error {
	text, err := json.Marshal(data)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(b, "[%s, \"o\", %s]\n", strconv.FormatFloat(t.Seconds(), 'f', 3, 64), text)
	return err
}

func writeJSON(b *bufio.Writer, v any) error {
	text, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b.Write(text)
	return b.WriteByte('\n')
}
