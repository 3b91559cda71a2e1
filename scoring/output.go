package scoring

import (
	"strconv"

	"github.com/trajscope/trajscope/internal/python"
	"github.com/trajscope/trajscope/model"
)

// AppendResultJSON appends one result line exactly as upstream json.dumps
// writes it (key order, separators, float repr), without the newline. Under
// Fixed semantics each final granularity also carries "f1", which upstream
// never writes.
func AppendResultJSON(dst []byte, r *model.Result, sem model.Semantics) []byte {
	dst = append(dst, `{"instance_id": `...)
	dst = python.AppendJSONString(dst, r.InstanceID)
	if r.Error != "" {
		dst = append(dst, `, "error": `...)
		dst = python.AppendJSONString(dst, r.Error)
		return append(appendLens(dst, r), '}')
	}
	dst = append(dst, `, "num_steps": `...)
	dst = strconv.AppendInt(dst, int64(r.NumSteps), 10)
	dst = append(dst, `, "final": {`...)
	for i, g := range model.Granularities {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		m := r.Final.At(g)
		dst = appendKey(dst, g.String())
		if g == model.GranSymbol && r.SymbolNA {
			dst = append(dst, `{"coverage": null, "precision": null, "intersection": null, "gold_size": null, "pred_size": null, "f1": null}`...)
			continue
		}
		dst = append(dst, `{"coverage": `...)
		dst = python.AppendJSONFloat(dst, m.Coverage)
		dst = append(dst, `, "precision": `...)
		dst = python.AppendJSONFloat(dst, m.Precision)
		dst = appendCounts(dst, m.Intersection, m.GoldSize, m.PredSize)
		if sem == model.Fixed {
			dst = append(dst, `, "f1": `...)
			dst = python.AppendJSONFloat(dst, F1(m.Coverage, m.Precision))
		}
		dst = append(dst, '}')
	}
	dst = append(dst, `}, "trajectory": {"steps": [`...)
	for i, st := range r.Trajectory.Steps {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = append(dst, `{"step": `...)
		dst = strconv.AppendInt(dst, int64(st.Step), 10)
		dst = append(dst, `, "coverage": `...)
		dst = appendByGranularity(dst, &st.Coverage, r.SymbolNA)
		dst = append(dst, '}')
	}
	dst = append(dst, `], "auc_coverage": `...)
	dst = appendByGranularity(dst, &r.Trajectory.AUCCoverage, r.SymbolNA)
	dst = append(dst, `, "redundancy": `...)
	dst = appendByGranularity(dst, &r.Trajectory.Redundancy, r.SymbolNA)
	dst = append(dst, '}')
	if e := r.EditLoc; e != nil {
		dst = append(dst, `, "editloc": {"recall": `...)
		dst = python.AppendJSONFloat(dst, e.Recall)
		dst = append(dst, `, "precision": `...)
		dst = python.AppendJSONFloat(dst, e.Precision)
		dst = appendCounts(dst, e.Intersection, e.GoldSize, e.PredSize)
		dst = append(dst, '}')
	}
	if r.AtK != nil {
		dst = appendAtK(dst, r)
	}
	return append(appendLens(dst, r), '}')
}

// appendLens appends what the evaluator's rows never hold: "lens" for a row
// of the observed lens, and "final_stand_in" when its final context is the
// union of its steps. ContextBench-lens rows stay the evaluator's bytes.
func appendLens(dst []byte, r *model.Result) []byte {
	if r.Lens != model.LensObserved {
		return dst
	}
	dst = append(dst, `, "lens": "observed"`...)
	if r.FinalStandIn {
		dst = append(dst, `, "final_stand_in": true`...)
	}
	return dst
}

// appendAtK appends score --at-k's keys: "at_k", each granularity's
// coverage by rank ({"file": {"1": …, "5": …}, …}), and "initial_recall",
// the coverage after the first step (Result.InitialRecall).
func appendAtK(dst []byte, r *model.Result) []byte {
	dst = append(dst, `, "at_k": {`...)
	for i, g := range model.Granularities {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendKey(dst, g.String())
		dst = append(dst, '{')
		for j, k := range r.AtK.K {
			if j > 0 {
				dst = append(dst, ", "...)
			}
			dst = appendKey(dst, strconv.Itoa(k))
			if g == model.GranSymbol && r.SymbolNA {
				dst = append(dst, "null"...)
				continue
			}
			dst = python.AppendJSONFloat(dst, *r.AtK.Coverage[j].At(g))
		}
		dst = append(dst, '}')
	}
	dst = append(dst, '}')
	if cov, ok := r.InitialRecall(); ok {
		dst = append(dst, `, "initial_recall": `...)
		dst = appendByGranularity(dst, &cov, r.SymbolNA)
	}
	return dst
}

func appendKey(dst []byte, k string) []byte {
	dst = python.AppendJSONString(dst, k)
	return append(dst, ": "...)
}

func appendCounts(dst []byte, inter, gold, pred int) []byte {
	dst = append(dst, `, "intersection": `...)
	dst = strconv.AppendInt(dst, int64(inter), 10)
	dst = append(dst, `, "gold_size": `...)
	dst = strconv.AppendInt(dst, int64(gold), 10)
	dst = append(dst, `, "pred_size": `...)
	return strconv.AppendInt(dst, int64(pred), 10)
}

// appendByGranularity writes one value per granularity; symbolNA writes the
// symbol one as null.
func appendByGranularity(dst []byte, b *model.ByGranularity[float64], symbolNA bool) []byte {
	dst = append(dst, '{')
	for i, g := range model.Granularities {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		dst = appendKey(dst, g.String())
		if g == model.GranSymbol && symbolNA {
			dst = append(dst, "null"...)
			continue
		}
		dst = python.AppendJSONFloat(dst, *b.At(g))
	}
	return append(dst, '}')
}

// F1 is the harmonic mean of coverage (recall) and precision, 0 when both
// are 0, as ContextBench's statistics script defines per-instance F1.
func F1(cov, prec float64) float64 {
	if cov == 0 && prec == 0 {
		return 0
	}
	return 2 * cov * prec / (cov + prec)
}

// AppendAggregateJSON appends the aggregate as upstream's aggregate dict
// (the stderr-only dict, in its key order).
func AppendAggregateJSON(dst []byte, a *Aggregate) []byte {
	dst = append(dst, `{"num_valid": `...)
	dst = strconv.AppendInt(dst, int64(a.NumValid), 10)
	dst = append(dst, `, "num_total": `...)
	dst = strconv.AppendInt(dst, int64(a.NumTotal), 10)
	if a.NumValid == 0 {
		return append(dst, '}')
	}
	for _, g := range model.Granularities {
		m := a.Final.At(g)
		dst = append(dst, `, "final_`+g.String()+`": {"coverage": `...)
		dst = python.AppendJSONFloat(dst, m.Coverage)
		dst = append(dst, `, "precision": `...)
		dst = python.AppendJSONFloat(dst, m.Precision)
		dst = append(dst, '}')
	}
	for _, g := range model.Granularities {
		dst = append(dst, `, "traj_auc_`+g.String()+`": `...)
		dst = python.AppendJSONFloat(dst, *a.AUC.At(g))
		dst = append(dst, `, "traj_redundancy_`+g.String()+`": `...)
		dst = python.AppendJSONFloat(dst, *a.Redundancy.At(g))
	}
	if e := a.EditLoc; e != nil {
		dst = append(dst, `, "editloc": {"recall": `...)
		dst = python.AppendJSONFloat(dst, e.Recall)
		dst = append(dst, `, "precision": `...)
		dst = python.AppendJSONFloat(dst, e.Precision)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}
