package cli

import (
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/runset"
)

// listRuns shows the run list: the browser on a terminal, otherwise every
// run analysed and printed as a table (or JSON).
func listRuns(env *Env, o *viewOptions, set *runset.Set, lens model.Lens) error {
	if !o.explorer(env) {
		for set.Step() {
		}
		warn(env, set)
		if o.json {
			return report.WriteRunListJSON(env.Stdout, set.Rows())
		}
		return report.WriteRunList(env.Stdout, set.Rows(), lens)
	}
	return browse(env, o, set, lens)
}
