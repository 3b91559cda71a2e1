package model

import (
	"fmt"
	"strings"
)

// Semantics selects between reproducing the reference evaluator bit for bit
// and correcting its known bugs.
type Semantics int

const (
	// ContextBench reproduces the upstream evaluator, quirks included.
	ContextBench Semantics = iota
	// Fixed corrects each upstream quirk that is a bug (see README).
	Fixed
)

// SemanticsNames are the values --semantics accepts, for help and
// completion, in the order of the constants.
var SemanticsNames = []string{"contextbench", "fixed"}

func (s Semantics) String() string { return SemanticsNames[min(max(int(s), 0), 1)] }

// ParseSemantics reads a --semantics value.
func ParseSemantics(v string) (Semantics, error) {
	return parseName(strings.ToLower(v), "semantics", "contextbench or fixed", map[string]Semantics{
		"": ContextBench, "contextbench": ContextBench, "upstream": ContextBench, "parity": ContextBench, "fixed": Fixed})
}

// parseName reads a flag's value by one of its names; the error says what
// the flag wants.
func parseName[T ~int](v, what, want string, names map[string]T) (T, error) {
	if x, ok := names[v]; ok {
		return x, nil
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, v, want)
}

// Lens selects which notion of "step" drives per-step coverage.
type Lens int

const (
	// LensContextBench uses the steps the upstream evaluator extracts.
	LensContextBench Lens = iota
	// LensObserved uses what each action's output really displayed.
	LensObserved
)

// Lenses lists every lens, in index order.
var Lenses = [2]Lens{LensContextBench, LensObserved}

// LensNames are the values --lens accepts, for help and completion, in the
// order of the constants.
var LensNames = []string{"contextbench", "observed"}

func (l Lens) String() string { return LensNames[min(max(int(l), 0), 1)] }

// ParseLens reads a --lens value.
func ParseLens(v string) (Lens, error) {
	return parseName(v, "lens", "contextbench or observed", map[string]Lens{
		"": LensContextBench, "contextbench": LensContextBench, "cb": LensContextBench, "observed": LensObserved, "obs": LensObserved})
}

// Granularity is one of the four levels the metrics are computed at.
type Granularity int

const (
	GranFile Granularity = iota
	GranSymbol
	GranSpan
	GranLine
)

// Granularities in the order upstream writes them.
var Granularities = [4]Granularity{GranFile, GranSymbol, GranSpan, GranLine}

var granNames = [4]string{"file", "symbol", "span", "line"}

// String is the upstream key name ("file", "symbol", "span", "line").
func (g Granularity) String() string {
	if g < 0 || int(g) >= len(granNames) {
		return fmt.Sprintf("Granularity(%d)", int(g))
	}
	return granNames[g]
}
