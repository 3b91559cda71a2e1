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

func (s Semantics) String() string {
	if s == Fixed {
		return "fixed"
	}
	return "contextbench"
}

// SemanticsNames are the values --semantics accepts, for help and completion.
var SemanticsNames = []string{"contextbench", "fixed"}

// ParseSemantics reads a --semantics value.
func ParseSemantics(v string) (Semantics, error) {
	switch strings.ToLower(v) {
	case "", "contextbench", "upstream", "parity":
		return ContextBench, nil
	case "fixed":
		return Fixed, nil
	}
	return 0, fmt.Errorf("unknown semantics %q (want contextbench or fixed)", v)
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

func (l Lens) String() string {
	if l == LensObserved {
		return "observed"
	}
	return "contextbench"
}

// LensNames are the values --lens accepts, for help and completion.
var LensNames = []string{"contextbench", "observed"}

// ParseLens reads a --lens value.
func ParseLens(v string) (Lens, error) {
	switch v {
	case "", "contextbench", "cb":
		return LensContextBench, nil
	case "observed", "obs":
		return LensObserved, nil
	}
	return 0, fmt.Errorf("unknown lens %q (want contextbench or observed)", v)
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
