package cast

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

type castEvent struct {
	t    float64
	data string
}

// parseCast reads an asciinema v2 file strictly: a header object with
// version 2 and the size, then [time, "o", text] events only, at times
// that never go back.
func parseCast(t *testing.T, b []byte) (Header, []castEvent) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	if !sc.Scan() {
		t.Fatal("empty recording")
	}
	var h Header
	dec := json.NewDecoder(strings.NewReader(sc.Text()))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		t.Fatalf("header: %v", err)
	}
	var evs []castEvent
	last := -1.0
	for n := 2; sc.Scan(); n++ {
		var raw []json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &raw); err != nil || len(raw) != 3 {
			t.Fatalf("line %d: not a [time, type, data] event: %.80s", n, sc.Text())
		}
		var e castEvent
		var typ string
		if json.Unmarshal(raw[0], &e.t) != nil || json.Unmarshal(raw[1], &typ) != nil || json.Unmarshal(raw[2], &e.data) != nil {
			t.Fatalf("line %d: bad event %.80s", n, sc.Text())
		}
		if typ != "o" {
			t.Errorf("line %d: event type %q, want output only", n, typ)
		}
		if e.t < last {
			t.Errorf("line %d: time %v goes back from %v", n, e.t, last)
		}
		last = e.t
		evs = append(evs, e)
	}
	return h, evs
}

// The sequences a recording may hold: styles, moves to a row, clearing the
// screen and hiding or showing the cursor. Anything else (OSC, a bell, a
// title, a mode switch) could only have come from the run.
var allowed = regexp.MustCompile(`\x1b\[[0-9;:]*m|\x1b\[[0-9]+;1H|\x1b\[2J|\x1b\[\?25[lh]`)

var rowMove = regexp.MustCompile(`\x1b\[([0-9]+);1H`)

// apply draws an event's rows onto a screen of cells.
func apply(t *testing.T, scr []uv.Line, data string, w int) {
	t.Helper()
	data = strings.TrimPrefix(data, start)
	locs := rowMove.FindAllStringSubmatchIndex(data, -1)
	for k, loc := range locs {
		y, _ := strconv.Atoi(data[loc[2]:loc[3]])
		end := len(data)
		if k+1 < len(locs) {
			end = locs[k+1][0]
		}
		if strings.ContainsAny(data[loc[1]:end], "\r\n") || y < 1 || y > len(scr) {
			t.Fatalf("row %d: not one row of the screen", y)
		}
		scr[y-1] = screen.Cells(data[loc[1]:end], w, 1)[0]
	}
}

