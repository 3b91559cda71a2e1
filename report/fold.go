package report

import (
	"slices"
	"sort"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
)

// folder builds a report from result files given one at a time. Of each
// file it keeps only what the tables show (a summary's sums and values,
// per-instance rows, missed-gold tallies), never the file's instances but
// for --compare's two: a report over a hundred files holds one file's rows
// at a time.
type folder struct {
	o      Options
	lens   string
	by     string
	rows   []*rowFold
	byKey  map[string]*rowFold // under ByModel: rows by agent/model
	missed *missedFold
}

// rowFold is one row of the report's tables: a results file, or under
// ByModel one agent/model across files.
type rowFold struct {
	run       *ResultFile // label, path and format; no instances
	sum       summaryFold
	groups    map[string]*summaryFold // by --by group
	cost      costFold
	curve     curveFold
	atK       atKFold
	instances []InstanceRow
	diagnosed bool
	// leftOut counts the rows --skip-infra left out.
	leftOut int
	// impact gathers the downstream-impact figures (--resolved), seeded
	// by seed.
	impact *impactFold
	seed   uint64
	// closed holds the row's tables once its last instance is in (a
	// file's row when the file ends); the folds are dropped then.
	closed *closedRow
}

// closedRow is a row's figures in each table.
type closedRow struct {
	summary Row
	groups  []GroupRow
	cost    CostRow
	curve   Curve
	atK     *AtKRow
	impact  *RunImpact
}

// close computes the row's tables and drops what computed them: a file's
// values for the quantiles are not held past the file.
func (r *rowFold) close(lens string) *closedRow {
	if r.closed != nil {
		return r.closed
	}
	label, path := r.run.Label, r.run.Path
	c := &closedRow{summary: r.sum.row(label, path, lens), cost: r.cost.row(label), curve: r.curve.mean()}
	if a, ok := r.atK.row(label); ok {
		c.atK = &a
	}
	for _, k := range groupKeys(r.groups) {
		c.groups = append(c.groups, GroupRow{Run: label, Group: k, Row: r.groups[k].row(label, path, lens)})
	}
	if r.impact != nil {
		ri := r.impact.finish(label, r.seed)
		c.impact = &ri
	}
	r.sum, r.groups, r.cost, r.curve, r.atK, r.impact = summaryFold{}, nil, costFold{}, curveFold{}, atKFold{}, nil
	r.closed = c
	return c
}

func newFolder(o Options) (*folder, error) {
	lens, err := o.lens()
	if err != nil {
		return nil, err
	}
	f := &folder{o: o, lens: lens, byKey: map[string]*rowFold{}}
	if o.By != "" {
		if f.by, err = ParseBy(o.By); err != nil {
			return nil, err
		}
	}
	if o.Missed {
		f.missed = newMissedFold()
	}
	return f, nil
}

