package scoring

import (
	"iter"

	"github.com/trajscope/trajscope/model"
)

// stepList is a lens's steps read one at a time. The observed lens of a
// long run has a step per action; they are made as scoring reads them (from
// the resolved reads the analysis keeps anyway) rather than held all at once
// beside everything else.
type stepList struct {
	n  int
	at func(i int) model.Step
}

// stepsOf reads a list of steps.
func stepsOf(list []model.Step) stepList {
	return stepList{len(list), func(i int) model.Step { return list[i] }}
}

// all yields the steps in order.
func (s stepList) all() iter.Seq2[int, model.Step] {
	return func(yield func(int, model.Step) bool) {
		for i := range s.n {
			if !yield(i, s.at(i)) {
				return
			}
		}
	}
}

// collect makes the list.
func (s stepList) collect() []model.Step {
	out := make([]model.Step, 0, s.n)
	for _, st := range s.all() {
		out = append(out, st)
	}
	return out
}
