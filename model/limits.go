package model

// The inputs trajscope promises to read within 3 × their size + 150 MB of
// memory. Real runs seen by 2026-11-26 had 10 to 2,000 actions in 50 KB to
// 20 MB; these
// bounds leave room for a run or a gold fifty times larger than any seen,
// and past them an input is refused at once, with one line naming the file
// and the bound, rather than read at a cost nobody can predict.
const (
	// MaxFileBytes bounds any one input file: a run, gold, predictions,
	// results.
	MaxFileBytes = 256 << 20
	// MaxActions bounds one run's actions, and one prediction record's
	// steps.
	MaxActions = 100_000
	// MaxGoldSpans bounds one instance's gold: its spans and files.
	MaxGoldSpans = 100_000

	// MaxShownActions and MaxShownGoldSpans bound what export and compare
	// lay out: a page, recording or side-by-side of more is unreadable
	// (a 100,000-action page was 60 MB on 2026-11-26), and each holds several copies of
	// the run, so past them the promise above would not hold. score and
	// view read up to the bounds above.
	MaxShownActions   = 20_000
	MaxShownGoldSpans = 20_000
)
