// Package demotask analyses the demo task for tests.
package demotask

import (
	"io/fs"

	"github.com/trajscope/trajscope/demo"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

// Analyze analyses the demo task of fsys (demo.FS, or a replacement in a
// test) under sem against its own gold and repository.
func Analyze(fsys fs.FS, sem model.Semantics) (*scoring.Analysis, error) {
	t, err := demo.Load(fsys)
	if err != nil {
		return nil, err
	}
	g, _ := t.Gold.Get(t.Run.InstanceID)
	return scoring.Analyze(t.Run, g, scoring.NewFileCache(source.NewFS(t.Repo)), sem), nil
}
