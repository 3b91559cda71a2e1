package runset

import (
	"io/fs"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Demo is the set of the embedded demo task (demo.FS, or a replacement in
// tests): its one run, analysed against its own gold and repository, as
// any run is. sem and facts are as in Sources.
func Demo(fsys fs.FS, rd Reading, sem model.Semantics, facts model.FactStore) (*Set, error) {
	t, err := demo.Load(fsys)
	if err != nil {
		return nil, err
	}
	s := newSet([]string{t.Run.Path}, rd)
	s.addSrc(&src{path: t.Run.Path, runs: []model.Run{*t.Run}})
	s.Prepare(Options{Gold: t.Gold, Sem: sem, Cache: facts, Checkouts: scoring.OneTree{Tree: source.NewFS(t.Repo)}})
	return s, nil
}
