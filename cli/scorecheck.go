package cli

import (
	"os"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/report"
	"github.com/trajscope/trajscope/scoring"
)

// scoreChoice is what score's flags chose, once checked.
type scoreChoice struct {
	sem            model.Semantics
	lens           model.Lens
	format         string
	shardK, shardN int
	atK            []int
}

// check validates score's flags: a usage error names the first bad one.
func (o *scoreOptions) check() (scoreChoice, error) {
	var c scoreChoice
	switch {
	case o.gold == "" && o.pred == "":
		return c, usagef("score needs --gold and --pred")
	case o.gold == "":
		return c, usagef("score needs --gold (the gold context)")
	case o.pred == "":
		return c, usagef("score needs --pred (the predictions or a run)")
	case o.parseTimeout <= 0:
		return c, usagef("--parse-timeout must be positive, e.g. 2s")
	case o.resume && (o.out == "" || o.out == "-"):
		return c, usagef("--resume continues an --out FILE: name the file")
	}
	var err error
	if c.sem, err = model.ParseSemantics(o.semantics); err != nil {
		return c, usageError{err}
	}
	if c.lens, err = model.ParseLens(o.lens); err != nil {
		return c, usageError{err}
	}
	c.format = o.format
	if c.format == "" && o.out == "" {
		c.format = "jsonl"
	}
	if err := report.CheckResultFormat(c.format); err != nil {
		return c, usageError{err}
	}
	if o.atK != "" {
		if c.atK, err = scoring.ParseAtK(o.atK); err != nil {
			return c, usageError{err}
		}
	}
	shard, err := resolveShard(o.shard, os.Getenv)
	if err != nil {
		return c, err
	}
	if c.shardK, c.shardN, err = scoring.ParseShard(shard); err != nil {
		return c, usageError{err}
	}
	return c, nil
}
