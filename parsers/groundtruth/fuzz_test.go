package groundtruth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// FuzzGroundTruth checks that no input panics under any of the file names
// that choose a reader, and that what loads is well formed.
func FuzzGroundTruth(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/variants/*.json")
	more, _ := filepath.Glob("testdata/tasks/*/*/*")
	for _, p := range append(seeds, more...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"artifacts":{"oracle":{"required_files":[{"repo":1,"path":[]}],"dependency_chains":[{"steps":"x"}]}},"chunks":[{"file":"a","line_start":-1e99}]}`))
	names := []string{"ground_truth.json", "expected_defects.json", "expected_changes.json", "task_spec.json",
		"oracle_answer.json", "instance.json", "reference_fix.patch", "x.json"}
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		for _, name := range names {
			tr, err := parse(filepath.Join("task", "tests", name), data)
			if err != nil {
				continue
			}
			seen := map[File]bool{}
			for _, fl := range tr.Files {
				if fl.Path == "" || seen[fl] {
					t.Fatalf("%s: bad or repeated file %+v", name, fl)
				}
				seen[fl] = true
			}
			for _, c := range tr.Chunks {
				if c.Start < 1 || c.End < c.Start || c.Path == "" {
					t.Fatalf("%s: bad chunk %+v", name, c)
				}
			}
			_ = tr.Gold()
		}
	})
}
