package svg

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/trajscope/trajscope/export/internal/browsertest"
	"github.com/trajscope/trajscope/export/internal/exporttest"
	"github.com/trajscope/trajscope/export/screen"
)

// The still opened on its own scales to the window, up on a large screen
// and down on a small one, keeping its proportions; its width and height
// stay its size where it is placed (slides, an <img>).
func TestBrowserStillScales(t *testing.T) {
	path := filepath.Join(t.TempDir(), "still.svg")
	if err := os.WriteFile(path, draw(t, exporttest.Demo(t), screen.Options{Width: 100, Height: 30, Theme: "dark", Step: 6}), 0o644); err != nil {
		t.Fatal(err)
	}
	b := browsertest.Open(t, path, "", "document.documentElement.getBoundingClientRect().width > 0")
	defer b.Quiet()
	w0 := browsertest.Eval[float64](b, "document.documentElement.getAttribute('width') * 1")
	for _, vp := range [][2]int64{{1920, 1080}, {640, 400}} {
		b.Do(chromedp.EmulateViewport(vp[0], vp[1]))
		r := browsertest.Eval[[]float64](b, "(r => [r.width, r.height])(document.documentElement.getBoundingClientRect())")
		fits := r[0] <= float64(vp[0])+1 && r[1] <= float64(vp[1])+1
		filled := r[0] >= float64(vp[0])-1 || r[1] >= float64(vp[1])-1
		if !fits || !filled {
			t.Errorf("at %dx%d the still is %.0fx%.0f (its own width %g): it does not scale to the window", vp[0], vp[1], r[0], r[1], w0)
		}
	}
}
