package report

import "fmt"

// Build is BuildFiles over runs held in memory, for the tests that make
// runs rather than files.
func Build(runs []*ResultFile, o Options) (*Report, error) {
	f, err := newFolder(o)
	if err != nil {
		return nil, err
	}
	for _, run := range runs {
		f.add(run)
	}
	var a, b *ResultFile
	if o.Compare {
		if len(runs) < 2 {
			return nil, fmt.Errorf("report: --compare needs two runs, A and B (got %d)", len(runs))
		}
		a, b = runs[len(runs)-2], runs[len(runs)-1]
	}
	return f.report(a, b)
}
