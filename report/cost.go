package report

import (
	"hash/fnv"

	"github.com/trajscope/trajscope/model"
)

// Axes of the cost table: dollars when every run records them, else tokens.
const (
	AxisCost   = "cost_usd"
	AxisTokens = "tokens"
)

// CostRow is one run's mean cost and tokens per instance against its mean
// final line coverage.
type CostRow struct {
	Run       string `json:"run"`
	Instances int    `json:"instances"`
	// CostN counts instances that record a cost, MeanCostUSD their mean
	// (nil without any); TokensN and MeanTokens likewise for input +
	// output tokens.
	CostN       int      `json:"cost_n"`
	MeanCostUSD *float64 `json:"mean_cost_usd,omitempty"`
	TokensN     int      `json:"tokens_n"`
	MeanTokens  *float64 `json:"mean_tokens,omitempty"`
	// LineCoverage is the mean final line coverage over all instances,
	// error rows counting 0 (the line R macro).
	LineCoverage float64 `json:"line_coverage"`
	// Front marks a run on the Pareto front of Axis against coverage: no
	// other run is at most as costly and at least as good, and better in
	// one of the two.
	Front bool `json:"pareto_front"`
	// tasks is a hash of the run's set of instance ids (a sum, so order
	// does not matter): runs over different tasks have different means.
	tasks uint64
}

// X is the run's value on axis, ok false when it has none.
func (c *CostRow) X(axis string) (float64, bool) {
	p := c.MeanCostUSD
	if axis == AxisTokens {
		p = c.MeanTokens
	}
	if p == nil {
		return 0, false
	}
	return *p, true
}

// CostTable is cost against coverage per run.
type CostTable struct {
	// Axis is what the front weighs coverage against: AxisCost when any
	// run records a cost, else AxisTokens. Runs without a value on the
	// axis are left out of the front (tokens are no stand-in for dollars).
	Axis string    `json:"axis"`
	Rows []CostRow `json:"rows"`
	// Unlike says why the front compares unlike means, "" when every run's
	// means are over the same tasks: runs over different task sets, or
	// costs recorded on only some of a run's instances.
	Unlike string `json:"unlike_means,omitempty"`
}

// costFold is one row's figures of the cost table, taken one instance at
// a time.
type costFold struct {
	instances, costN, tokensN int
	cost, tokens, line        float64
	tasks                     uint64
}

func (c *costFold) add(in *Instance) {
	c.instances++
	h := fnv.New64a()
	h.Write([]byte(in.Result.InstanceID))
	c.tasks += h.Sum64()
	if in.Result.Error == "" {
		c.line += in.Result.Final.At(model.GranLine).Coverage
	}
	e := in.Extras
	if e == nil {
		return
	}
	if e.CostUSD > 0 {
		c.costN++
		c.cost += e.CostUSD
	}
	if e.Tokens != nil && e.Tokens.Total() > 0 {
		c.tokensN++
		c.tokens += float64(e.Tokens.Total())
	}
}

func (c *costFold) row(run string) CostRow {
	row := CostRow{Run: run, Instances: c.instances, CostN: c.costN, TokensN: c.tokensN, tasks: c.tasks}
	if c.instances > 0 {
		row.LineCoverage = c.line / float64(c.instances)
	}
	if c.costN > 0 {
		v := c.cost / float64(c.costN)
		row.MeanCostUSD = &v
	}
	if c.tokensN > 0 {
		v := c.tokens / float64(c.tokensN)
		row.MeanTokens = &v
	}
	return row
}

// costTable is the table of the runs' rows, nil when none records a cost
// or tokens.
func costTable(rows []CostRow) *CostTable {
	t := &CostTable{Rows: rows}
	anyCost, anyTokens := false, false
	for _, row := range rows {
		anyCost = anyCost || row.CostN > 0
		anyTokens = anyTokens || row.TokensN > 0
	}
	switch {
	case anyCost:
		t.Axis = AxisCost
	case anyTokens:
		t.Axis = AxisTokens
	default:
		return nil
	}
	for i := range t.Rows {
		_, ok := t.Rows[i].X(t.Axis)
		t.Rows[i].Front = ok && !t.dominated(i)
	}
	t.Unlike = t.unlike()
	return t
}

// unlike says why the runs on the axis have means over different
// instances, "" when they do not.
func (t *CostTable) unlike() string {
	var first *CostRow
	partial := false
	for i := range t.Rows {
		c := &t.Rows[i]
		if _, ok := c.X(t.Axis); !ok {
			continue
		}
		n := c.CostN
		if t.Axis == AxisTokens {
			n = c.TokensN
		}
		partial = partial || n != c.Instances
		if first == nil {
			first = c
		} else if c.tasks != first.tasks || c.Instances != first.Instances {
			return "the runs are over different task sets, so their means (and the front) compare unlike sets of tasks"
		}
	}
	if partial {
		return "some runs record " + map[string]string{AxisCost: "a cost", AxisTokens: "tokens"}[t.Axis] + " on only some of their instances, so the x axis means a different set of tasks than coverage"
	}
	return ""
}

// dominated reports whether another run is no costlier and covers no less
// than run i, and is strictly better in one: then run i is off the front.
// Two runs at the same point are both on it.
func (t *CostTable) dominated(i int) bool {
	xi, _ := t.Rows[i].X(t.Axis)
	yi := t.Rows[i].LineCoverage
	for j := range t.Rows {
		xj, ok := t.Rows[j].X(t.Axis)
		yj := t.Rows[j].LineCoverage
		if ok && j != i && xj <= xi && yj >= yi && (xj < xi || yj > yi) {
			return true
		}
	}
	return false
}
