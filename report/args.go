package report

import (
	"os"
	"path/filepath"
	"strings"
)

// ReadArgs reads the result files named on a command line, each PATH or
// LABEL=PATH. An argument that repeats is read once; byArg maps every
// argument to its run. Runs whose default labels collide (every file
// called all.jsonl) are labelled by their path instead.
func ReadArgs(args []string) (runs []*ResultFile, byArg map[string]*ResultFile, err error) {
	byArg = map[string]*ResultFile{}
	for _, arg := range args {
		if _, ok := byArg[arg]; ok {
			continue
		}
		label, path := splitLabel(arg)
		run, err := ReadFile(path, label)
		if err != nil {
			return nil, nil, err
		}
		byArg[arg] = run
		runs = append(runs, run)
	}
	disambiguate(runs)
	return runs, byArg, nil
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
