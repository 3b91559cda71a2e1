package sweagent

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// windowObs prints a window as SWE-agent 0.x's viewer does: the header,
// the lines above and below, and lines first..last as "N:text".
func windowObs(path string, total, first, last int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[File: %s (%d lines total)]\n", path, total)
	if first > 1 {
		fmt.Fprintf(&b, "(%d more lines above)\n", first-1)
	}
	for n := first; n <= last; n++ {
		fmt.Fprintf(&b, "%d:line %d\n", n, n)
	}
	if last < total {
		fmt.Fprintf(&b, "(%d more lines below)\n", total-last)
	}
	return b.String()
}

func rng(file string, s, e int) []model.ObservedRead {
	return []model.ObservedRead{{File: file, Kind: model.ReadRange, Start: s, End: e}}
}

// TestViewerWindows steps one run's viewer through open, goto and scroll
// commands. Outputs that were recorded win; where an output is missing
// (empty, or omitted by a history processor) the window comes from the
// viewer's arithmetic with the default WINDOW=100 and OVERLAP=2: "open f N"
// and "goto N" set the current line to N+34, scrolls move it by 98, and it
// is kept at least 50 lines from either end, the window being its 49 lines
// above and 50 below. Every expected range is worked out by hand from that.
func TestViewerWindows(t *testing.T) {
	const big = "/repo/src/big.py" // 1000 lines, once an output says so
	steps := []struct {
		cmd, obs string
		want     []model.ObservedRead
	}{
		// Length unknown: a window the repository's file resolves.
		{"open src/big.py 120", "", []model.ObservedRead{{File: "src/big.py", Kind: model.ReadWindow, Start: 154, End: 100}}},
		// A recorded output shows the window and the length.
		{"scroll_down", windowObs(big, 1000, 203, 302), rng(big, 203, 302)},
		{"scroll_down", "", rng(big, 301, 400)},
		// 990+34 is kept at 1000-50.
		{"goto 990", "", rng(big, 901, 1000)},
		{"scroll_down", "Old output omitted (103 lines)", rng(big, 901, 1000)},
		{"scroll_up", "", rng(big, 803, 902)},
		// Past the end: goto refuses and nothing moves.
		{"goto 2000", "", nil},
		{"scroll_up", "", rng(big, 705, 804)},
		{"goto", "", nil},
		{"goto ten", "", nil},
		// An error output displayed nothing.
		{"goto 10", "Usage: goto <line>", nil},
		{"open src/big.py", "", rng("src/big.py", 1, 100)},
		// Past the end of a file of known length: the last line, no offset.
		{"open src/big.py 5000", "", rng("src/big.py", 901, 1000)},
		{"open src/big.py 0", "", rng("src/big.py", 1, 100)},
		{"open src/big.py 3", "", rng("src/big.py", 1, 100)},
		// Another file: its length is unknown again.
		{"open src/small.py 30", "", []model.ObservedRead{{File: "src/small.py", Kind: model.ReadWindow, Start: 64, End: 100}}},
		{"scroll_down", "", []model.ObservedRead{{File: "src/small.py", Kind: model.ReadWindow, Start: 162, End: 100}}},
		{"open missing.py", "File missing.py not found", nil},
		{"scroll_up", "", []model.ObservedRead{{File: "src/small.py", Kind: model.ReadWindow, Start: 64, End: 100}}},
	}
	v := &viewer{}
	for i, s := range steps {
		var a model.Action
		analyzeAction(&a, "", s.cmd, s.obs, "", v)
		if !reflect.DeepEqual(a.Reads, s.want) {
			t.Errorf("step %d %q: reads %+v, want %+v", i, s.cmd, a.Reads, s.want)
		}
	}
	// The unknown-length windows resolve exactly once the file is known:
	// line 64 in a 90-line file is kept at 50, showing it all.
	if r, ok := (model.ObservedRead{Kind: model.ReadWindow, Start: 64, End: 100}).Resolve(90); !ok || r != (model.Interval{Start: 1, End: 90}) {
		t.Errorf("window in a short file = %v", r)
	}
}

// TestViewerFollowsOutputs: the windows a real SWE-agent 0.x run printed
// (pydicom__pydicom-1458 in SWE-agent's own test data: "open
// pydicom/pixel_data_handlers/numpy_handler.py 293" in a 372-line file
// showed 273-372) agree with the viewer's arithmetic, and an edit's window
// moves the viewer while a rejected edit does not.
func TestViewerFollowsOutputs(t *testing.T) {
	const f = "/pydicom__pydicom/pydicom/pixel_data_handlers/numpy_handler.py"
	v := &viewer{file: f, total: 372}
	var a model.Action
	analyzeAction(&a, "", "open pydicom/pixel_data_handlers/numpy_handler.py 293", "", "", v)
	if want := rng(f[len("/pydicom__pydicom/"):], 273, 372); !reflect.DeepEqual(a.Reads, want) {
		t.Errorf("open 293 = %+v, want %+v (what the run printed)", a.Reads, want)
	}
	// "edit 287:296" succeeded and printed lines 237-336 of the edited file.
	edited := windowObs(f, 373, 237, 336) + "File updated. Please review the changes and make sure they are correct.\n"
	analyzeAction(&model.Action{}, "", "edit 287:296\nfixed\nend_of_edit", edited, f, v)
	if v.line != 286 || v.total != 373 {
		t.Errorf("after the edit: line %d total %d, want 286 and 373", v.line, v.total)
	}
	rejected := "Your proposed edit has introduced new syntax error(s).\nThis is how your edit would have looked if applied\n" +
		windowObs(f, 380, 280, 300) + "Your changes have NOT been applied. Please fix your edit command and try again.\n"
	analyzeAction(&model.Action{}, "", "edit 1:2\nx\nend_of_edit", rejected, f, v)
	a = model.Action{}
	analyzeAction(&a, "", "scroll_up", "", f, v)
	if want := rng(f, 139, 238); !reflect.DeepEqual(a.Reads, want) {
		t.Errorf("scroll_up after a rejected edit = %+v, want %+v", a.Reads, want)
	}
}
