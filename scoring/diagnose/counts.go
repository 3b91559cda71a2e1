package diagnose

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Counts of a diagnosis: items per category, and the lines the found spans
// kept, which every count of found spans is qualified by.

// Counts holds one count per category; it reads and writes as a JSON object
// keyed by Category.Key.
type Counts [NumCategories]int

// Summary lists the non-zero counts, best category first ("2 found, 1 near
// miss").
func (c Counts) Summary() string {
	var parts []string
	for i := NumCategories - 1; i >= 0; i-- {
		if c[i] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c[i], Category(i)))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Total is the number of diagnosed items.
func (c Counts) Total() int {
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}

// MarshalJSON writes the counts as an object keyed by Category.Key, worst
// category first.
func (c Counts) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range categoryKeys {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = fmt.Appendf(b, "%q: %d", k, c[i])
	}
	return append(b, '}'), nil
}

// UnmarshalJSON reads the object MarshalJSON writes; unknown keys are an
// error, missing ones count 0.
func (c *Counts) UnmarshalJSON(b []byte) error {
	var m map[string]int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*c = Counts{}
	for k, v := range m {
		var cat Category
		if err := cat.UnmarshalText([]byte(k)); err != nil {
			return err
		}
		c[cat] = v
	}
	return nil
}

// Kept is how many of some gold lines the final context kept.
type Kept struct {
	Kept int `json:"kept"`
	Of   int `json:"of"`
}

// Add adds k's lines to the tally.
func (t *Kept) Add(k Kept) { t.Kept, t.Of = t.Kept+k.Kept, t.Of+k.Of }

// String is "62 of 483 lines kept".
func (t Kept) String() string { return fmt.Sprintf("%d of %d lines kept", t.Kept, t.Of) }

// SpanSummary is SpanCounts.Summary with found qualified by the lines
// kept: "3 found (62 of 483 lines kept), 1 near miss".
func (d *Diagnosis) SpanSummary() string {
	s := d.SpanCounts.Summary()
	if n := d.SpanCounts[Found]; n > 0 {
		head := fmt.Sprintf("%d %s", n, Found)
		s = strings.Replace(s, head, head+" ("+d.FoundLines.String()+")", 1)
	}
	return s
}
