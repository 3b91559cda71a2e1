package story

import (
	"github.com/trajscope/trajscope/observed"
	"github.com/trajscope/trajscope/scoring"
)

// Aside is what the run read that is not a file of the repository: files
// it had written itself (a reproduction script) and files the repository
// does not hold (a log under /tmp, a config in the home directory). Such
// reads put no repository line in view, so no lens counts them; they are
// said rather than left to vanish. Nothing is said without the repository
// (a tree rebuilt from what the run displayed holds only what it read).
type Aside struct {
	// Created and Outside count the reads of each kind.
	Created, Outside int
	// Reads are each action's, by action; nil for none.
	Reads map[int][]AsideRead
}

// AsideRead is one read of a file not in the repository.
type AsideRead struct {
	File string
	// Created: an action up to this one wrote the file.
	Created bool
}

// Count is how many reads were aside.
func (s *Aside) Count() int { return s.Created + s.Outside }

func aside(a *scoring.Analysis) Aside {
	var out Aside
	if a.Partial != nil || !a.HasRepo() {
		return out
	}
	written := map[string]bool{}
	for i := range a.Run.Actions {
		act := &a.Run.Actions[i]
		for _, e := range act.Edits {
			written[observed.NormPath(e)] = true
		}
		for _, c := range act.Changes {
			written[observed.NormPath(c.File)] = true
		}
		for _, r := range act.Reads {
			if r.File == "" || a.Resolve(r.File) != "" {
				continue
			}
			ar := AsideRead{File: r.File, Created: written[observed.NormPath(r.File)]}
			if n := len(out.Reads[i]); n > 0 && out.Reads[i][n-1] == ar {
				continue // one file read in several windows by one action
			}
			if out.Reads == nil {
				out.Reads = map[int][]AsideRead{}
			}
			out.Reads[i] = append(out.Reads[i], ar)
			if ar.Created {
				out.Created++
			} else {
				out.Outside++
			}
		}
	}
	return out
}
