package observed

import (
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// numberedRe is the rule ListingLine implements by hand.
var numberedRe = regexp.MustCompile(`^ *(\d{1,9}) *(?:\t|→)`)

func TestListingLineMatchesRegexp(t *testing.T) {
	cases := []string{"", "1\tx", "   100\tx", "  7→y", "12 \tz", "1234567890\tx", "123456789\tx",
		"\t1\tx", " 1 x", "1", "x1\t", "  42 → a", "0\t", "٣\tx", "1\u2192", "1\xe2\x86", " 12  \t"}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "1", "9", "0", "\t", "→", "x", "\xe2", ":"}
	for range 20000 {
		s := ""
		for range rng.IntN(14) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, s)
	}
	for _, c := range cases {
		num, _, ok := ListingLine(c)
		m := numberedRe.FindStringSubmatch(c)
		if ok != (m != nil) || ok && strconv.Itoa(num) != strconv.Itoa(atoi(m[1])) {
			t.Fatalf("ListingLine(%q) = %d, %v; regexp gives %q", c, num, ok, m)
		}
	}
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}
