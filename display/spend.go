package display

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
)

// Spend is where a run's time and tokens went, as its format records them
// (timestamps, token usage, cost): per action and in total.
type Spend struct {
	// Seconds is the time from the first timestamped action to the last;
	// Timed reports whether any action has a timestamp.
	Seconds float64
	Timed   bool
	// Tokens is input plus output tokens over the actions.
	Tokens  int
	CostUSD float64
}

// RunSpend totals a run's recorded time, tokens and cost (the run's own
// cost, else its steps' summed).
func RunSpend(run *model.Run) Spend {
	s := Spend{CostUSD: run.CostUSD}
	steps := 0.0
	first, last := 0.0, 0.0
	for i := range run.Actions {
		a := &run.Actions[i]
		s.Tokens += int(a.Usage.InputTokens) + int(a.Usage.OutputTokens)
		steps += a.Usage.CostUSD
		if t := a.Timestamp; t > 0 {
			if !s.Timed || t < first {
				first = t
			}
			last = max(last, t)
			s.Timed = true
		}
	}
	s.Seconds = last - first
	if s.CostUSD == 0 {
		s.CostUSD = steps
	}
	return s
}

// StepSpend is action i's share: the seconds since the previous timestamped
// action (Timed false when either has none), its tokens and its cost.
func StepSpend(run *model.Run, i int) Spend {
	a := &run.Actions[i]
	s := ownSpend(a)
	if a.Timestamp <= 0 || i == 0 {
		return s
	}
	for k := i - 1; k >= 0; k-- {
		if t := run.Actions[k].Timestamp; t > 0 {
			s.Seconds, s.Timed = max(a.Timestamp-t, 0), true
			return s
		}
	}
	return s
}

// ownSpend is what an action's usage records: its tokens and cost.
func ownSpend(a *model.Action) Spend {
	return Spend{Tokens: int(a.Usage.InputTokens) + int(a.Usage.OutputTokens), CostUSD: a.Usage.CostUSD}
}

// StepSpends is StepSpend of every action, in one pass over the run.
func StepSpends(run *model.Run) []Spend {
	out := make([]Spend, len(run.Actions))
	last := 0.0 // the latest timestamp before action i
	for i := range run.Actions {
		a := &run.Actions[i]
		out[i] = ownSpend(a)
		if a.Timestamp > 0 {
			if last > 0 {
				out[i].Seconds, out[i].Timed = max(a.Timestamp-last, 0), true
			}
			last = a.Timestamp
		}
	}
	return out
}

// Words says a spend in a few words ("12m04s · 114.3k tokens · $0.76"), ""
// when nothing is recorded.
func (s Spend) Words() string {
	var parts []string
	if s.Timed {
		parts = append(parts, Duration(s.Seconds))
	}
	if s.Tokens > 0 {
		parts = append(parts, Compact(s.Tokens)+" tokens")
	}
	if s.CostUSD > 0 {
		parts = append(parts, Dollars(s.CostUSD))
	}
	return strings.Join(parts, " · ")
}

// Cells are a spend's tokens, time and cost as table cells, "-" for what
// is not recorded.
func (s Spend) Cells() [3]string {
	cell := func(ok bool, v string) string {
		if !ok {
			return "-"
		}
		return v
	}
	return [3]string{cell(s.Tokens > 0, Compact(s.Tokens)), cell(s.Seconds > 0, Duration(s.Seconds)), cell(s.CostUSD > 0, Dollars(s.CostUSD))}
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
