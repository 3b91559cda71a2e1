package observed

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// Every numbering reads what its expression matches (numberingRes), on
// the forms tools write and 20,000 random lines of their characters.
func TestNumberingsMatchTheirExpressions(t *testing.T) {
	cases := []string{"", "1\tx", "   100\tx", "  7→y", "12 \tz", "1234567890\tx", "123456789\tx",
		"\t1\tx", " 1 x", "1", "x1\t", "  42 → a", "0\t", "٣\tx", "1\u2192", "1\xe2\x86", " 12  \t", "12:x", "12|x", " 12| x", "5: y"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "1", "9", "0", "\t", "→", "x", "\xe2", ":", "|"}
	for range 20000 {
		s := ""
		for range rng.IntN(14) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, s)
	}
	for name, c := range numberingRes {
		for _, line := range cases {
			num, _, ok := c.n.Line(line)
			m := c.re.FindStringSubmatch(line)
			if ok != (m != nil) || ok && num != atoi(m[1]) {
				t.Fatalf("%s.Line(%q) = %d, %v; the expression gives %q", name, line, num, ok, m)
			}
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
