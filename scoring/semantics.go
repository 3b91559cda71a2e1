package scoring

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// NormalizeGoldPath is upstream _normalize_rel_path. Under ContextBench
// semantics a relative path goes through lstrip("./"), which strips every
// leading '.' and '/' character and so turns ".github/x" into "github/x";
// Fixed removes only leading "./" and "/" segments.
func NormalizeGoldPath(p string, sem model.Semantics) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, `\`, "/")
	switch {
	case strings.HasPrefix(p, "/testbed/"):
		return p[len("/testbed/"):]
	case strings.HasPrefix(p, "/workspace/"):
		rest := p[len("/workspace/"):]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			return rest[i+1:]
		}
		return rest
	case strings.HasPrefix(p, "/"):
		return strings.TrimLeft(p, "/")
	}
	if sem == model.Fixed {
		for {
			switch {
			case strings.HasPrefix(p, "./"):
				p = p[2:]
			case strings.HasPrefix(p, "/"):
				p = p[1:]
			default:
				return p
			}
		}
	}
	return strings.TrimLeft(p, "./")
}