// add folds one results file in; run is not kept.
func (f *folder) add(run *ResultFile) {
	f.addEach(run, func(fn func(*Instance) error) error {
		for i := range run.Instances {
			if err := fn(&run.Instances[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// addEach folds in the instances each gives, one at a time, of the results
// file run names (its label, path and format; its instances are not
// used): a file streamed row by row (EachRow) costs one row.
func (f *folder) addEach(run *ResultFile, each func(func(*Instance) error) error) error {
	var own *rowFold
	if !f.o.ByModel {
		own = f.newRow(&ResultFile{Label: run.Label, Path: run.Path, Format: run.Format})
	}
	err := each(func(in *Instance) error {
		row := own
		if row == nil {
			row = f.modelRow(run, in)
		}
		if f.o.SkipInfra && in.Result.Error == scoring.ErrCheckoutFailed {
			row.leftOut++
			return nil
		}
		f.addInstance(row, in)
		return nil
	})
	if own != nil {
		own.close(f.lens)
	}
	return err
}

func (f *folder) newRow(run *ResultFile) *rowFold {
	row := &rowFold{run: run, seed: f.o.Seed}
	if f.o.Resolved != nil {
		row.impact = &impactFold{}
	}
	if f.by != "" {
		row.groups = map[string]*summaryFold{}
	}
	f.rows = append(f.rows, row)
	return row
}

// modelRow is the row of an instance's agent/model ("agent/model" from its
// trajscope extras, else its file's label), rows in first-seen order; a
// row's path lists its files, its format is "mixed" when they differ.
func (f *folder) modelRow(run *ResultFile, in *Instance) *rowFold {
	key := run.Label
	if e := in.Extras; e != nil && (e.Agent != "" || e.Model != "") {
		key = strings.Trim(e.Agent+"/"+e.Model, "/")
	}
	row := f.byKey[key]
	if row == nil {
		row = f.newRow(&ResultFile{Label: key, Format: run.Format})
		f.byKey[key] = row
	}
	g := row.run
	if !slices.Contains(strings.Split(g.Path, ", "), run.Path) {
		g.Path = strings.TrimPrefix(g.Path+", "+run.Path, ", ")
	}
	if g.Format != run.Format {
		g.Format = "mixed"
	}
	return row
}

func (f *folder) addInstance(row *rowFold, in *Instance) {
	row.sum.add(in, f.lens)
	if row.impact != nil {
		row.impact.add(in, f.o.Resolved, f.lens)
	}
	row.cost.add(in)
	row.atK.add(in)
	if in.Result.Error == "" {
		row.curve.add(in.Result.Trajectory.Steps)
	}
	if f.o.PerInstance {
		row.instances = append(row.instances, NewInstanceRow(row.run.Label, in, f.lens))
	}
	if row.groups != nil {
		key := groupOf(in, f.by, f.o.Tasks)
		g := row.groups[key]
		if g == nil {
			g = &summaryFold{}
			row.groups[key] = g
		}
		g.add(in, f.lens)
	}
	if f.missed != nil && f.missed.add(in, f.lens) {
		row.diagnosed = true
	}
}

// report finishes the tables; a and b, when set, are compared (B − A).
func (f *folder) report(a, b *ResultFile) (*Report, error) {
	r := &Report{Lens: f.lens}
	var costs []CostRow
	var atK []AtKRow
	if f.by != "" {
		r.Groups = &Grouping{By: f.by}
	}
	for _, row := range f.rows {
		c := row.close(f.lens)
		c.summary.LeftOut = row.leftOut
		if c.impact != nil {
			if r.Impact == nil {
				r.Impact = &Impact{Harness: f.o.Harness, Seed: f.o.Seed, Resamples: Resamples, Confidence: Confidence}
			}
			r.Impact.Runs = append(r.Impact.Runs, *c.impact)
		}
		r.Runs = append(r.Runs, row.run)
		r.Rows = append(r.Rows, c.summary)
		costs = append(costs, c.cost)
		if c.atK != nil {
			atK = append(atK, *c.atK)
		}
		r.Curves = append(r.Curves, c.curve)
		if r.Groups != nil {
			r.Groups.Rows = append(r.Groups.Rows, c.groups...)
		}
		if f.o.PerInstance {
			r.Instances = append(r.Instances, row.instances...)
		}
	}
	if a != nil && b != nil {
		c, err := Pair(a, b, f.lens, f.o.Seed)
		if err != nil {
			return nil, err
		}
		r.Compare = c
	}
	if f.missed != nil {
		r.Missed = f.missed.table(f.lens, f.o.Top)
		for _, row := range f.rows {
			if row.diagnosed {
				r.Missed.Diagnosed++
			} else {
				r.Missed.Undiagnosed = append(r.Missed.Undiagnosed, row.run.Label)
			}
		}
	}
	r.Cost = costTable(costs)
	r.AtK = atKTable(atK)
	return r, nil
}

// groupKeys sorts groups by name with Unknown last.
func groupKeys(groups map[string]*summaryFold) []string {
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if (keys[i] == Unknown) != (keys[j] == Unknown) {
			return keys[j] == Unknown
		}
		return keys[i] < keys[j]
	})
	return keys
}

// curveFold is a row's mean cumulative line coverage after each step, over
// its valid instances with steps, taken one instance at a time. An instance
// shorter than the longest holds its last value; the sums are added in
// instance order, as a single pass over all of them would.
type curveFold struct {
	sum []float64
	// lasts sums, in order, the last values of the instances so far: what
	// a step no earlier instance reached starts from.
	lasts float64
	n     int
}

func (c *curveFold) add(steps []model.StepCoverage) {
	n := len(steps)
	if n == 0 {
		return
	}
	for len(c.sum) < n {
		c.sum = append(c.sum, c.lasts)
	}
	for k := range c.sum {
		c.sum[k] += steps[min(k, n-1)].Coverage.Line
	}
	c.lasts += steps[n-1].Coverage.Line
	c.n++
}

// Curve is a row's mean cumulative line coverage after each step, over N
// valid instances with trajectory steps (Mean nil when none).
type Curve struct {
	Mean []float64
	N    int
}

func (c *curveFold) mean() Curve {
	if c.n == 0 {
		return Curve{}
	}
	out := make([]float64, len(c.sum))
	for k, v := range c.sum {
		out[k] = v / float64(c.n)
	}
	return Curve{Mean: out, N: c.n}
}
