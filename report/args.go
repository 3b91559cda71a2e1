package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// ReadArgs reads the result files named on a command line, each PATH or
// LABEL=PATH. An argument that repeats is read once; byArg maps every
// argument to its run. Runs whose default labels collide (every file
// called all.jsonl) are labelled by their path instead.
func ReadArgs(args []string) (runs []*ResultFile, byArg map[string]*ResultFile, err error) {
	runs, byArg = planArgs(args)
	for _, run := range runs {
		read, err := ReadFile(run.Path, run.Label)
		if err != nil {
			return nil, nil, err
		}
		*run = *read
	}
	return runs, byArg, nil
}

// planArgs makes, for each distinct argument, the run it names, labelled
// and not yet read.
func planArgs(args []string) (runs []*ResultFile, byArg map[string]*ResultFile) {
	byArg = map[string]*ResultFile{}
	for _, arg := range args {
		if _, ok := byArg[arg]; ok {
			continue
		}
		label, path := splitLabel(arg)
		if label == "" {
			label = DefaultLabel(path)
		}
		run := &ResultFile{Label: label, Path: path}
		byArg[arg] = run
		runs = append(runs, run)
	}
	disambiguate(runs)
	return runs, byArg
}

// BuildEach is Build over the files args name, read one at a time: of each
// file only its summary and cost rows are kept, so memory holds one file
// however many there are. It serves reports without the sections that read
// every run's rows (o sets no PerInstance, Compare, By or Missed); the
// report's runs have their labels, paths and formats but no instances.
func BuildEach(args []string, o Options) (*Report, error) {
	if o.PerInstance || o.CompareA != nil || o.By != "" || o.Missed {
		return nil, fmt.Errorf("report: BuildEach cannot build per-instance sections")
	}
	lens, err := o.lens()
	if err != nil {
		return nil, err
	}
	r := &Report{Lens: lens}
	var costs []CostRow
	r.Runs, err = EachFile(args, func(run *ResultFile) error {
		r.Rows = append(r.Rows, Summarize(run, lens))
		costs = append(costs, costRow(run))
		return nil
	})
	if err != nil {
		return nil, err
	}
	r.Cost = costTable(costs)
	return r, nil
}

// EachFile reads the files args name (as ReadArgs does: labels, repeats)
// one at a time and gives each to fn, which must not keep it. It returns
// the runs with their labels, paths and formats but no instances.
func EachFile(args []string, fn func(*ResultFile) error) ([]*ResultFile, error) {
	runs, _ := planArgs(args)
	for _, run := range runs {
		read, err := ReadFile(run.Path, run.Label)
		if err != nil {
			return nil, err
		}
		run.Format = read.Format
		if err := fn(read); err != nil {
			return nil, err
		}
	}
	return runs, nil
}

// splitLabel reads LABEL=PATH. An argument that names an existing file is a
// path even if it contains "=".
func splitLabel(arg string) (label, path string) {
	i := strings.IndexByte(arg, '=')
	if i <= 0 {
		return "", arg
	}
	if _, err := os.Stat(arg); err == nil {
		return "", arg
	}
	return arg[:i], arg[i+1:]
}

// disambiguate labels runs whose default labels collide by their path,
// without the extension.
func disambiguate(runs []*ResultFile) {
	count := map[string]int{}
	for _, r := range runs {
		count[r.Label]++
	}
	for _, r := range runs {
		if count[r.Label] > 1 && r.Label == DefaultLabel(r.Path) {
			r.Label = strings.TrimSuffix(filepath.ToSlash(r.Path), filepath.Ext(r.Path))
		}
	}
}
