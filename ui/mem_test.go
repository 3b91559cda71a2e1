//go:build promises

package ui

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/testkit"
)

// helperEnv names the gold end line TestTUIHelper is to open the explorer
// with, and whether without the repository ("1e11,norepo").
const helperEnv = "TRAJSCOPE_TUI_HELPER"

// TestTUIHelper is the child of TestPromiseTUIHugeGoldSpan: it opens the explorer
// on the demo with a gold span claiming a huge end, renders every step and
// the gold jumps, the picker and the gold panel.
func TestTUIHelper(t *testing.T) {
	spec := os.Getenv(helperEnv)
	if spec == "" {
		t.Skip("run by TestPromiseTUIHugeGoldSpan")
	}
	var end float64
	var mode string
	fmt.Sscanf(spec, "%g,%s", &end, &mode)
	huge := int(end)
	v := variant{noRepo: mode == "norepo", gold: func(g *model.Gold) {
		g.Init = append(g.Init, model.GoldSpan{File: "pricebook/discounts.py", Start: 1, End: huge},
			model.GoldSpan{File: "pkg/nope.py", Start: 5, End: huge})
	}}
	a := v.analysis(t)
	for _, lens := range model.Lenses {
		m := newModel(t, a, Options{Lens: lens}, 120, 40)
		for i := 0; i < len(a.Run.Actions); i++ {
			typeKeys(m, "l")
			m.View()
		}
		typeKeys(m, "]", "]", "]", "m", "m", "f", "j", "j", "enter", "shift+tab", "j", "j", "enter")
		m.View()
	}
	fmt.Println("rendered")
}

// A gold span claiming a huge end (1e11, 4e9, 2^62 lines) costs the
// explorer what the file and the run have, with the repository and
// without: per-line tables are as long as the file, never as the claim.
func TestPromiseTUIHugeGoldSpan(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the explorer in capped child processes")
	}
	for _, end := range []string{"1e11", "4e9", strconv.Itoa(1 << 62)} {
		for _, mode := range []string{"repo", "norepo"} {
			// The test binary maps about 1 GiB of address space before it
			// allocates anything; the peak RSS is what is bounded.
			r := testkit.RunCapped(t, 3<<30, []string{helperEnv + "=" + end + "," + mode}, os.Args[0], "-test.run=^TestTUIHelper$", "-test.v")
			if r.Code != 0 || !strings.Contains(r.Stdout, "rendered") {
				t.Errorf("end %s, %s: exit %d\n%.2000s\n%.2000s", end, mode, r.Code, r.Stdout, r.Stderr)
				continue
			}
			if r.PeakRSS > 200<<20 {
				t.Errorf("end %s, %s: peak RSS %d MB, want under 200", end, mode, r.PeakRSS>>20)
			}
			t.Logf("end %s, %s: peak RSS %d MB", end, mode, r.PeakRSS>>20)
		}
	}
}
