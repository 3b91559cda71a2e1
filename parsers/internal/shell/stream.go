package shell

import "github.com/trajscope/trajscope/model"

// stream is what flows through a pipe: regions of files (views), or the
// output of a search that the observation can be read for (spec).
type stream struct {
	views []view
	// numbered: each line carries its file line number (nl -ba, cat -n).
	numbered bool
	// spec: the lines are search output of this shape.
	spec *obsSpec
	// hits are files the stream's producer searched.
	hits []string
	// text is the stream's whole content when the command itself holds
	// it (a here-document, echo of literal words); nil otherwise.
	text *string
}

// view is a region of one file in a stream.
type view struct {
	file  string
	kind  model.ReadKind
	start int
	end   int
}

func (v view) read() (model.ObservedRead, bool) {
	if v.file == "" {
		return model.ObservedRead{}, false
	}
	switch v.kind {
	case model.ReadRange:
		if v.start < 1 || v.end < v.start {
			return model.ObservedRead{}, false
		}
	case model.ReadHead, model.ReadTail:
		if v.end < 1 {
			return model.ObservedRead{}, false
		}
	case model.ReadFrom:
		if v.start < 1 {
			return model.ObservedRead{}, false
		}
	}
	return model.ObservedRead{File: v.file, Kind: v.kind, Start: v.start, End: v.end}, true
}

// window returns the view as a 1-based line window when it has a known
// start: from (inclusive) and to (inclusive, -1 = end of file).
func (v view) window() (from, to int, ok bool) {
	switch v.kind {
	case model.ReadWhole:
		return 1, -1, true
	case model.ReadHead:
		return 1, v.end, true
	case model.ReadRange:
		return v.start, v.end, true
	case model.ReadFrom:
		return v.start, -1, true
	}
	return 0, 0, false // tail: the start depends on the file length
}

// fromWindow builds a view from a window.
func fromWindow(file string, from, to int) view {
	switch {
	case to == -1 && from <= 1:
		return view{file: file, kind: model.ReadWhole}
	case to == -1:
		return view{file: file, kind: model.ReadFrom, start: from}
	case from <= 1:
		return view{file: file, kind: model.ReadHead, start: 1, end: to}
	}
	return view{file: file, kind: model.ReadRange, start: from, end: to}
}

// selectLines applies "print stream lines a..b" (b = -1: to the end) to a
// view. ok is false when nothing of the view remains.
func selectLines(v view, a, b int) (view, bool) {
	if a < 1 {
		a = 1
	}
	from, to, known := v.window()
	if !known {
		// Lines of a tail: only a suffix selection keeps a tail shape.
		if b == -1 {
			n := v.end - a + 1
			if n < 1 {
				return view{}, false
			}
			return view{file: v.file, kind: model.ReadTail, end: n}, true
		}
		return v, true // over-approximation: documented in headN/tailN
	}
	nf := from + a - 1
	nt := -1
	if b != -1 {
		nt = from + b - 1
	}
	if to != -1 && (nt == -1 || nt > to) {
		nt = to
	}
	if nt != -1 && nt < nf {
		return view{}, false
	}
	out := fromWindow(v.file, nf, nt)
	if out.kind == model.ReadHead {
		// An explicit line selection reads as a range; head() keeps the
		// head shape itself.
		out.kind = model.ReadRange
	}
	return out, true
}

// tailLines applies "the last n lines of the stream" to a view.
func tailLines(v view, n int) (view, bool) {
	if n < 1 {
		return view{}, false
	}
	from, to, known := v.window()
	switch {
	case !known:
		if n < v.end {
			v.end = n
		}
		return v, true
	case to == -1:
		// The last n lines of the file (when it has more than n lines
		// after from: an over-approximation otherwise).
		return view{file: v.file, kind: model.ReadTail, end: n}, true
	}
	nf := to - n + 1
	if nf < from {
		nf = from
	}
	return view{file: v.file, kind: model.ReadRange, start: nf, end: to}, true
}
