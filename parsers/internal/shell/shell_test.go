package shell

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/observed"
)

func rng(f string, a, b int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadRange, Start: a, End: b}
}
func whole(f string) model.ObservedRead { return model.ObservedRead{File: f, Kind: model.ReadWhole} }
func headR(f string, n int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadHead, Start: 1, End: n}
}
func tailR(f string, n int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadTail, End: n}
}
func fromR(f string, k int) model.ObservedRead {
	return model.ObservedRead{File: f, Kind: model.ReadFrom, Start: k}
}
func hit(f string, n int) model.SearchHit { return model.SearchHit{File: f, Line: n} }

type want struct {
	cat   model.Category
	reads []model.ObservedRead
	hits  []model.SearchHit
	edits []string
}

func check(t *testing.T, label string, got Result, w want) {
	t.Helper()
	if got.Category != w.cat {
		t.Errorf("%s: category %q, want %q", label, got.Category, w.cat)
	}
	if !reflect.DeepEqual(got.Reads, w.reads) && (len(got.Reads) > 0 || len(w.reads) > 0) {
		t.Errorf("%s: reads\n got %+v\nwant %+v", label, got.Reads, w.reads)
	}
	if !reflect.DeepEqual(got.Searches, w.hits) && (len(got.Searches) > 0 || len(w.hits) > 0) {
		t.Errorf("%s: searches\n got %+v\nwant %+v", label, got.Searches, w.hits)
	}
	if !reflect.DeepEqual(got.Edits, w.edits) && (len(got.Edits) > 0 || len(w.edits) > 0) {
		t.Errorf("%s: edits %q, want %q", label, got.Edits, w.edits)
	}
}

