package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/story"
)

// SpendWords says a spend in a few words ("12m04s · 114.3k tokens ·
// $0.76"), "" when nothing is recorded. Tokens are every token, the
// cache's included; TokenSplit says which.
func SpendWords(s story.Spend) string {
	var parts []string
	if s.Timed {
		parts = append(parts, Duration(s.Seconds))
	}
	if n := s.Tokens.Total(); n > 0 {
		parts = append(parts, Compact(n)+" tokens")
	}
	if s.CostUSD > 0 {
		parts = append(parts, Dollars(s.CostUSD))
	}
	return strings.Join(parts, " · ")
}

// SpendCells are a spend's tokens, time and cost as table cells, "-" for
// what is not recorded.
func SpendCells(s story.Spend) [3]string {
	cell := func(ok bool, v string) string {
		if !ok {
			return "-"
		}
		return v
	}
	n := s.Tokens.Total()
	return [3]string{cell(n > 0, Compact(n)), cell(s.Seconds > 0, Duration(s.Seconds)), cell(s.CostUSD > 0, Dollars(s.CostUSD))}
}

// TokenSplit says where a run's tokens went ("137 in · 581 out · 4.0M
// cache read · 215.0k cache write"), the parts it records; "" for none.
func TokenSplit(t story.Tokens) string {
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{t.Input, "in"}, {t.Output, "out"}, {t.CacheRead, "cache read"}, {t.CacheWrite, "cache write"}} {
		if p.n > 0 {
			parts = append(parts, Compact(p.n)+" "+p.what)
		}
	}
	return strings.Join(parts, " · ")
}

// Dollars writes a cost: $0.76, or $0.0042 under a cent.
func Dollars(c float64) string {
	if c < 0.01 {
		return fmt.Sprintf("$%.4f", c)
	}
	return fmt.Sprintf("$%.2f", c)
}

// Compact writes a count as 950, 12.3k or 4.1M.
func Compact(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprint(n)
	case n < 1_000_000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprintf("%.1fM", float64(n)/1e6)
}

// Duration writes seconds as 0.4s, 12s, 3m05s or 2h03m.
func Duration(s float64) string {
	switch {
	case s < 10:
		return fmt.Sprintf("%.1fs", s)
	case s < 60:
		return fmt.Sprintf("%.0fs", s)
	case s < 3600:
		m := int(s) / 60
		return fmt.Sprintf("%dm%02ds", m, int(s)-60*m)
	}
	h := int(s) / 3600
	return fmt.Sprintf("%dh%02dm", h, (int(s)-3600*h)/60)
}

// RecordedWork says what an agent whose transcript the run does not hold
// did, as its launching call's result records it: "not in the file: 44
// tool calls (14 reads, 30 commands), 86.1k tokens".
func RecordedWork(t *model.AgentTotals) string {
	var parts []string
	for _, c := range []struct {
		n int
		w string
	}{{t.Reads, "read"}, {t.Searches, "search"}, {t.Commands, "command"}, {t.Edits, "edit"}} {
		if c.n > 0 {
			parts = append(parts, Count(c.n, c.w))
		}
	}
	s := "not in the file: " + Count(t.ToolUses, "tool call")
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	if t.Tokens > 0 {
		s += ", " + Compact(t.Tokens) + " tokens"
	}
	return s + ", as its call's result records"
}
