package shell

import (
	"testing"

	"github.com/trajscope/trajscope/internal/testkit"
	"github.com/trajscope/trajscope/model"
)

// FuzzAnalyze checks that no command line panics or yields an impossible
// read, and that confirming against any output keeps reads well formed.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{
		"cat f.py", "nl -ba /testbed/x.py | sed -n '10,20p'", "sed -n -e '1,5p' -e '10,12p' x.py",
		"head -n 20 x.py | tail -n 5", "tail -n +30 x.py", "grep -rn foo . --include=*.py | head",
		"find . -name '*.py' | xargs grep -n foo", "cat > f.py <<'EOF'\nx\nEOF\n", "cd /a && (cd b && cat c) ; cat d",
		"bash -c \"bash -c 'cat x'\"", "echo $(cat x | sed -n '1,2p') `ls`", "awk 'NR>=3 && NR<=9' f.py",
		"patch -p1 <<-EOF\n\t+++ b/x.py\n\tEOF", "git blame -L 10,+5 x.py", "sed -n '$p' f", "2>&1 >out cat <in",
	} {
		f.Add(s, "   10\tx\n./a.py:3:y\nNo such file or directory")
	}
	f.Fuzz(func(t *testing.T, cmd, obs string) {
		defer testkit.FuzzBudget(t)()
		r := Analyze(cmd)
		if len(r.numbered) != len(r.Reads) {
			t.Fatalf("numbered %d != reads %d", len(r.numbered), len(r.Reads))
		}
		valid := func(rd model.ObservedRead) bool {
			switch rd.Kind {
			case model.ReadRange:
				return rd.Start >= 1 && rd.End >= rd.Start
			case model.ReadHead, model.ReadTail:
				return rd.End >= 1
			case model.ReadFrom:
				return rd.Start >= 1
			}
			return rd.Kind == model.ReadWhole
		}
		for _, rd := range r.Reads {
			if !valid(rd) || rd.File == "" {
				t.Fatalf("bad read %+v from %q", rd, cmd)
			}
		}
		c := ConfirmFromObservation(r, obs)
		for _, rd := range c.Reads {
			if !valid(rd) || rd.File == "" {
				t.Fatalf("bad confirmed read %+v from %q / %q", rd, cmd, obs)
			}
		}
		if r.Category == 0 {
			t.Fatal("empty category")
		}
	})
}

// FuzzObservation: reading line numbers out of any tool output never panics
// and never yields a line number below 1 or a reversed range.
func FuzzObservation(f *testing.F) {
	for _, s := range []string{
		"     1\tx\n    20\ty\r\n", "    12→a\n     3→b", "pkg/a.py:3:x\n7:y\nbinary file matches",
		"999999999\tz\n0\tq\n1234567890\tw", "a:b:1:c\n:1:x\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, obs string) {
		defer testkit.FuzzBudget(t)()
		if first, last, ok := ViewNumbered(obs); ok && (first < 1 || last < first) {
			t.Fatalf("ViewNumbered(%q) = %d, %d", obs, first, last)
		}
		for _, h := range GrepHits(obs) {
			if h.Line < 0 {
				t.Fatalf("hit %+v from %q", h, obs)
			}
		}
	})
}
