package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/story"
)

// OutcomeWords says how a run ended in a few words ("Submitted",
// "ExploreContextEnforcementExceeded · not submitted · 3 submits
// rejected"); "" when the run records nothing of it.
func OutcomeWords(o *story.Outcome) string {
	var parts []string
	if o.ExitStatus != "" {
		parts = append(parts, o.ExitStatus)
		if !o.Submitted {
			parts = append(parts, "not submitted")
		}
	}
	if o.Rejected > 0 {
		parts = append(parts, fmt.Sprintf("%d %s rejected", o.Rejected, Plural(o.Rejected, "submit")))
	}
	return strings.Join(parts, " · ")
}

// OutcomeMark is the outcome in a glyph and a word or two, for a header or
// a list cell: "✓ Submitted", "✗ LimitsExceeded"; "" when nothing is
// recorded.
func OutcomeMark(o *story.Outcome) string {
	switch {
	case o.ExitStatus == "" && o.Rejected == 0:
		return ""
	case o.ExitStatus == "":
		return fmt.Sprintf("✗ %d rejected", o.Rejected)
	case o.Submitted:
		return "✓ " + o.ExitStatus
	}
	return "✗ " + o.ExitStatus
}
