package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/story"
)

// Notes the explorer and the plain summary both print, so that the two tell
// the same story in the same words.
const (
	// GlyphFailed marks a failed command in the timeline.
	GlyphFailed = "✗"
	// NotComputable stands for a measure the analysis cannot compute.
	NotComputable = "n/a"
	// GlyphSidechain marks an action a sub-agent made.
	GlyphSidechain = "↳"
	// NoGold stands for a coverage measured against no gold: it would
	// read 1.00, which says nothing.
	NoGold = "–"
	// NoRepoMetrics labels measures computed without the repository.
	NoRepoMetrics = "no repository — file/line from line numbers; symbol and span need the repository"
	// EditLocGoldPatch explains EditLoc figures of a run without a patch
	// under the reference semantics.
	EditLocGoldPatch = "no patch: reference scores the gold patch"
)

// NoRepoBanner says the repository is missing, why, and how to give it.
func NoRepoBanner(reason string) string {
	if reason == story.NoRepoGiven {
		return "no repository: showing the lines the run displayed; pass --repo DIR or --cache DIR"
	}
	return fmt.Sprintf("no repository (%s): showing the lines the run displayed; pass --repo DIR or --cache DIR", termsafe.Line(reason))
}

// NoRepoShort is NoRepoBanner for a pane: how to give the repository comes
// before the reason, which a narrow pane may cut.
func NoRepoShort(reason string) string {
	if reason == story.NoRepoGiven {
		return "no repository: pass --repo DIR or --cache DIR"
	}
	return "no repository: pass --repo DIR or --cache DIR · " + termsafe.Line(reason)
}

// FailedButCounted says, for a failed action whose lines the lens counts
// though the action displayed nothing, that the lens counts them anyway, as
// the evaluator does; "" when there is no such disagreement.
func FailedButCounted(a *scoring.Analysis, lens model.Lens, i int) string {
	if !a.Run.Actions[i].Failed() || lens == model.LensObserved {
		return ""
	}
	v := &a.Lenses[lens].Actions[i]
	read := v.ReadLines()
	if read == 0 || a.Lenses[model.LensObserved].Actions[i].ReadLines() > 0 {
		return ""
	}
	gold := ""
	if v.NewGold > 0 {
		gold = fmt.Sprintf(", +%d new gold", v.NewGold)
	}
	return fmt.Sprintf("the command failed, but the %s lens counts its step (%d %s%s) as the evaluator does", lens, read, Plural(read, "line"), gold)
}

// Plural is w, or w+"s" for a count other than one.
func Plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
}

// Missing is what stands for a figure that cannot be shown: NoGold when
// there is no gold to measure against, NotComputable otherwise.
func Missing(noGold bool) string {
	if noGold {
		return NoGold
	}
	return NotComputable
}

// Figure is a coverage figure to two places, or what stands for it when
// it cannot be shown (ok false); noGold says why.
func Figure(v float64, ok, noGold bool) string {
	if !ok {
		return Missing(noGold)
	}
	return fmt.Sprintf("%.2f", v)
}

// GlyphLaunch marks an action that started sub-agents: ▾ when their
// actions show under it, ▸ when they are folded away.
const (
	GlyphLaunchOpen   = "▾"
	GlyphLaunchFolded = "▸"
)

// AgentRow is a sub-agent's action as a row shows it: indented by its
// depth, marked ↳, named by its agent where the row starts that agent's
// stretch ("↳ Explore: Read a.py").
func AgentRow(label string, depth int, first bool, short string) string {
	pre := Indent(depth-1, " ") + GlyphSidechain + " "
	if first {
		return pre + label + ": " + short
	}
	return pre + short
}

// LaunchRow is an action that started sub-agents as a row shows it: the
// agents it started and how many actions they made ("▾ Explore ×20"),
// then the call itself.
func LaunchRow(labels []string, actions []int, folded bool, short string) string {
	g := GlyphLaunchOpen
	if folded {
		g = GlyphLaunchFolded
	}
	var parts []string
	for i, l := range labels {
		parts = append(parts, fmt.Sprintf("%s ×%d", l, actions[i]))
	}
	return g + " " + strings.Join(parts, ", ") + " · " + short
}

// MaxIndent is the deepest an agent is indented on a screen or in a
// summary: deeper ones keep that indent (their labels say their depth), so
// a chain of thousands of agents does not push its rows off the page.
const MaxIndent = 6

// Indent is unit repeated depth times, at most MaxIndent.
func Indent(depth int, unit string) string {
	return strings.Repeat(unit, min(max(depth, 0), MaxIndent))
}
