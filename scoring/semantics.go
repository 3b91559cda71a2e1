package scoring

import (
	"strings"

	"github.com/trajscope/trajscope/model"
)

// GoldPaths are the paths of every gold file, span and item, as
// NormalizeGoldPath makes them under sem, in gold order.
func GoldPaths(g *model.Gold, sem model.Semantics) []string {
	out := make([]string, 0, len(g.Init)+len(g.Add)+len(g.Files))
	for _, sp := range g.Init {
		out = append(out, NormalizeGoldPath(sp.File, sem))
	}
	for _, sp := range g.Add {
		out = append(out, NormalizeGoldPath(sp.File, sem))
	}
	for _, f := range g.Files {
		out = append(out, NormalizeGoldPath(f, sem))
	}
	return out
}

// goldPath is a gold span's path as scoring keys it. A gold file's paths
// go through upstream's normalisation; a patch's or the run's edits'
// regions were located in the repository and keep its paths exactly (a
// patch's ".gitignore" is not upstream's "gitignore").
func goldPath(g *Gold, p string, sem model.Semantics) string {
	if g != nil && g.From != model.GoldFromFile {
		return p
	}
	return NormalizeGoldPath(p, sem)
}

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
