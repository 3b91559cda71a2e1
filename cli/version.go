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
	if rev == "" {
		return v
	}
	return strings.TrimSpace(v + " (" + rev + modified + ")")
}
