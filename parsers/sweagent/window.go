package sweagent

import (
	"strconv"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

// SWE-agent 0.x shows files through a viewer: open, goto, scroll_up and
// scroll_down move a window of `window` lines over the open file, and the
// shell functions behind them print "[File: PATH (N lines total)]" and the
// window's lines as "N:text". The constants and arithmetic below are those
// functions' with the default configuration (WINDOW=100, OVERLAP=2), so a
// window whose output was not recorded is still known exactly.
const (
	window  = 100
	overlap = 2
	// offset is how far above the window's middle "open f N" and "goto N"
	// put line N: N lands a sixth of the way down the window.
	offset = window / 6
)

// omittedRe matches what a history processor leaves in place of an old
// output ("Old output omitted (N lines)", "Old environment output: (N lines
// omitted)").
var omittedRe = lazyre.New(`(?i)^\s*old (?:environment )?output`)

// viewer is the viewer's state across a run: the open file, its current
// line (CURRENT_LINE) and the file's length once an output has shown it.
type viewer struct {
	file  string
	line  int
	total int // 0: no output has shown it
}

// view is what an open, goto or scroll command displayed: the window its
// output shows, which also resets the state to it; when the output is
// missing, the window the state moves to. An output without a window (a
// usage error, "File x not found", "No file open") displayed nothing and,
// as in the viewer, moved nothing. openFile is the open file a trajectory
// recorded before the command, "" when unknown.
func (v *viewer) view(name string, args []string, obs, openFile string) []model.ObservedRead {
	if openFile != "" && !sameFile(openFile, v.file) {
		v.file, v.total = openFile, 0
	}
	file, reads := windowReads(obs)
	if file != "" || len(reads) > 0 {
		if file == "" && name == "open" && len(args) > 1 {
			file = args[1]
		}
		if file == "" {
			file = v.file
		}
		v.sync(file, obs)
		if file == "" {
			return nil
		}
		for i := range reads {
			reads[i].File = file
		}
		return reads
	}
	if strings.TrimSpace(obs) != "" && !omittedRe().MatchString(obs) {
		return nil
	}
	return v.move(name, args)
}

// move applies a command to the state as the viewer does and returns the
// window it shows: a range when the file's length is known, else a window
// the repository's copy of the file resolves.
func (v *viewer) move(name string, args []string) []model.ObservedRead {
	switch name {
	case "open":
		if len(args) < 2 {
			return nil
		}
		if !sameFile(args[1], v.file) {
			v.total = 0
		}
		v.file = args[1]
		v.line = window / 2
		if len(args) > 2 {
			n, ok := lineArg(args[2])
			switch {
			case !ok:
				return nil // "<line_number> must be a number"
			case v.total > 0 && n > v.total:
				v.line = v.total
			case n < 1:
				v.line = 1
			default:
				v.line = max(n+window/2-offset, 1)
			}
		}
	case "goto":
		n, ok := 0, len(args) == 2
		if ok {
			n, ok = lineArg(args[1])
		}
		if !ok || v.file == "" || v.total > 0 && n > v.total {
			return nil // a usage error, no open file, or past the end
		}
		v.line = max(n+window/2-offset, 1)
	case "scroll_down", "scroll_up":
		if v.file == "" {
			return nil
		}
		step := window - overlap
		if name == "scroll_up" {
			step = -step
		}
		v.line = min(v.line+step, maxLine)
	default:
		return nil
	}
	v.keep()
	if v.total == 0 {
		// Kept inside the file only from above: the bound below needs its
		// length, which the window read resolves against the repository.
		return []model.ObservedRead{{File: v.file, Kind: model.ReadWindow, Start: v.line, End: window}}
	}
	r, _ := model.ObservedRead{Kind: model.ReadWindow, Start: v.line, End: window}.Resolve(v.total)
	return []model.ObservedRead{{File: v.file, Kind: model.ReadRange, Start: r.Start, End: r.End}}
}

// keep keeps the current line at least half a window from either end of
// the file, as far as its length is known.
func (v *viewer) keep() {
	if v.total > 0 {
		v.line = min(v.line, v.total-window/2)
	}
	v.line = max(v.line, window/2)
}

// sync resets the state to the window an output shows (after open, goto,
// scroll_*, create or edit): its file and length from the header, and the
// current line that puts its first numbered line at the top.
func (v *viewer) sync(file, obs string) {
	if file == "" {
		return
	}
	if !sameFile(file, v.file) {
		v.total = 0
	}
	v.file = file
	if m := windowHdrRe().FindStringSubmatch(obs); m != nil {
		if n, err := strconv.Atoi(m[2]); err == nil {
			v.total = n
		}
	}
	v.line = window / 2
	if first, ok := observed.Window.First(obs); ok {
		v.line = max(first+window/2-1, window/2)
	}
}

// maxLine bounds line numbers, so that the viewer's arithmetic cannot
// overflow; no file is that long.
const maxLine = 1 << 30

// lineArg reads a line number argument as the viewer accepts it: digits.
func lineArg(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxLine {
		n = maxLine
	}
	return n, true
}

// sameFile reports whether two spellings of a path can name one file: the
// viewer prints absolute real paths where commands give relative ones.
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return a == b
	}
	a, b = strings.TrimPrefix(a, "./"), strings.TrimPrefix(b, "./")
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}
