package testkit

import "github.com/trajscope/trajscope/model"

// OneTree is a set of checkouts (scoring.Checkouts) that gives every
// instance the same tree: for scoring against one fixture.
type OneTree struct{ Tree model.Tree }

func (o OneTree) Key(_, _, _, _, _ string) (string, error) { return "", nil }
func (o OneTree) Open(string) (model.Tree, error)          { return o.Tree, nil }
func (o OneTree) Release(string)                           {}
