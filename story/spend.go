package story

import "github.com/trajscope/trajscope/model"

// Spend is where a run's time and tokens went, as its format records them
// (timestamps, token usage, cost): per action and in total.
type Spend struct {
	// Seconds is the time from the first timestamped action to the last;
	// Timed reports whether any action has a timestamp.
	Seconds float64
	Timed   bool
	Tokens  Tokens
	CostUSD float64
}

// Tokens is token usage summed over actions, as the format records it,
// split: input that was not cached, output, and the cache read and written.
type Tokens struct {
	Input      int `json:"input"`
	Output     int `json:"output"`
	CacheRead  int `json:"cache_read,omitempty"`
	CacheWrite int `json:"cache_write,omitempty"`
}

// Total is every token the run's calls sent and received, the cache's
// included: what the run list, the header and the cost tables show.
func (t Tokens) Total() int { return t.Input + t.Output + t.CacheRead + t.CacheWrite }

// add counts one action's usage.
func (t *Tokens) add(u *model.Usage) {
	t.Input += int(u.InputTokens)
	t.Output += int(u.OutputTokens)
	t.CacheRead += int(u.CacheRead)
	t.CacheWrite += int(u.CacheWrite)
}

// RunSpend totals a run's recorded time, tokens and cost (the run's own
// cost, else its steps' summed).
func RunSpend(run *model.Run) Spend {
	s := Spend{CostUSD: run.CostUSD}
	steps := 0.0
	first, last := 0.0, 0.0
	for i := range run.Actions {
		a := &run.Actions[i]
		s.Tokens.add(&a.Usage)
		steps += a.Usage.CostUSD
		if t := a.Timestamp; t > 0 {
			if !s.Timed || t < first {
				first = t
			}
			last = max(last, t)
			s.Timed = true
		}
	}
	// What no action spent: a final answer, a run without calls.
	s.Tokens.add(&run.RestUsage)
	steps += run.RestUsage.CostUSD
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
	s := Spend{CostUSD: a.Usage.CostUSD}
	s.Tokens.add(&a.Usage)
	return s
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
