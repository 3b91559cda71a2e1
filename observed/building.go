// What Build made of a followed run's actions, kept between readings
// (Lines.last): each action's key, the lines shown of each file, the
// files filled.

package observed

import (
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/trajscope/trajscope/model"
)

// filled is a file as fill made it from count lines shown and a length of
// total, in n lines.
type filled struct {
	f            *file
	count, total int
	n            int
}

// fill is t.fill of file p, or the file the building filled last from the
// same lines: a kept building's lines of a file only grow (the first
// display wins), so as many lines as before are the same lines. A
// followed run's reading fills only the files it showed lines of.
func (b *building) fill(t *Tree, p string, budget int) int {
	shown, total := b.shown[p], b.lengths[p]
	if k, ok := b.filled[p]; ok && k.count == len(shown) && k.total == total && k.n <= budget {
		t.files[p] = k.f
		return k.n
	}
	n := t.fill(p, shown, total, budget)
	if b.cow == nil && n < budget {
		if b.filled == nil {
			b.filled = map[string]filled{}
		}
		b.filled[p] = filled{t.files[p], len(shown), total, n}
	}
	return n
}

// building is what Build made of a run's actions so far, kept between
// the readings of a followed run (Lines.last).
type building struct {
	gold, roots []string
	// keys say which actions were read, to know them again; done counts
	// them.
	keys []actionKey
	done int
	// shown are the lines shown of each file, by line number (the first
	// display wins); lengths the files' lengths a window reported; order
	// the files in the order first shown; added every file named;
	// created the files an action wrote before any showed them (the
	// agent's own, not the repository's).
	shown   map[string]map[int]string
	lengths map[string]int
	order   []string
	added   []string
	created map[string]bool
	// filled are the files last filled from a kept building's lines (see
	// fill); cow, in an overlay, the files whose lines it copied to add
	// to (nil: the building owns its maps).
	filled map[string]filled
	cow    map[string]bool
}

// actionKey is what Build read of one action: its output (the string
// itself, by address: a followed run's outputs are the same strings from
// one reading to the next) and its reads, searches and edits.
type actionKey struct {
	obs      *byte
	obsLen   int
	reads    []model.ObservedRead
	searches []model.SearchHit
	edits    []string
}

func keyOf(act *model.Action, obs string) actionKey {
	k := actionKey{obsLen: len(obs), reads: act.Reads, searches: act.Searches, edits: act.Edits}
	if obs != "" { // an empty string's address is anything
		k.obs = unsafe.StringData(obs)
	}
	return k
}

func (k actionKey) same(o actionKey) bool {
	return k.obs == o.obs && k.obsLen == o.obsLen && slices.Equal(k.reads, o.reads) &&
		slices.Equal(k.searches, o.searches) && slices.Equal(k.edits, o.edits)
}

// resume is the building a Build of run goes on from: the last one kept,
// when the run begins with the same actions under the same gold and roots;
// else a new one.
func (c *Lines) resume(run *model.Run, gold, roots []string) *building {
	fresh := &building{gold: gold, roots: slices.Clone(roots), shown: map[string]map[int]string{},
		lengths: map[string]int{}, created: map[string]bool{}}
	if c == nil || c.last == nil {
		return fresh
	}
	b := c.last
	c.last = nil // mutated from here on: a Build that fails halfway leaves none
	if b.done > len(run.Actions) || !slices.Equal(b.gold, gold) || !slices.Equal(b.roots, roots) {
		return fresh
	}
	for i := range b.done {
		if !b.keys[i].same(keyOf(&run.Actions[i], run.Observation(i))) {
			return fresh
		}
	}
	return b
}

// copyKeys is b as kept: the maps are b's own, which the overlay after it
// does not touch.
func (b *building) copyKeys() *building {
	kept := *b
	kept.keys = slices.Clip(b.keys)
	kept.order, kept.added = slices.Clip(b.order), slices.Clip(b.added)
	return &kept
}

// overlay is b for actions read and not kept: what they add goes to new
// maps over b's.
func (b *building) overlay() *building {
	o := *b
	// Each file's lines are copied when the overlay first adds to them
	// (cow): a running call shows none, and copying every file's lines at
	// every reading cost what the session had shown.
	o.shown, o.cow = maps.Clone(b.shown), map[string]bool{}
	o.lengths, o.created = maps.Clone(b.lengths), maps.Clone(b.created)
	o.order, o.added = slices.Clip(b.order), slices.Clip(b.added)
	return &o
}

// action reads action i of run into b and t.
func (b *building) action(t *Tree, n *namer, c *Lines, run *model.Run, i int) {
	act := &run.Actions[i]
	obs := run.Observation(i)
	b.keys = append(b.keys, keyOf(act, obs))
	b.done++
	add := func(p string) {
		if _, ok := t.files[p]; !ok {
			b.added = append(b.added, p)
		}
		t.add(p)
	}
	for _, e := range act.Edits {
		if p := n.name(e); p != "" && !t.IsFile(p) {
			b.created[p] = true
		}
	}
	for _, h := range act.Searches {
		// A hit with a line (grep -n) is a file; a listing's may be a
		// directory.
		if p := n.name(h.File); p != "" && h.Line > 0 && !b.created[p] {
			add(p)
		}
	}
	for _, r := range act.Reads {
		// A read the parser kept is a file that was there, even when its
		// lines are unknown.
		if p := n.name(r.File); p != "" && !b.created[p] {
			add(p)
		}
	}
	for _, rl := range c.of(act, obs) {
		p := n.name(rl.file)
		if p == "" || b.created[p] {
			continue
		}
		add(p)
		m := b.shown[p]
		switch {
		case m == nil:
			m = map[int]string{}
			b.shown[p] = m
			b.order = append(b.order, p)
			if b.cow != nil {
				b.cow[p] = true
			}
		case b.cow != nil && !b.cow[p]:
			m = maps.Clone(m) // the kept building's: not to be added to
			b.shown[p], b.cow[p] = m, true
		}
		for _, l := range rl.lines {
			if _, ok := m[int(l.num)]; !ok {
				// The first display is the closest to the base commit:
				// later ones may follow the agent's edits. A copy: the
				// line would keep the whole output alive.
				m[int(l.num)] = strings.Clone(clipLine(rl.text(l)))
			}
		}
		b.lengths[p] = max(b.lengths[p], rl.total)
	}
}
