package gold

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/trajscope/trajscope/internal/lazyre"
	"github.com/trajscope/trajscope/internal/termsafe"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers/groundtruth"
)

// Run ids often carry decorations that gold ids do not:
//   - Harbor trial names append "__" and a 7-character random token to the
//     task name (mcp_ccx-dep-trace-002_q04bku__6z2d9CA);
//   - CodeScaleBench task names add a config prefix ("mcp_", "baseline_",
//     "ccb_", "sg_", "sourcegraph_") and a "_" 6-character token
//     (mcp_ccx-dep-trace-002_q04bku for gold ccx-dep-trace-002), and repeated
//     trials end in "_1", "_2";
//   - tools disagree on case, on "-" versus "_" (their tracker's
//     "dash/underscore" normalisation) and on Pro's "instance_" prefix.
var (
	harborSuffix = lazyre.New(`__[A-Za-z0-9]{7}$`)
	csbSuffix    = lazyre.New(`_[a-z0-9]{6}$`)
	trialSuffix  = lazyre.New(`_[0-9]{1,3}$`)
	configPrefix = lazyre.New(`^(?i:mcp|baseline|ccb|sg|sourcegraph)[_-]`)
)

// Lookup is the one rule that pairs a run with its gold: under the
// reference semantics an exact id (as the upstream evaluator matches), under
// fixed semantics Match's normalisation as well.
func (s *Set) Lookup(id string, sem model.Semantics) (*model.Gold, bool) {
	if sem == model.Fixed {
		return s.Match(id)
	}
	return s.Get(id)
}

// Find is Lookup with an error for the user when nothing matches: under the
// reference semantics it names the row --semantics fixed would pair the id
// with, if any.
func (s *Set) Find(id string, sem model.Semantics) (*model.Gold, error) {
	if g, ok := s.Lookup(id, sem); ok {
		return g, nil
	}
	if near, ok := s.Match(id); ok && sem == model.ContextBench {
		return nil, fmt.Errorf("no gold for instance %q (the reference matches ids exactly; --semantics fixed would pair it with %q)", termsafe.Line(id), termsafe.Line(near.ID))
	}
	return nil, fmt.Errorf("no gold for instance %q", termsafe.Line(id))
}

// FindRun is Find for a run: by the run's id, then (outside the reference
// semantics) by the id its file records when the evaluator's file-name rule
// named it otherwise; note then says which id matched.
func (s *Set) FindRun(run *model.Run, sem model.Semantics, reference bool) (g *model.Gold, note string, err error) {
	g, err = s.Find(run.InstanceID, sem)
	if err == nil || run.RecordedID == "" || reference {
		return g, "", err
	}
	if rg, rerr := s.Find(run.RecordedID, sem); rerr == nil {
		return rg, fmt.Sprintf("%s: instance %q by its file name (the evaluator's rule), %q by its record: gold matched by the record's id",
			termsafe.Line(run.Path), termsafe.Line(run.InstanceID), termsafe.Line(run.RecordedID)), nil
	}
	return nil, "", err
}

// Match finds the gold for a run's id. An exact Get always wins. Otherwise it
// strips run decorations (Harbor trial suffix, CodeScaleBench token, trial
// number, config prefix; fewest strips first) and tries each stem exactly,
// then compares ids case-insensitively with "-" and "_" runs equated and
// Pro's "instance_" prefix optional, accepting only an unambiguous hit.
func (s *Set) Match(id string) (*model.Gold, bool) {
	if g, ok := s.Get(id); ok {
		return g, true
	}
	if s == nil || id == "" {
		return nil, false
	}
	cands := stems(id)
	for _, c := range cands[1:] {
		if g, ok := s.Get(c); ok {
			return g, true
		}
	}
	s.build() // the normalised ids are over every row
	s.normOnce.Do(s.buildNorm)
	for _, c := range cands {
		if gs := s.norm[normKey(c)]; len(gs) == 1 {
			return gs[0], true
		}
	}
	return nil, false
}

// stems returns id and the ids obtained by stripping decorations, in order of
// how much was stripped, without repeats or empty strings.
func stems(id string) []string {
	out := []string{id}
	seen := map[string]bool{id: true}
	addc := func(c string) {
		if c != "" && !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	strip := func(c string, re *regexp.Regexp) string {
		if loc := re.FindStringIndex(c); loc != nil {
			if loc[0] == 0 && loc[1] == len(c) {
				return ""
			}
			if loc[0] == 0 {
				return c[loc[1]:]
			}
			return c[:loc[0]]
		}
		return ""
	}
	// Breadth-first over the strip operations, so fewer strips come first.
	for i := 0; i < len(out) && len(out) < 32; i++ {
		for _, re := range []func() *regexp.Regexp{harborSuffix, csbSuffix, trialSuffix, configPrefix} {
			addc(strip(out[i], re()))
		}
	}
	return out
}

// normKey lower-cases id, turns every run of "-" and "_" into one "-", and
// drops a leading "instance-".
func normKey(id string) string {
	return strings.TrimPrefix(groundtruth.FoldSeparators(id), "instance-")
}

func (s *Set) buildNorm() {
	s.norm = make(map[string][]*model.Gold)
	for key, g := range s.byID {
		k := normKey(key)
		dup := false
		for _, o := range s.norm[k] {
			dup = dup || o == g
		}
		if !dup {
			s.norm[k] = append(s.norm[k], g)
		}
	}
}
