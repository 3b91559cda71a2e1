package shell

import (
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/testkit"
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
