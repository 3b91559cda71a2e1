package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring/diagnose"
	"github.com/trajscope/trajscope/story"
)

// Labels name the two runs wherever they are shown.
var Labels = [2]string{"A", "B"}

// Who is run k's one-line description: format, agent and model, actions.
func (c *Comparison) Who(k int) string {
	s := &c.Runs[k]
	parts := []string{}
	if w := model.Who(s.Agent, s.Model); w != "" {
		parts = append(parts, termsafe.Line(w))
	}
	if s.Format != "" {
		parts = append(parts, termsafe.Line(s.Format))
	}
	parts = append(parts, fmt.Sprintf("%d actions", s.Actions))
	return strings.Join(parts, " · ")
}

// FindText is a span's find by run k: "@4 found", "never (near miss)".
func FindText(f Find) string {
	switch {
	case f.Diagnosis == diagnose.NotScored:
		return "not scored"
	case f.Action > 0 && f.Kept > 0:
		return fmt.Sprintf("@%d found %d/%d kept", f.Action, f.Kept, f.Lines)
	case f.Action > 0:
		return fmt.Sprintf("@%d %s", f.Action, f.Diagnosis)
	case f.Declared:
		return "declared, never shown"
	}
	return "never (" + f.Diagnosis.String() + ")"
}

// Differences counts the spans each run found (final context) that the
// other did not, both found, and neither.
func (c *Comparison) Differences() (onlyA, onlyB, both, neither int) {
	for _, sp := range c.Spans {
		a, b := sp.Find[0].Diagnosis == diagnose.Found, sp.Find[1].Diagnosis == diagnose.Found
		switch {
		case a && b:
			both++
		case a:
			onlyA++
		case b:
			onlyB++
		default:
			neither++
		}
	}
	return
}

// WriteText writes the comparison for people: both runs' final figures and
// AUC per granularity, then one line per gold span with who showed it when
// and what became of it.
func (c *Comparison) WriteText(out io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "trajscope compare · %s · lens %s\n", termsafe.Line(c.InstanceID), c.Lens)
	for k := range c.Runs {
		fmt.Fprintf(&b, "  %s  %s", Labels[k], c.Who(k))
		if p := c.Runs[k].Path; p != "" {
			fmt.Fprintf(&b, "  (%s)", termsafe.Line(p))
		}
		b.WriteByte('\n')
		if c.Runs[k].FinalStandIn {
			fmt.Fprintf(&b, "     %s: its \"found\" counts every span it looked at\n", story.FinalStandIn)
		}
	}
	fmt.Fprintf(&b, "\n%-14s", "")
	for _, g := range model.Granularities {
		fmt.Fprintf(&b, "%12s", g)
	}
	b.WriteString("\n")
	for k := range c.Runs {
		s := &c.Runs[k]
		fmt.Fprintf(&b, "final cov/p %s ", Labels[k])
		if s.Error != "" || s.NoGold {
			fmt.Fprintf(&b, "  %s\n", s.note())
			continue
		}
		for _, g := range model.Granularities {
			f := s.Final.At(g)
			fmt.Fprintf(&b, "%12s", fmt.Sprintf("%.2f/%.2f", f.Coverage, f.Precision))
		}
		b.WriteString("\n")
	}
	for k := range c.Runs {
		s := &c.Runs[k]
		if s.Error != "" || s.NoGold {
			continue
		}
		fmt.Fprintf(&b, "AUC         %s ", Labels[k])
		for _, g := range model.Granularities {
			fmt.Fprintf(&b, "%12.2f", *s.AUC.At(g))
		}
		b.WriteString("\n")
	}
	for k := range c.Runs {
		if s := &c.Runs[k]; s.Error == "" && !s.NoGold {
			fmt.Fprintf(&b, "gold        %s  %s\n", Labels[k], c.FoundText(k))
		}
	}
	onlyA, onlyB, both, neither := c.Differences()
	fmt.Fprintf(&b, "\ngold spans (%d): found by both %d, only A %d, only B %d, neither %d%s\n", len(c.Spans), both, onlyA, onlyB, neither, c.StandInMark())
	w := 0
	for _, sp := range c.Spans {
		w = max(w, len(spanName(sp)))
	}
	for _, sp := range c.Spans {
		fmt.Fprintf(&b, "  %-*s  A %s · B %s\n", w, spanName(sp), FindText(sp.Find[0]), FindText(sp.Find[1]))
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// StandInMark is what a count of found spans carries when a run's final
// is the union of its steps: " (A: union of steps)", "" otherwise.
func (c *Comparison) StandInMark() string {
	var who []string
	for k := range c.Runs {
		if c.Runs[k].FinalStandIn {
			who = append(who, Labels[k])
		}
	}
	if len(who) == 0 {
		return ""
	}
	return " (" + strings.Join(who, ", ") + ": union of steps, no final declared)"
}

// note says why a run has no figures.
func (s *Side) note() string {
	if s.NoGold {
		return "no gold for this task: nothing to measure"
	}
	if s.Reason != "" {
		return "not scored: " + s.Error + " (" + termsafe.Line(s.Reason) + ")"
	}
	return "not scored: " + s.Error
}

func spanName(sp Span) string {
	return fmt.Sprintf("%s:%d-%d", termsafe.Line(sp.File), sp.Start, sp.End)
}

// WriteJSON writes the comparison as one JSON document, every string made
// inert for a terminal.
func (c *Comparison) WriteJSON(out io.Writer) error {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return err
	}
	_, err = out.Write(append(termsafe.JSON(b), '\n'))
	return err
}
