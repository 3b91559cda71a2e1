package shell

import "testing"

func TestZZProbe(t *testing.T) {
	for _, c := range []string{"git branch -a | wc -l", "git checkout -b fix-1", "python -m pytest tests/ -x | grep FAIL", "pytest -q 2>&1 | grep -n error", "git branch", "git log --oneline | head -5", "git status", "git diff | head", "git stash", "ls | wc -l", "cat foo.py | wc -l", "git show HEAD:foo.py"} {
		r := Analyze(c)
		t.Logf("%-45q cat=%v reads=%v searches=%v edits=%v", c, r.Category, r.Reads, r.Searches, r.Edits)
	}
}
