package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// Report is everything `trajscope report` prints.
type Report struct {
	// Lens is the lens whose trajscope extras feed the run-derived columns.
	Lens string
	Runs []*ResultFile
	Rows []Row
	// Instances is filled when per-instance rows were asked for.
	Instances []InstanceRow
	// Compare is set by --compare.
	Compare *Paired
	// Groups is the summary per run × group, set by --by.
	Groups *Grouping
	// Missed is the missed-gold table, set by --missed.
	Missed *MissedGold
	// Cost is cost against coverage, nil when no run records cost or
	// tokens.
	Cost *CostTable
}

// Options selects what Build computes.
type Options struct {
	// Lens is "contextbench" (default) or "observed".
	Lens        string
	PerInstance bool
	// CompareA and CompareB, when both set, are compared (B − A), with
	// the bootstrap and the permutation test drawn from Seed.
	CompareA, CompareB *ResultFile
	Seed               uint64
	// By ("language" or "source"), when set, adds the summary per group;
	// Tasks names the tasks of instances whose results do not.
	By    string
	Tasks TaskLookup
	// Missed adds the missed-gold table, listing Top spans and files (all
	// when Top ≤ 0).
	Missed bool
	Top    int
}

// Build summarises runs.
func Build(runs []*ResultFile, o Options) (*Report, error) {
	lens, err := o.lens()
	if err != nil {
		return nil, err
	}
	r := &Report{Lens: lens, Runs: runs}
	for _, run := range runs {
		r.Rows = append(r.Rows, Summarize(run, lens))
		if o.PerInstance {
			for i := range run.Instances {
				r.Instances = append(r.Instances, NewInstanceRow(run.Label, &run.Instances[i], lens))
			}
		}
	}
	if o.CompareA != nil && o.CompareB != nil {
		c, err := Pair(o.CompareA, o.CompareB, lens, o.Seed)
		if err != nil {
			return nil, err
		}
		r.Compare = c
	}
	if o.By != "" {
		by, err := ParseBy(o.By)
		if err != nil {
			return nil, err
		}
		r.Groups = GroupBy(runs, by, lens, o.Tasks)
	}
	if o.Missed {
		r.Missed = Missed(runs, lens, o.Top)
	}
	r.Cost = CostVsCoverage(runs)
	return r, nil
}

// lens is the options' lens by its canonical name (contextbench when unset).
func (o Options) lens() (string, error) {
	if o.Lens == "" {
		return model.LensContextBench.String(), nil
	}
	l, err := model.ParseLens(o.Lens)
	if err != nil {
		return "", err
	}
	return l.String(), nil
}

// InstanceRow is one instance's numbers in the per-instance table.
type InstanceRow struct {
	Run        string `json:"run"`
	InstanceID string `json:"instance_id"`
	Error      string `json:"error,omitempty"`
	// Recall, Precision and F1 are the final context's coverage, precision
	// and per-instance F1; AUC the trajectory AUC-coverage.
	Recall    model.ByGranularity[float64] `json:"recall"`
	Precision model.ByGranularity[float64] `json:"precision"`
	F1        model.ByGranularity[float64] `json:"f1"`
	AUC       model.ByGranularity[float64] `json:"auc_coverage"`
	// DropLastStep is the usage drop, last step → final (1.0 for errors).
	DropLastStep model.ByGranularity[float64] `json:"usage_drop_laststep"`
	// The rest needs trajscope extras (nil for upstream JSONL).
	UnionDrop     *float64         `json:"usage_drop_union,omitempty"`
	MRR           *float64         `json:"mrr,omitempty"`
	FileRecallIR  *float64         `json:"file_recall_ir,omitempty"`
	SpanDiagnosis *diagnose.Counts `json:"span_diagnosis,omitempty"`
}

// NewInstanceRow extracts one instance's numbers.
func NewInstanceRow(run string, in *Instance, lens string) InstanceRow {
	r := &in.Result
	row := InstanceRow{Run: run, InstanceID: r.InstanceID, Error: r.Error}
	drops := diagnose.LastStepToFinal(r)
	for _, g := range model.Granularities {
		*row.DropLastStep.At(g) = drops.At(g).Drop
		if r.Error != "" {
			continue
		}
		m := r.Final.At(g)
		*row.Recall.At(g), *row.Precision.At(g) = m.Coverage, m.Precision
		*row.F1.At(g) = scoring.F1(m.Coverage, m.Precision)
		*row.AUC.At(g) = *r.Trajectory.AUCCoverage.At(g)
	}
	if le := in.Extras.Lens(lens); le != nil {
		u := le.UsageDropUnion.Drop
		row.UnionDrop = &u
		if le.IR != nil && le.IR.Computable {
			mrr, fr := le.IR.MRR, le.IR.FileRecall
			row.MRR, row.FileRecallIR = &mrr, &fr
		}
		if le.Diagnosis != nil {
			c := le.Diagnosis.SpanCounts
			row.SpanDiagnosis = &c
		}
	}
	return row
}

// f3 formats a table number.
func f3(v float64) string { return fmt.Sprintf("%.3f", v) }

// GroupByModel regroups instances across runs by the agent and model their
// trajscope extras name ("agent/model"), for one row per agent/model when a
// run's files are split (per benchmark, per shard). Instances without that
// information stay under their run's label. Groups keep first-seen order.
func GroupByModel(runs []*ResultFile) []*ResultFile {
	var out []*ResultFile
	byKey := map[string]*ResultFile{}
	for _, run := range runs {
		for _, in := range run.Instances {
			key := run.Label
			if e := in.Extras; e != nil && (e.Agent != "" || e.Model != "") {
				key = strings.Trim(e.Agent+"/"+e.Model, "/")
			}
			g := byKey[key]
			if g == nil {
				g = &ResultFile{Label: key, Format: run.Format}
				byKey[key] = g
				out = append(out, g)
			}
			if !slices.Contains(strings.Split(g.Path, ", "), run.Path) {
				g.Path = strings.TrimPrefix(g.Path+", "+run.Path, ", ")
			}
			if g.Format != run.Format {
				g.Format = "mixed"
			}
			g.Instances = append(g.Instances, in)
		}
	}
	return out
}
