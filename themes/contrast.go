package themes

import (
	"image/color"

	"github.com/charmbracelet/x/ansi"
)

// Contrast is computed as the WCAG defines it, from the colours a terminal
// shows: 256-colour indexes 16–255 convert by the xterm palette, which every
// terminal that has them uses unchanged. Indexes 0–15 are the user's own
// palette, so the colour themes avoid them: their contrast is unknowable.

// RGB returns the red, green and blue (0–255) a terminal shows for c: an
// index by the xterm palette, anything else by its RGBA.
func RGB(c color.Color) (r, g, b uint8) {
	switch c := c.(type) {
	case ansi.IndexedColor:
		return xterm(int(c))
	case ansi.BasicColor:
		return xterm(int(c))
	}
	r32, g32, b32, _ := c.RGBA()
	return uint8(r32 >> 8), uint8(g32 >> 8), uint8(b32 >> 8)
}

// xterm converts a 256-colour index: the 6×6×6 cube from 16, the grey ramp
// from 232, and xterm's defaults for the 16 palette colours.
func xterm(i int) (r, g, b uint8) {
	switch {
	case i < 16:
		c := basic16[i&15]
		return c[0], c[1], c[2]
	case i < 232:
		i -= 16
		level := func(v int) uint8 {
			if v == 0 {
				return 0
			}
			return uint8(55 + 40*v)
		}
		return level(i / 36), level(i / 6 % 6), level(i % 6)
	}
	v := uint8(8 + 10*(i-232))
	return v, v, v
}

var basic16 = [16][3]uint8{
	{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
	{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
}
