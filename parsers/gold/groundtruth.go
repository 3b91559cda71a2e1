package gold

import (
	"github.com/trajscope/trajscope/inputfile"
	"github.com/trajscope/trajscope/parsers/groundtruth"
)

// loadGroundTruth reads CodeScaleBench/Harbor ground truth (a file, or a
// directory of task directories) when path holds it; ok is false otherwise.
func loadGroundTruth(path string, isDir bool) (set *Set, ok bool, err error) {
	if !isDir {
		head, err := inputfile.Head(path, 64<<10)
		if err != nil || !groundtruth.Sniff(path, head) {
			return nil, false, nil
		}
	}
	golds, err := groundtruth.LoadGold(path)
	if err != nil {
		if isDir {
			return nil, false, nil // not ground truth after all; the caller's error stands
		}
		return nil, true, err
	}
	if len(golds) == 0 {
		return nil, false, nil
	}
	set = newSet()
	for i := range golds {
		set.add(&golds[i], path, 0, "")
	}
	return set, true, nil
}
