package report

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

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

// BuildFiles summarises the result files args name (each PATH or
// LABEL=PATH), read one at a time: of each file only its rows in the tables are kept,
// so memory holds one file however many there are (and, for --compare,
// the two compared). An argument that repeats is read once; runs whose
// default labels collide (every file called all.jsonl) are labelled by
// their path instead.
func BuildFiles(args []string, o Options) (*Report, error) {
	f, err := newFolder(o)
	if err != nil {
		return nil, err
	}
	runs, byArg := planArgs(args)
	var a, b *ResultFile
	if o.Compare {
		if len(args) < 2 {
			return nil, fmt.Errorf("report: --compare needs two result files, A and B (got %d)", len(args))
		}
		a, b = byArg[args[len(args)-2]], byArg[args[len(args)-1]]
	}
	held := map[*ResultFile]*ResultFile{}
	for _, plan := range runs {
		if plan != a && plan != b && Streams(plan.Path) {
			// Rows a line at a time: a results file of any size (the
			// shards of a benchmark joined) costs one row here.
			plan.Format = "jsonl"
			if err := f.addEach(plan, func(fn func(*Instance) error) error { return EachRow(plan.Path, fn) }); err != nil {
				return nil, err
			}
			continue
		}
		run, err := ReadFile(plan.Path, plan.Label)
		if err != nil {
			return nil, err
		}
		plan.Format = run.Format
		f.add(run)
		if o.SkipInfra {
			run.LeaveOutInfra() // what --compare pairs
			plan.LeftOut = run.LeftOut
		}
		if plan == a || plan == b {
			held[plan] = run
		}
	}
	return f.report(held[a], held[b])
}

// EachFile reads the files args name (as ReadArgs does: labels, repeats)
// one at a time and gives each to fn, which must not keep it. It returns
// the runs with their labels, paths and formats but no instances.
func EachFile(args []string, fn func(*ResultFile) error) ([]*ResultFile, error) {
	runs, _ := planArgs(args)
	err := eachFile(runs, func(_, run *ResultFile) error { return fn(run) })
	if err != nil {
		return nil, err
	}
	return runs, nil
}

// eachFile reads the planned runs one at a time, giving fn each plan (its
// format now set) with the run read.
func eachFile(runs []*ResultFile, fn func(plan, run *ResultFile) error) error {
	for _, plan := range runs {
		read, err := ReadFile(plan.Path, plan.Label)
		if err != nil {
			return err
		}
		plan.Format = read.Format
		if err := fn(plan, read); err != nil {
			return err
		}
	}
	return nil
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
