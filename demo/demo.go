// Package demo is the task trajscope opens when it is run with no
// arguments: a short mini-swe-agent run over a small repository, with its
// gold context, embedded in the binary so the explorer works anywhere. The
// files live in task/ (see task/README.md for what the run shows).
package demo

import (
	"embed"
	"fmt"
	"io/fs"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/parsers/miniswe"
)

//go:embed all:task
var files embed.FS

// FS is the demo task: the trajectory (*.traj.json), gold.json and repo/.
func FS() fs.FS {
	sub, err := fs.Sub(files, "task")
	if err != nil {
		panic(err) // the embed pattern guarantees task/ exists
	}
	return sub
}

// Task is a demo task as read: its run, its gold and its repository.
type Task struct {
	Run  *model.Run
	Gold *gold.Set
	Repo fs.FS
}

// Load reads a demo task from fsys.
func Load(fsys fs.FS) (*Task, error) {
	if fsys == nil {
		return nil, fmt.Errorf("this build has no demo task")
	}
	names, err := fs.Glob(fsys, "*.traj.json")
	if err != nil || len(names) != 1 {
		return nil, fmt.Errorf("demo: expected one *.traj.json, found %d", len(names))
	}
	data, err := fs.ReadFile(fsys, names[0])
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	run, err := miniswe.Parse(names[0], data)
	if err != nil {
		return nil, fmt.Errorf("demo: %s: %w", names[0], err)
	}
	model.MarkRejectedSubmits(run) // as parsers.Load does
	gdata, err := fs.ReadFile(fsys, "gold.json")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	set, err := gold.Parse("gold.json", gdata)
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	if _, ok := set.Get(run.InstanceID); !ok {
		return nil, fmt.Errorf("demo: gold.json has no row for %q", run.InstanceID)
	}
	repo, err := fs.Sub(fsys, "repo")
	if err != nil {
		return nil, fmt.Errorf("demo: %w", err)
	}
	return &Task{Run: run, Gold: set, Repo: repo}, nil
}
