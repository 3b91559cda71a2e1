package cli

import (
	"runtime/debug"
	"strings"
)

// version is "MODULE-VERSION (COMMIT[, modified])" from the build
// information Go embeds: `go install …@v1.2.3` gives the module version, a
// build from a checkout gives the commit.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	return formatVersion(bi)
}

func formatVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = ", modified"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	switch {
	case rev == "" && v == "(devel)":
		// GOFLAGS=-buildvcs=false, or a copy of the tree without .git.
		return "(devel: no version stamped; build from a git checkout with go build -buildvcs=true)"
	case rev == "" || strings.Contains(v, rev):
		// A release, or Go's pseudo-version of the commit
		// (v0.0.0-20261127092541-07ce90995603+dirty).
		return v
	}
	return strings.TrimSpace(v + " (" + rev + modified + ")")
}
