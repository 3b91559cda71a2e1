package ui

import (
	"github.com/trajscope/trajscope/ui/code"
	"github.com/trajscope/trajscope/ui/goldpanel"
	"github.com/trajscope/trajscope/ui/observation"
	"github.com/trajscope/trajscope/ui/pane"
	"github.com/trajscope/trajscope/ui/task"
	"github.com/trajscope/trajscope/ui/timeline"
)

// registry lists the explorer's panes in focus order (tab). It is the only
// place the root names a pane: adding one is a package that implements
// pane.Pane plus one line here, with its name, its place in the layout and
// its constructor. Panes that share a place take turns in it, the one
// focused last on top.
var registry = []struct {
	name  string
	place place
	new   func(*pane.Context) pane.Pane
}{
	{"timeline", placeList, func(c *pane.Context) pane.Pane { return timeline.New(c) }},
	{"source", placeMain, func(c *pane.Context) pane.Pane { return code.New(c) }},
	{"observation", placeDetail, func(c *pane.Context) pane.Pane { return observation.New(c) }},
	{"task", placeTask, func(c *pane.Context) pane.Pane { return task.New(c) }},
	{"gold", placeSide, func(c *pane.Context) pane.Pane { return goldpanel.New(c) }},
}

// paneID is a pane's index in the registry.
type paneID int

func (p paneID) String() string {
	if p < 0 || int(p) >= len(registry) {
		return "none"
	}
	return registry[p].name
}