func record(t *testing.T, a *scoring.Analysis, o Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, story.Tell(a), o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A recording is valid asciinema v2, holds no control sequence but its own,
// is timed by the explorer's interval (longer on new gold), and each frame,
// applied to the screen, is exactly the explorer's screen at that step as a
// person stepping with l sees it.
func TestRecordingIsTheExplorersAutoplay(t *testing.T) {
	cases := []struct {
		name string
		a    *scoring.Analysis
		o    Options
	}{
		{"demo", exporttest.Demo(t), Options{Options: screen.Options{Width: 120, Height: 40, Theme: "dark", Speed: 500 * time.Millisecond}}},
		{"demo from step 5, observed, small", exporttest.Demo(t), Options{Options: screen.Options{Width: 80, Height: 24, Theme: "light", Step: 5, Lens: model.LensObserved}, GoldHold: 2}},
		{"hostile", exporttest.Hostile(t), Options{Options: screen.Options{Width: 100, Height: 30, Theme: "contrast"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			file := record(t, c.a, c.o)
			h, evs := parseCast(t, file)
			if h.Version != 2 || h.Width != c.o.Width || h.Height != c.o.Height {
				t.Fatalf("header %+v", h)
			}
			for i, e := range evs {
				if rest := allowed.ReplaceAllString(e.data, ""); strings.ContainsFunc(rest, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 }) {
					t.Fatalf("event %d holds a control sequence of its own: %q", i, rest)
				}
			}
			for _, marker := range []string{"\x1b]", "\x07", "pwn8\x07"} {
				if strings.Contains(string(file), marker) {
					t.Errorf("recording holds %q", marker)
				}
			}

			// The reference: a fresh explorer, playing, stepped with l.
			start := max(c.o.Step, 1)
			ref, err := screen.Open(story.Tell(c.a), screen.Options{Width: c.o.Width, Height: c.o.Height, Theme: c.o.Theme, Lens: c.o.Lens,
				Step: start, Autoplay: true, Speed: c.o.Speed})
			if err != nil {
				t.Fatal(err)
			}
			n := len(c.a.Run.Actions)
			steps := n - start + 1
			if len(evs) != steps+2 {
				t.Fatalf("%d events, want a frame for each of %d steps, the end of playback and the cursor", len(evs), steps)
			}
			hold := c.o.GoldHold
			if hold == 0 {
				hold = 3
			}
			scr := make([]uv.Line, c.o.Height)
			for k := 0; k < steps; k++ {
				i := start - 1 + k
				apply(t, scr, evs[k].data, c.o.Width)
				want := screen.Grab(ref, c.o.Width, c.o.Height)
				for y := range want {
					if !equal(scr[y], want[y]) {
						t.Fatalf("step %d, row %d:\n got %q\nwant %q", i+1, y+1, exporttest.Plain(scr[y]), exporttest.Plain(want[y]))
					}
				}
				dt := time.Duration((evs[k+1].t-evs[k].t)*1000+0.5) * time.Millisecond
				wantDT := ref.Interval()
				if c.a.Lenses[c.o.Lens].Actions[i].NewGold > 0 {
					wantDT *= time.Duration(hold)
				}
				if dt != wantDT {
					t.Errorf("step %d stays %v, want %v", i+1, dt, wantDT)
				}
				ref.Update(tea.KeyPressMsg{Code: 'l', Text: "l"})
			}
			apply(t, scr, evs[steps].data, c.o.Width)
			if bottom := exporttest.Plain(scr[c.o.Height-1]); !strings.Contains(bottom, "autoplay reached the last step") {
				t.Errorf("last frame's footer %q", bottom)
			}
			if evs[steps+1].data != end {
				t.Errorf("last event %q", evs[steps+1].data)
			}
			if c.name == "hostile" {
				all := ""
				for _, l := range scr {
					all += exporttest.Plain(l)
				}
				if !strings.Contains(all, `\e]52;`) && !strings.Contains(all, "pwn") {
					t.Error("the hostile run's text is not on screen")
				}
			}
		})
	}
}

func TestGoto(t *testing.T) {
	for y, want := range map[int]string{0: "\x1b[1;1H", 39: "\x1b[40;1H"} {
		if got := Goto(y); got != want {
			t.Errorf("Goto(%d) = %q, want %q", y, got, want)
		}
	}
}

// A run longer than MaxFrames steps is sampled: the recording has at most
// MaxFrames frames (and the closing one), says so, still ends on the last
// step, and a frame standing for a step that found gold is held longer.
// Its cost is one frame's per frame, whatever the gold's size.
func TestLongRunIsSampled(t *testing.T) {
	a := exporttest.Long(t, 2500, 3)
	var notes []string
	o := Options{Options: screen.Options{Width: 100, Height: 30}, Note: func(s string) { notes = append(notes, s) }}
	_, evs := parseCast(t, record(t, a, o))
	frames := len(evs) - 1 // the last event only shows the cursor
	if frames > MaxFrames+1 || frames < MaxFrames/2 {
		t.Errorf("%d frames for 2500 steps, want at most %d (and not far fewer)", frames, MaxFrames+1)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "one step in 3 of the run's 2500") {
		t.Errorf("notes %q, want one saying the recording samples one step in 3", notes)
	}
	scr := make([]uv.Line, 30)
	for _, e := range evs {
		apply(t, scr, e.data, 100)
	}
	var all strings.Builder
	for _, l := range scr {
		all.WriteString(exporttest.Plain(l))
	}
	if !strings.Contains(all.String(), "2500/2500") {
		t.Errorf("the recording does not end on the last step:\n%s", all.String())
	}
	// A short run is not sampled.
	notes = nil
	_, evs = parseCast(t, record(t, exporttest.Long(t, 40, 3), o))
	if len(notes) != 0 || len(evs) != 40+2 {
		t.Errorf("a 40-step run: %d events and notes %q, want 42 and none", len(evs), notes)
	}
}

func BenchmarkRecordLargeGold(b *testing.B) {
	a := exporttest.Long(b, 50, 20000)
	o := Options{Options: screen.Options{Width: 120, Height: 40}}
	for b.Loop() {
		if err := Write(io.Discard, story.Tell(a), o); err != nil {
			b.Fatal(err)
		}
	}
}
