package svg

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/export/screen"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

type text struct {
	row, col int
	s        string
}

// parseSVG reads the picture strictly as XML and returns its elements'
// names, every attribute name, the style sheet, the title and the texts by
// cell.
func parseSVG(t *testing.T, b []byte) (names map[string]int, attrs map[string]bool, style, title string, texts []text, bg string) {
	t.Helper()
	names, attrs = map[string]int{}, map[string]bool{}
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	var open string
	var cur *text
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			open = tok.Name.Local
			names[open]++
			var x, y, h float64
			bar := false
			for _, a := range tok.Attr {
				attrs[a.Name.Local] = true
				switch a.Name.Local {
				case "x":
					x, _ = strconv.ParseFloat(a.Value, 64)
				case "y":
					y, _ = strconv.ParseFloat(a.Value, 64)
				case "height":
					h, _ = strconv.ParseFloat(a.Value, 64)
				case "class":
					bar = a.Value == "bar"
				case "fill":
					if open == "rect" && bg == "" {
						bg = a.Value
					}
				}
			}
			if open == "text" {
				texts = append(texts, text{row: int(y / cellH), col: int(math.Round(x / cellW))})
				cur = &texts[len(texts)-1]
			}
			if bar {
				// A sparkline bar: its height, in eighths of a cell from
				// the cell's bottom, is the level glyph it stands for.
				row := int((y + h - 1) / cellH)
				k := int(math.Round(h / cellH * 8))
				if k < 1 || k > 8 || math.Abs(y+h-float64((row+1)*cellH)) > 0.01 {
					t.Fatalf("a bar of height %g at y %g is not a level standing on its cell", h, y)
				}
				texts = append(texts, text{row: row, col: int(math.Round(x / cellW)), s: string(rune('▁' + k - 1))})
			}
		case xml.CharData:
			switch open {
			case "style":
				style += string(tok)
			case "title":
				title += string(tok)
			case "text":
				cur.s += string(tok)
			}
		case xml.EndElement:
			open = ""
		}
	}
}

func draw(t *testing.T, a *scoring.Analysis, o screen.Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, story.Tell(a), o); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// The still is well-formed SVG of only rectangles and text, refers to
// nothing outside itself, and its text, cell by cell, is the explorer's
// screen at the step.
func TestStillIsTheExplorersScreen(t *testing.T) {
	cases := []struct {
		name string
		a    *scoring.Analysis
		o    screen.Options
		bg   string
	}{
		{"demo dark", exporttest.Demo(t), screen.Options{Width: 120, Height: 40, Theme: "dark", Step: 6}, "#000000"},
		{"demo light", exporttest.Demo(t), screen.Options{Width: 100, Height: 30, Theme: "light", Step: 4}, "#ffffff"},
		{"demo contrast", exporttest.Demo(t), screen.Options{Width: 80, Height: 24, Theme: "contrast", Step: 20}, "#000000"},
		{"hostile", exporttest.Hostile(t), screen.Options{Width: 120, Height: 40, Theme: "auto", Step: 1}, "#000000"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := draw(t, c.a, c.o)
			names, attrs, style, title, texts, bg := parseSVG(t, b)
			for n := range names {
				if n != "svg" && n != "title" && n != "style" && n != "rect" && n != "text" {
					t.Errorf("element <%s>", n)
				}
			}
			for a := range attrs {
				if a == "href" || strings.HasPrefix(a, "on") || a == "src" {
					t.Errorf("attribute %s", a)
				}
			}
			if strings.Contains(style, "url(") || strings.Contains(style, "@import") || strings.Contains(string(b), "://") && !strings.Contains(string(b), `xmlns="http://www.w3.org/2000/svg"`) {
				t.Error("the picture refers to something outside itself")
			}
			if bg != c.bg {
				t.Errorf("background %s, want the theme's %s", bg, c.bg)
			}
			if want := fmt.Sprintf("step %d/%d", c.o.Step, len(c.a.Run.Actions)); !strings.Contains(title, want) || !strings.Contains(title, c.a.Run.InstanceID) {
				t.Errorf("title %q, want the instance and %s", title, want)
			}
			m, err := screen.Open(story.Tell(c.a), c.o)
			if err != nil {
				t.Fatal(err)
			}
			rows := make([]string, c.o.Height)
			for _, tx := range texts {
				r := rows[tx.row]
				if w := ansi.StringWidth(r); w < tx.col {
					r += strings.Repeat(" ", tx.col-w)
				}
				rows[tx.row] = r + tx.s
			}
			for y, l := range screen.Grab(m, c.o.Width, c.o.Height) {
				if want, got := strings.TrimRight(exporttest.Plain(l), " "), strings.TrimRight(rows[y], " "); got != want {
					t.Errorf("row %d:\n got %q\nwant %q", y+1, got, want)
				}
			}
		})
	}
}

func TestHex(t *testing.T) {
	if got := hex(ansi.BasicColor(1)); got != "#800000" {
		t.Errorf("red: %s", got)
	}
	if got := hex(ansi.IndexedColor(245)); got != "#8a8a8a" {
		t.Errorf("245: %s", got)
	}
}
