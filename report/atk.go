package report

import (
	"bufio"
	"fmt"
	"slices"
	"strconv"

	"github.com/trajscope/trajscope/model"
)

// AtKTable is ranked retrieval's coverage per run: the mean over
// instances of the coverage of the gold by the first k predictions (error
// rows counting 0, as R macro does), and the mean initial recall, the
// coverage after a multi-step run's first step.
type AtKTable struct {
	K    []int    `json:"k"`
	Rows []AtKRow `json:"rows"`
}

// AtKRow is one run of the table.
type AtKRow struct {
	Run       string `json:"run"`
	Instances int    `json:"instances"`
	// Mean[i] is the mean coverage at K[i].
	K    []int                          `json:"k"`
	Mean []model.ByGranularity[float64] `json:"mean"`
	// MultiStep counts the instances of more than one step, Initial their
	// mean coverage after the first (nil without any).
	MultiStep int                           `json:"multi_step"`
	Initial   *model.ByGranularity[float64] `json:"initial_recall,omitempty"`
}

// atKFold is one row's at-k figures, taken one instance at a time: the
// ranks are the first row's that has them.
type atKFold struct {
	k         []int
	sum       []model.ByGranularity[float64]
	instances int
	multi     int
	initial   model.ByGranularity[float64]
	any       bool
}

func (a *atKFold) add(in *Instance) {
	a.instances++
	r := &in.Result
	if r.Error != "" {
		return
	}
	if r.AtK != nil {
		if !a.any {
			a.any, a.k, a.sum = true, r.AtK.K, make([]model.ByGranularity[float64], len(r.AtK.K))
		}
		for i, k := range r.AtK.K {
			if j, ok := slices.BinarySearch(a.k, k); ok {
				for _, g := range model.Granularities {
					*a.sum[j].At(g) += *r.AtK.Coverage[i].At(g)
				}
			}
		}
	}
	if cov, ok := r.InitialRecall(); ok {
		a.multi++
		for _, g := range model.Granularities {
			*a.initial.At(g) += *cov.At(g)
		}
	}
}

// row is the run's row, false when no instance had at-k figures.
func (a *atKFold) row(run string) (AtKRow, bool) {
	if !a.any {
		return AtKRow{}, false
	}
	row := AtKRow{Run: run, Instances: a.instances, MultiStep: a.multi, K: a.k}
	for _, s := range a.sum {
		var m model.ByGranularity[float64]
		for _, g := range model.Granularities {
			*m.At(g) = *s.At(g) / float64(a.instances)
		}
		row.Mean = append(row.Mean, m)
	}
	if a.multi > 0 {
		var m model.ByGranularity[float64]
		for _, g := range model.Granularities {
			*m.At(g) = *a.initial.At(g) / float64(a.multi)
		}
		row.Initial = &m
	}
	return row, true
}

// atKTable is the table of the runs that have at-k figures, its ranks
// every rank some run has; nil when none has.
func atKTable(rows []AtKRow) *AtKTable {
	if len(rows) == 0 {
		return nil
	}
	t := &AtKTable{Rows: rows}
	for _, r := range rows {
		t.K = append(t.K, r.K...)
	}
	slices.Sort(t.K)
	t.K = slices.Compact(t.K)
	return t
}

// at is the row's mean coverage at rank k, false when it has none there.
func (r *AtKRow) at(k int) (*model.ByGranularity[float64], bool) {
	i, ok := slices.BinarySearch(r.K, k)
	if !ok {
		return nil, false
	}
	return &r.Mean[i], true
}

func (r *Report) writeAtKMarkdown(w *bufio.Writer) {
	t := r.AtK
	fmt.Fprintf(w, "## Coverage at k (ranked retrieval)\n\n")
	head := []string{"run", "granularity"}
	align := "ll"
	for _, k := range t.K {
		head, align = append(head, "@"+strconv.Itoa(k)), align+"r"
	}
	head, align = append(head, "n", "initial recall", "n (initial)"), align+"rrr"
	var rows [][]string
	for _, row := range t.Rows {
		for _, g := range model.Granularities {
			cells := []string{cell(row.Run), g.String()}
			for _, k := range t.K {
				v := "–"
				if m, ok := row.at(k); ok {
					v = f3(*m.At(g))
				}
				cells = append(cells, v)
			}
			init := "–"
			if row.Initial != nil {
				init = f3(*row.Initial.At(g))
			}
			// Each figure's population: @k is over every instance,
			// initial recall over those of several steps.
			rows = append(rows, append(cells, fmt.Sprint(row.Instances), init, fmt.Sprint(row.MultiStep)))
		}
	}
	table(w, head, align, rows)
	legend(w,
		"**@k**: mean over the **n** instances of the gold covered by the first k predictions (`score --at-k`): the first k files of `pred_files` for files, the first k spans of the final context for symbols, spans and lines; error rows count 0.",
		"**initial recall**: mean coverage after the first step, over the **n (initial)** instances of more than one step: a different population from @k's.",
	)
}
