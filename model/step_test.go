package model

import "testing"

// Equal compares files, spans and symbols; SameLines leaves symbols aside.
func TestStepEqual(t *testing.T) {
	base := Step{Files: []string{"a.py"}, Spans: []FileSpans{{File: "a.py", Spans: []Interval{{1, 3}}}},
		Symbols: []FileSymbols{{File: "a.py", Symbols: []string{"f"}}}}
	for _, c := range []struct {
		name                   string
		o                      Step
		equal, same, identical bool
	}{
		{"itself", base, true, true, true},
		{"a copy", Step{Files: []string{"a.py"}, Spans: []FileSpans{{File: "a.py", Spans: []Interval{{1, 3}}}}, Symbols: []FileSymbols{{File: "a.py", Symbols: []string{"f"}}}}, true, true, false},
		{"its lines shorter", Step{Files: base.Files, Spans: base.Spans[:0], Symbols: base.Symbols}, false, false, false},
		{"another file", Step{Files: []string{"b.py"}, Spans: base.Spans, Symbols: base.Symbols}, false, false, false},
		{"other lines", Step{Files: base.Files, Spans: []FileSpans{{File: "a.py", Spans: []Interval{{1, 4}}}}, Symbols: base.Symbols}, false, false, false},
		{"lines of another file", Step{Files: base.Files, Spans: []FileSpans{{File: "b.py", Spans: []Interval{{1, 3}}}}, Symbols: base.Symbols}, false, false, false},
		{"another symbol", Step{Files: base.Files, Spans: base.Spans, Symbols: []FileSymbols{{File: "a.py", Symbols: []string{"g"}}}}, false, true, false},
		{"no symbols", Step{Files: base.Files, Spans: base.Spans}, false, true, false},
	} {
		if got := base.Identical(c.o); got != c.identical {
			t.Errorf("%s: Identical %v, want %v", c.name, got, c.identical)
		}
		if got := base.Equal(c.o); got != c.equal {
			t.Errorf("%s: Equal %v, want %v", c.name, got, c.equal)
		}
		if got := base.SameLines(c.o); got != c.same {
			t.Errorf("%s: SameLines %v, want %v", c.name, got, c.same)
		}
	}
}
