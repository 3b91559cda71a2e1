package report

import (
	"fmt"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/scoring/diagnose"
)

// Report is everything `trajscope report` prints.
type Report struct {
	// Lens is the lens whose trajscope extras feed the run-derived columns.
	Lens string
	// Runs are the rows' runs (files, or agent/models under ByModel), with
	// their labels, paths and formats but not their instances.
	Runs []*ResultFile
	Rows []Row
	// Curves are the rows' coverage curves, in Runs' order.
	Curves []Curve
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
	// AtK is ranked retrieval's coverage per run (score --at-k), nil when
	// no run has it.
	AtK *AtKTable
	// Impact is downstream impact, set when a harness report says which
	// tasks were resolved (--resolved).
	Impact *Impact
}

// Options selects what BuildFiles computes.
type Options struct {
	// Lens is "contextbench" (default) or "observed".
	Lens        string
	PerInstance bool
	// ByModel makes a row of each agent/model, across files, instead of
	// each file.
	ByModel bool
	// Compare compares the runs of the last two arguments (B − A), with
	// the bootstrap and the permutation test drawn from Seed.
	Compare bool
	Seed    uint64
	// By ("language" or "source"), when set, adds the summary per group;
	// Tasks names the tasks of instances whose results do not.
	By    string
	Tasks TaskLookup
	// Missed adds the missed-gold table, listing Top spans and files (all
	// when Top ≤ 0).
	Missed bool
	Top    int
	// SkipInfra leaves out the rows that failed for want of the
	// repository (ResultFile.LeaveOutInfra); the report says how many.
	SkipInfra bool
	// Resolved holds the instances a test harness resolved (Harness names
	// its report): with it, the report relates retrieval to resolution.
	Resolved map[string]bool
	Harness  string
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
