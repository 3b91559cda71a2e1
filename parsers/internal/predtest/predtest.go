// Package predtest compares a model.Prediction with a unified prediction
// record in tests, structurally and in order: step and final files, spans
// per file (file order included), symbols, the instance id and the patch. A missing "symbols"/"pred_symbols" equals an empty one,
// as the reference parser reads them with `or {}`.
package predtest

import (
	"fmt"
	"strings"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/internal/jsontree"
)

// Diff returns the differences between got and the unified record want,
// empty when they agree.
func Diff(got model.Prediction, want *jsontree.Value) []string {
	var diffs []string
	add := func(format string, args ...any) { diffs = append(diffs, fmt.Sprintf(format, args...)) }
	if id := str(want, "instance_id"); id != got.InstanceID {
		add("instance_id %q, want %q", got.InstanceID, id)
	}
	if p := str(want, "model_patch"); p != got.ModelPatch {
		add("model_patch %q, want %q", got.ModelPatch, p)
	}
	td, _ := want.Lookup("traj_data")
	steps, _ := td.Lookup("pred_steps")
	var wantSteps []*jsontree.Value
	if steps != nil {
		wantSteps = steps.Arr
	}
	if len(wantSteps) != len(got.Steps) {
		add("%d steps, want %d", len(got.Steps), len(wantSteps))
	}
	for i := 0; i < min(len(wantSteps), len(got.Steps)); i++ {
		for _, d := range stepDiff(got.Steps[i], wantSteps[i], "files", "spans", "symbols") {
			add("step %d: %s", i, d)
		}
	}
	for _, d := range stepDiff(got.Final, td, "pred_files", "pred_spans", "pred_symbols") {
		add("final: %s", d)
	}
	return diffs
}

func str(v *jsontree.Value, k string) string {
	s, _ := v.Lookup(k)
	if s == nil {
		return ""
	}
	return s.Str
}

func stepDiff(got model.Step, want *jsontree.Value, fk, sk, yk string) []string {
	var diffs []string
	var wf []string
	if f, ok := want.Lookup(fk); ok {
		for _, x := range f.Arr {
			wf = append(wf, x.Str)
		}
	}
	if strings.Join(wf, "\x00") != strings.Join(got.Files, "\x00") || len(wf) != len(got.Files) {
		diffs = append(diffs, fmt.Sprintf("files %q, want %q", got.Files, wf))
	}
	var ws []string
	if s, ok := want.Lookup(sk); ok {
		for _, m := range s.Obj {
			var parts []string
			for _, sp := range m.Val.Arr {
				a, _ := sp.Lookup("start")
				b, _ := sp.Lookup("end")
				parts = append(parts, a.Str+"-"+b.Str)
			}
			ws = append(ws, m.Key+":"+strings.Join(parts, ","))
		}
	}
	var gs []string
	for _, fs := range got.Spans {
		var parts []string
		for _, sp := range fs.Spans {
			parts = append(parts, fmt.Sprintf("%d-%d", sp.Start, sp.End))
		}
		gs = append(gs, fs.File+":"+strings.Join(parts, ","))
	}
	if strings.Join(ws, " ") != strings.Join(gs, " ") {
		diffs = append(diffs, fmt.Sprintf("spans %q, want %q", gs, ws))
	}
	var wy []string
	if s, ok := want.Lookup(yk); ok {
		for _, m := range s.Obj {
			var names []string
			for _, n := range m.Val.Arr {
				names = append(names, n.Str)
			}
			wy = append(wy, m.Key+":"+strings.Join(names, ","))
		}
	}
	var gy []string
	for _, fs := range got.Symbols {
		gy = append(gy, fs.File+":"+strings.Join(fs.Symbols, ","))
	}
	if strings.Join(wy, " ") != strings.Join(gy, " ") {
		diffs = append(diffs, fmt.Sprintf("symbols %q, want %q", gy, wy))
	}
	return diffs
}
