package source

import (
	"encoding/binary"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
)

// pathsKey names the answers for one commit. A commit hash fixes every tree
// below it, so what a path names there never changes; the version changes
// if the walk's rules (symlinks, containment) ever do.
func pathsKey(commit plumbing.Hash) string {
	return "git-paths/v1/" + commit.String()
}

// loadFacts adds the persisted answers for the tree's commit.
func (g *GitTree) loadFacts() {
	if g.facts == nil {
		return
	}
	b, ok := g.facts.Get(pathsKey(g.commit))
	if !ok {
		return
	}
	m, ok := decodePaths(b)
	if !ok {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for p, f := range m {
		if _, seen := g.paths[p]; !seen {
			g.paths[p] = f
		}
	}
}

// saveFacts persists the answers, merged with any another process saved
// meanwhile (a lost race only loses answers, which are recomputed).
func (g *GitTree) saveFacts() {
	g.mu.Lock()
	if g.facts == nil || g.newFacts == 0 {
		g.mu.Unlock()
		return
	}
	all := make(map[string]pathFact, len(g.paths))
	for p, f := range g.paths {
		all[p] = f
	}
	g.newFacts = 0
	g.mu.Unlock()
	if b, ok := g.facts.Get(pathsKey(g.commit)); ok {
		if m, ok := decodePaths(b); ok {
			for p, f := range m {
				if _, seen := all[p]; !seen {
					all[p] = f
				}
			}
		}
	}
	g.facts.Put(pathsKey(g.commit), encodePaths(all))
}

// encodePaths writes each answer as uvarint(len(path)) path, then 0 (not a
// file) or 1 and the 20-byte blob hash; sorted, so equal sets encode equally.
func encodePaths(m map[string]pathFact) []byte {
	keys := make([]string, 0, len(m))
	for p := range m {
		keys = append(keys, p)
	}
	sort.Strings(keys)
	var b []byte
	for _, p := range keys {
		b = binary.AppendUvarint(b, uint64(len(p)))
		b = append(b, p...)
		if f := m[p]; f.file {
			b = append(b, 1)
			b = append(b, f.blob[:]...)
		} else {
			b = append(b, 0)
		}
	}
	return b
}

func decodePaths(b []byte) (map[string]pathFact, bool) {
	m := map[string]pathFact{}
	for len(b) > 0 {
		n, k := binary.Uvarint(b)
		if k <= 0 || n > uint64(len(b)-k) {
			return nil, false
		}
		p := string(b[k : k+int(n)])
		b = b[k+int(n):]
		if len(b) == 0 {
			return nil, false
		}
		if c, ok := cleanRel(p); !ok || c != p || c == "." {
			return nil, false
		}
		switch b[0] {
		case 0:
			m[p] = pathFact{}
			b = b[1:]
		case 1:
			if len(b) < 21 {
				return nil, false
			}
			var f pathFact
			f.file = true
			copy(f.blob[:], b[1:21])
			m[p] = f
			b = b[21:]
		default:
			return nil, false
		}
	}
	return m, true
}