func TestAnalyze(t *testing.T) {
	R, S, E, U, X, O := model.CategoryRead, model.CategorySearch, model.CategoryEdit, model.CategoryRun, model.CategorySubmit, model.CategoryOther
	cases := []struct {
		cmd string
		w   want
	}{
		// cat shows whole files.
		{"cat f.py", want{cat: R, reads: []model.ObservedRead{whole("f.py")}}},
		{"cat -n f.py", want{cat: R, reads: []model.ObservedRead{whole("f.py")}}},
		{"cat a.py b.py", want{cat: R, reads: []model.ObservedRead{whole("a.py"), whole("b.py")}}},
		{"cat ./pkg/../pkg/a.py", want{cat: R, reads: []model.ObservedRead{whole("pkg/a.py")}}},
		{`cat "my file.py"`, want{cat: R, reads: []model.ObservedRead{whole("my file.py")}}},
		{"less /testbed/a.py", want{cat: R, reads: []model.ObservedRead{whole("/testbed/a.py")}}},
		// nl | sed and sed -n ranges.
		{"nl -ba /testbed/x.py | sed -n '10,20p'", want{cat: R, reads: []model.ObservedRead{rng("/testbed/x.py", 10, 20)}}},
		{"nl -b a x.py | sed -n \"10,20p\"", want{cat: R, reads: []model.ObservedRead{rng("x.py", 10, 20)}}},
		{"sed -n '5,8p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 5, 8)}}},
		{"sed -n '5,8 p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 5, 8)}}},
		{"sed -n '7p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 7, 7)}}},
		{"sed -n 1,5p x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 1, 5)}}},
		{"sed -n -e '1,5p' -e '10,12p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 1, 5), rng("x.py", 10, 12)}}},
		{"sed -n '1,5p;10,12p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 1, 5), rng("x.py", 10, 12)}}},
		{"sed -n '30,$p' x.py", want{cat: R, reads: []model.ObservedRead{fromR("x.py", 30)}}},
		{"sed -n '5,+3p' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 5, 8)}}},
		{"sed -n '1,20p;20q' x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 1, 20)}}},
		{"sed '10q' x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 10)}}},
		{"sed -n '/def foo/,/return/p' x.py", want{cat: S, hits: []model.SearchHit{hit("x.py", 0)}}},
		{"cat x.py | sed -n '3,4p'", want{cat: R, reads: []model.ObservedRead{rng("x.py", 3, 4)}}},
		{"sed -n '3,4p' < x.py", want{cat: R, reads: []model.ObservedRead{rng("x.py", 3, 4)}}},
		{"awk 'NR>=3 && NR<=9' f.py", want{cat: R, reads: []model.ObservedRead{rng("f.py", 3, 9)}}},
		{"awk 'NR==4' f.py", want{cat: R, reads: []model.ObservedRead{rng("f.py", 4, 4)}}},
		// head and tail.
		{"head -n 20 x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 20)}}},
		{"head -n20 x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 20)}}},
		{"head -20 x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 20)}}},
		{"head --lines=7 x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 7)}}},
		{"head x.py", want{cat: R, reads: []model.ObservedRead{headR("x.py", 10)}}},
		{"head -n 3 a.py b.py", want{cat: R, reads: []model.ObservedRead{headR("a.py", 3), headR("b.py", 3)}}},
		{"tail -n 5 x.py", want{cat: R, reads: []model.ObservedRead{tailR("x.py", 5)}}},
		{"tail -5 x.py", want{cat: R, reads: []model.ObservedRead{tailR("x.py", 5)}}},
		{"tail x.py", want{cat: R, reads: []model.ObservedRead{tailR("x.py", 10)}}},
		{"tail -n +30 x.py", want{cat: R, reads: []model.ObservedRead{fromR("x.py", 30)}}},
		{"cat f.py | head -n 5", want{cat: R, reads: []model.ObservedRead{headR("f.py", 5)}}},
		{"cat f.py | tail -n 5", want{cat: R, reads: []model.ObservedRead{tailR("f.py", 5)}}},
		{"nl -ba f.py | head", want{cat: R, reads: []model.ObservedRead{headR("f.py", 10)}}},
		{"head -n 30 f.py | tail -n 5", want{cat: R, reads: []model.ObservedRead{rng("f.py", 26, 30)}}},
		{"sed -n '100,200p' f.py | head -n 10", want{cat: R, reads: []model.ObservedRead{rng("f.py", 100, 109)}}},
		{"tail -n +10 f.py | head -n 5", want{cat: R, reads: []model.ObservedRead{rng("f.py", 10, 14)}}},
		{"cat a.py b.py | head -n 5", want{cat: R, reads: []model.ObservedRead{headR("a.py", 5)}, hits: []model.SearchHit{hit("b.py", 0)}}},
		// Searches: no reads from the command alone.
		{"grep -n foo x.py", want{cat: S, hits: []model.SearchHit{hit("x.py", 0)}}},
		{"grep -rn foo src/", want{cat: S}},
		{"grep -rn 'alpha' pkg/ --include=*.py", want{cat: S}},
		{"rg -n foo", want{cat: S}},
		{"grep -l foo a.py b.py", want{cat: S, hits: []model.SearchHit{hit("a.py", 0), hit("b.py", 0)}}},
		{"grep -e foo -e bar x.py", want{cat: S, hits: []model.SearchHit{hit("x.py", 0)}}},
		{"cat x.py | grep -n def", want{cat: S, hits: []model.SearchHit{hit("x.py", 0)}}},
		{"find . -name '*.py'", want{cat: S}},
		{"find . -name '*.py' | xargs grep -n foo", want{cat: S}},
		{"ls -la src", want{cat: S}},
		{"ls src/a.py", want{cat: S, hits: []model.SearchHit{hit("src/a.py", 0)}}},
		{"git grep -n foo", want{cat: S}},
		// Version control changes the tree but authors no file: run, not edit.
		{"git stash && git rebase main", want{cat: model.CategoryRun}},
		{"git reset --hard HEAD~1", want{cat: model.CategoryRun}},
		{"git checkout -- pkg/a.py", want{cat: E, edits: []string{"pkg/a.py"}}},
		{"git checkout -b fix-1", want{cat: model.CategoryRun}},
		{"git checkout main", want{cat: model.CategoryRun}},
		{"git checkout .", want{cat: E}},
		// Counting or filtering what a command printed is not reading a
		// file, nor is a test run piped into grep a search.
		{"git branch -a | wc -l", want{cat: model.CategoryOther}},
		{"ls | wc -l", want{cat: S}},
		{"wc -l pkg/a.py", want{cat: R, hits: []model.SearchHit{hit("pkg/a.py", 0)}}},
		{"python -m pytest tests/ -x 2>&1 | grep FAIL", want{cat: model.CategoryRun}},
		{"pytest -q | tail -5", want{cat: model.CategoryRun}},
		// A markup block pasted as the command is a syntax error: bash
		// runs none of it, so it edits nothing.
		{"<EXPLORE_CONTEXT>\nFile: /testbed/a.py\nLines: 1-10\n</EXPLORE_CONTEXT>", want{cat: O}},
		{"echo hi >", want{cat: O}},
		// Edits.
		{"sed -i 's/a/b/' x.py", want{cat: E, edits: []string{"x.py"}}},
		{"sed -i.bak -e 's/a/b/' x.py y.py", want{cat: E, edits: []string{"x.py", "y.py"}}},
		{"echo hi > out.txt", want{cat: E, edits: []string{"out.txt"}}},
		// A scratch file (a temporary directory, a path the shell
		// expands) is no file of the task: writing it is no edit.
		{"echo hi >> /tmp/log.txt", want{cat: O}},
		{`go test ./... 2>&1 | tee "$TMPDIR/out.log"`, want{cat: U}},
		{`python x.py > "$OUT"`, want{cat: U}},
		{"cat > new.py <<'EOF'\nprint(1)\ncat secret.py\nEOF\n", want{cat: E, edits: []string{"new.py"}}},
		{"cat <<EOF > new.py\nx = 1\nEOF", want{cat: E, edits: []string{"new.py"}}},
		{"printf 'x' | tee a.txt b.txt", want{cat: E, edits: []string{"a.txt", "b.txt"}}},
		{"patch -p1 <<EOF\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b\nEOF", want{cat: E, edits: []string{"x.py"}}},
		{"git apply fix.patch", want{cat: E}},
		{"git apply <<'EOF'\n--- a/p/q.py\n+++ b/p/q.py\nEOF", want{cat: E, edits: []string{"p/q.py"}}},
		{"cat x.py > y.py", want{cat: E, edits: []string{"y.py"}}},
		{"rm -f a.py b.py", want{cat: E, edits: []string{"a.py", "b.py"}}},
		{"cp a.py b.py", want{cat: E, edits: []string{"b.py"}}},
		{"perl -pi -e 's/a/b/' x.py", want{cat: E, edits: []string{"x.py"}}},
		// Not edits: 2>&1, /dev/null.
		{"cat x.py 2>&1", want{cat: R, reads: []model.ObservedRead{whole("x.py")}}},
		{"cat x.py 2>/dev/null", want{cat: R, reads: []model.ObservedRead{whole("x.py")}}},
		{"cat x.py > /dev/null", want{cat: R}},
		// Run, submit, other.
		{"python -m pytest tests/", want{cat: U}},
		{"python3 - <<'EOF'\nimport os\nEOF", want{cat: U}},
		{"make test", want{cat: U}},
		{"./run_tests.sh", want{cat: U}},
		{"timeout 60 pytest -x", want{cat: U}},
		{"pip install -e . 2>&1 | tail -5", want{cat: U}},
		{"python setup.py test | head -n 50", want{cat: U}},
		{"git log --oneline | head", want{cat: O}},
		{"submit", want{cat: X}},
		{"echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached", want{cat: X}},
		{"echo MINI_SWE_AGENT_FINAL_OUTPUT; git diff", want{cat: X}},
		{"echo hello", want{cat: O}},
		{"git status", want{cat: O}},
		{"", want{cat: O}},
		// cd prefixes.
		{"cd /testbed && cat x.py", want{cat: R, reads: []model.ObservedRead{whole("/testbed/x.py")}}},
		{"cd /testbed; nl -ba pkg/a.py | sed -n '1,5p' 2>&1", want{cat: R, reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 1, 5)}}},
		{"cd /testbed && cd pkg && cat ../x.py /abs.py", want{cat: R, reads: []model.ObservedRead{whole("/testbed/x.py"), whole("/abs.py")}}},
		{"(cd /a && cat b.py) && cat c.py", want{cat: R, reads: []model.ObservedRead{whole("/a/b.py"), whole("c.py")}}},
		{"cd $HOME && cat c.py", want{cat: R, reads: []model.ObservedRead{whole("c.py")}}},
		// Mixed: edit wins over read, read over search.
		{"sed -i 's/a/b/' x.py && nl -ba x.py | sed -n '1,3p'", want{cat: E, reads: []model.ObservedRead{rng("x.py", 1, 3)}, edits: []string{"x.py"}}},
		{"grep -n foo x.py && cat y.py", want{cat: R, reads: []model.ObservedRead{whole("y.py")}, hits: []model.SearchHit{hit("x.py", 0)}}},
		// Shell syntax: quotes, escapes, heredocs, nested shells, variables.
		{`bash -c "cat q.py"`, want{cat: R, reads: []model.ObservedRead{whole("q.py")}}},
		{"cat $F", want{cat: R}},
		{"cat *.py", want{cat: R}},
		{"cat a\\ b.py", want{cat: R, reads: []model.ObservedRead{whole("a b.py")}}},
		{"FOO=1 cat x.py", want{cat: R, reads: []model.ObservedRead{whole("x.py")}}},
		{"sudo cat /etc/x.conf", want{cat: R, reads: []model.ObservedRead{whole("/etc/x.conf")}}},
		{"cat x.py # cat y.py", want{cat: R, reads: []model.ObservedRead{whole("x.py")}}},
		{"echo 'a && cat x.py'", want{cat: O}},
		{"for f in a b; do cat $f; done", want{cat: R}},
	}
	for _, c := range cases {
		check(t, c.cmd, Analyze(c.cmd), c.w)
	}
}

func TestConfirmFromObservation(t *testing.T) {
	R, S := model.CategoryRead, model.CategorySearch
	numbered := func(from, to int) string {
		s := "<returncode>0</returncode>\n<output>\n"
		for i := from; i <= to; i++ {
			s += "   " + itoa(i) + "\tline\n"
		}
		return s + "</output>"
	}
	cases := []struct {
		name, cmd, obs string
		w              want
	}{
		{"range shown in full", "nl -ba f.py | sed -n '10,12p'", numbered(10, 12),
			want{cat: R, reads: []model.ObservedRead{rng("f.py", 10, 12)}}},
		{"range past EOF narrows", "nl -ba f.py | sed -n '10,200p'", numbered(10, 14),
			want{cat: R, reads: []model.ObservedRead{rng("f.py", 10, 14)}}},
		{"nothing shown drops the read", "nl -ba f.py | sed -n '500,600p'", "<returncode>0</returncode>\n<output>\n</output>",
			want{cat: R}},
		{"cat -n whole file", "cat -n f.py", numbered(1, 7),
			want{cat: R, reads: []model.ObservedRead{rng("f.py", 1, 7)}}},
		{"truncated output keeps both ends", "cat -n f.py", numbered(1, 3) + "\n<elided_chars>\n" + numbered(98, 100),
			want{cat: R, reads: []model.ObservedRead{rng("f.py", 1, 3), rng("f.py", 98, 100)}}},
		{"two numbered views in order", "nl -ba a.py | sed -n '1,2p' && nl -ba b.py | sed -n '12,13p'", numbered(1, 2) + numbered(12, 13),
			want{cat: R, reads: []model.ObservedRead{rng("a.py", 1, 2), rng("b.py", 12, 13)}}},
		{"missing file", "cat nope.py", "cat: nope.py: No such file or directory",
			want{cat: R}},
		{"directory", "cat pkg.py", "cat: pkg.py: Is a directory", want{cat: R}},
		// A whole file is as long as what was printed of it (issue 47 #2):
		// "cat f 2>&1" that printed one line is line 1.
		{"plain cat is what it printed", "cat f.py 2>&1", "import os\n", want{cat: R, reads: []model.ObservedRead{rng("f.py", 1, 1)}}},
		{"cat in mini-swe-agent's wrapper", "cd /testbed && cat f.py", "<returncode>0</returncode>\n<output>\na\nb\n</output>",
			want{cat: R, reads: []model.ObservedRead{rng("/testbed/f.py", 1, 2)}}},
		{"cat then another command keeps the whole file", "cat f.py; echo done", "import os\ndone\n", want{cat: R, reads: []model.ObservedRead{whole("f.py")}}},
		{"cat of two files keeps both whole", "cat a.py b.py", "x\ny\n", want{cat: R, reads: []model.ObservedRead{whole("a.py"), whole("b.py")}}},
		// A pipeline that failed before showing anything shows nothing.
		{"failed pipeline", "sed -n '270,300p' f.py | cat -A", "cat: illegal option -- A\nusage: cat [-belnstuv] [file ...]\n", want{cat: R}},
		{"printed nothing", "cat missing 2>/dev/null | head", "<returncode>1</returncode>\n<output>\n</output>", want{cat: R}},
		{"errors of a command not run are output", "cat f.py", "sed: not this\n", want{cat: R, reads: []model.ObservedRead{rng("f.py", 1, 1)}}},
		{"empty observation changes nothing", "nl -ba f.py | sed -n '10,12p'", "",
			want{cat: R, reads: []model.ObservedRead{rng("f.py", 10, 12)}}},
		{"grep -n single file", "grep -n foo x.py", "3:foo()\n4:foo2()\n9:  foo",
			want{cat: S, reads: []model.ObservedRead{rng("x.py", 3, 4), rng("x.py", 9, 9)},
				hits: []model.SearchHit{hit("x.py", 0), hit("x.py", 3), hit("x.py", 4), hit("x.py", 9)}}},
		{"grep -rn with cd", "cd /testbed && grep -rn foo .", "./pkg/a.py:12:foo\n./pkg/b.py:1:foo\nBinary file x matches",
			want{cat: S, reads: []model.ObservedRead{rng("/testbed/pkg/a.py", 12, 12), rng("/testbed/pkg/b.py", 1, 1)},
				hits: []model.SearchHit{hit("/testbed/pkg/a.py", 12), hit("/testbed/pkg/b.py", 1)}}},
		{"grep without -n lists files only", "grep -r SECURE /testbed", "/testbed/a.py:SECURE = None\n/testbed/b.py:    'SECURE'\ngrep: /testbed/d: Is a directory",
			want{cat: S, hits: []model.SearchHit{hit("/testbed/a.py", 0), hit("/testbed/b.py", 0)}}},
		{"grep -n after head keeps the shape", "grep -rn foo src | head -n 1", "src/a.py:3:foo",
			want{cat: S, reads: []model.ObservedRead{rng("src/a.py", 3, 3)}, hits: []model.SearchHit{hit("src/a.py", 3)}}},
		{"grep -n over sed range offsets", "sed -n '100,200p' f.py | grep -n foo", "5:foo",
			want{cat: S, reads: []model.ObservedRead{rng("f.py", 104, 104)}, hits: []model.SearchHit{hit("f.py", 0), hit("f.py", 104)}}},
		{"grep over numbered output", "nl -ba f.py | grep def", "    12\tdef a():\n    40\tdef b():",
			want{cat: S, reads: []model.ObservedRead{rng("f.py", 12, 12), rng("f.py", 40, 40)},
				hits: []model.SearchHit{hit("f.py", 0), hit("f.py", 12), hit("f.py", 40)}}},
		{"grep -l listing", "grep -rl foo .", "./a.py\n./b/c.py",
			want{cat: S, hits: []model.SearchHit{hit("a.py", 0), hit("b/c.py", 0)}}},
		{"find listing", "cd /testbed && find . -name '*.py'", "./a.py\nfind: './x': Permission denied",
			want{cat: S, hits: []model.SearchHit{hit("/testbed/a.py", 0)}}},
		{"ls listing", "ls pkg", "a.py\nb.py\n.", want{cat: S, hits: []model.SearchHit{hit("pkg/a.py", 0), hit("pkg/b.py", 0)}}},
		{"xargs grep -n", "find . -name '*.py' | xargs grep -n foo", "./a.py:7:foo",
			want{cat: S, reads: []model.ObservedRead{rng("a.py", 7, 7)}, hits: []model.SearchHit{hit("a.py", 7)}}},
	}
	for _, c := range cases {
		r := ConfirmFromObservation(Analyze(c.cmd), c.obs)
		check(t, c.name, r, c.w)
		// Confirming twice is the same as once.
		again := ConfirmFromObservation(r, c.obs)
		if !reflect.DeepEqual(again.Reads, r.Reads) || !reflect.DeepEqual(again.Searches, r.Searches) {
			t.Errorf("%s: not idempotent: %+v then %+v", c.name, r.Reads, again.Reads)
		}
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

func TestNumberedReads(t *testing.T) {
	cases := []struct {
		obs  string
		want [][2]int
	}{
		{"     4\ta\n     5\tb\n     9\tc\n", [][2]int{{4, 5}, {9, 9}}},
		{"1\tx\n2\ty\n2\ty\n3\tz\n", [][2]int{{1, 3}}}, // a repeat inside a run is ignored
		{"0\tzero\nno numbers\n", nil},
		{"", nil},
	}
	for _, c := range cases {
		var got [][2]int
		for _, r := range NumberedReads("f.py", c.obs, observed.Listing) {
			if r.File != "f.py" || r.Kind != model.ReadRange {
				t.Errorf("read %+v", r)
			}
			got = append(got, [2]int{r.Start, r.End})
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("NumberedReads(%q) = %v, want %v", c.obs, got, c.want)
		}
	}
}
