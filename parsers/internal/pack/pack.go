// Package pack makes a parsed run independent of the bytes it was parsed
// from and moves its actions' outputs into a compressed store.
//
// Parsers decode a file in place, so every string of a run shares the
// file's buffer, and one short path keeps all of it alive. A run's outputs
// are most of its file but are read one at a time; its paths repeat on
// every read. Packing copies each distinct path once, the other texts into
// one block of exactly their size, and the outputs and thoughts into
// textstore.Stores, after which the file's buffer is garbage: a
// million-action run then holds a fifth of its file instead of all of it.
package pack

import (
	"bytes"
	"strings"

	"github.com/trajscope/trajscope/internal/textstore"
	"github.com/trajscope/trajscope/model"
)

// Run packs r in place: its observations and thoughts are compressed, and
// none of its strings or bytes share
// memory with anything else afterwards. A run already packed is left as it
// is.
func Run(r *model.Run) {
	r.Observations = compress(r.Observations, len(r.Actions))
	r.Thoughts = compress(r.Thoughts, len(r.Actions))
	p := packer{names: map[string]string{}}
	// Texts go to one block sized by a first pass: appending would copy
	// them again as it grew, at twice their size.
	total := 0
	p.texts(r, func(s *string) { total += len(*s) })
	var block strings.Builder
	block.Grow(total)
	p.texts(r, func(s *string) { block.WriteString(*s) })
	all, off := block.String(), 0
	p.texts(r, func(s *string) {
		*s = all[off : off+len(*s)]
		off += len(*s)
	})
	p.rest(r)
}

// Longest is the length of r's longest output or thought once packed, 0
// when r is not packed.
func Longest(r *model.Run) int {
	n := 0
	for _, t := range []model.Texts{r.Observations, r.Thoughts} {
		if s, ok := t.(*textstore.Store); ok {
			n = max(n, s.Longest())
		}
	}
	return n
}

// compress returns the first n texts of t in a textstore.Store; nil when t
// is nil or already one.
func compress(t model.Texts, n int) model.Texts {
	if _, done := t.(*textstore.Store); t == nil || done {
		return t
	}
	b := textstore.NewBuilder(n)
	for i := range n {
		b.Add(t.Text(i))
	}
	return b.Store()
}

type packer struct {
	names map[string]string
}

// name returns the packed copy of a name that repeats (a path, a tool),
// copying it the first time it is seen.
func (p *packer) name(s *string) {
	if *s == "" {
		return
	}
	if c, ok := p.names[*s]; ok {
		*s = c
		return
	}
	c := strings.Clone(*s)
	p.names[c] = c
	*s = c
}

// texts calls f on every text of r that is not a name, always in the same
// order.
func (p *packer) texts(r *model.Run, f func(*string)) {
	for i := range r.Actions {
		a := &r.Actions[i]
		f(&a.Command)
		f(&a.Failure)
	}
	for _, s := range []*string{&r.InstanceID, &r.Format, &r.Agent, &r.Model, &r.Path, &r.ExitStatus} {
		f(s)
	}
	pr := &r.Prediction
	for _, s := range []*string{&pr.InstanceID, &pr.OriginalInstID, &pr.ModelPatch, &pr.RepoURL, &pr.Commit} {
		f(s)
	}
	for i := range pr.Extra {
		f(&pr.Extra[i].Key)
	}
}

// rest packs the names of r and its raw bytes.
func (p *packer) rest(r *model.Run) {
	for i := range r.Actions {
		a := &r.Actions[i]
		p.name(&a.Tool)
		for k := range a.Reads {
			p.name(&a.Reads[k].File)
		}
		for k := range a.Searches {
			p.name(&a.Searches[k].File)
		}
		for k := range a.Edits {
			p.name(&a.Edits[k])
		}
	}
	pr := &r.Prediction
	for i := range pr.Steps {
		p.step(&pr.Steps[i])
	}
	p.step(&pr.Final)
	for i := range pr.Extra {
		pr.Extra[i].Value = bytes.Clone(pr.Extra[i].Value)
	}
	lists(r)
}

// lists moves the many short lists of r (an action's reads, a step's files
// and spans) into one block per kind: a long run has millions of them, each
// its own small allocation rounded up to a size class, and the parser's
// growing lists leave room unused. One block per kind also leaves the
// collector a few large objects to scan instead of millions of small ones.
func lists(r *model.Run) {
	acts := r.Actions
	slab(func(f func(*[]model.ObservedRead)) {
		for i := range acts {
			f(&acts[i].Reads)
		}
	})
	slab(func(f func(*[]model.SearchHit)) {
		for i := range acts {
			f(&acts[i].Searches)
		}
	})
	slab(func(f func(*[]string)) {
		for i := range acts {
			f(&acts[i].Edits)
		}
	})
	slab(func(f func(*[]int)) {
		for i := range acts {
			f(&acts[i].Steps)
		}
	})
	pr := &r.Prediction
	if cap(pr.Steps) > len(pr.Steps) {
		pr.Steps = append(make([]model.Step, 0, len(pr.Steps)), pr.Steps...)
	}
	steps := pr.Steps
	slab(func(f func(*[]string)) {
		for i := range steps {
			f(&steps[i].Files)
		}
	})
	slab(func(f func(*[]model.FileSpans)) {
		for i := range steps {
			f(&steps[i].Spans)
		}
	})
	slab(func(f func(*[]model.Interval)) {
		for i := range steps {
			for k := range steps[i].Spans {
				f(&steps[i].Spans[k].Spans)
			}
		}
	})
	slab(func(f func(*[]model.FileSymbols)) {
		for i := range steps {
			f(&steps[i].Symbols)
		}
	})
}

// slab copies the lists each yields into one block of their total length
// and points each list at its part, its capacity clipped so that appending
// to one copies it rather than writing into the next. Empty lists are left
// as they are. each must yield the same lists both times it is called.
func slab[T any](each func(func(*[]T))) {
	total := 0
	each(func(l *[]T) { total += len(*l) })
	if total == 0 {
		return
	}
	block := make([]T, 0, total)
	each(func(l *[]T) {
		if len(*l) > 0 {
			k := len(block)
			block = append(block, *l...)
			*l = block[k:len(block):len(block)]
		}
	})
}

func (p *packer) step(s *model.Step) {
	for i := range s.Files {
		p.name(&s.Files[i])
	}
	for i := range s.Spans {
		p.name(&s.Spans[i].File)
	}
	for i := range s.Symbols {
		p.name(&s.Symbols[i].File)
		for k := range s.Symbols[i].Symbols {
			p.name(&s.Symbols[i].Symbols[k])
		}
	}
}
