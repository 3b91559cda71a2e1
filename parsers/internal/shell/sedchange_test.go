package shell

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// An in-place substitution of literal text is a recorded change; any
// other sed script is an edit of unknown content.
func TestSedChanges(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want []model.Change
	}{
		{`sed -i 's/if quantity > tier.min_qty:/if quantity >= tier.min_qty:/' /testbed/pricebook/discounts.py`,
			[]model.Change{{File: "/testbed/pricebook/discounts.py", Old: "if quantity > tier.min_qty:", New: "if quantity >= tier.min_qty:"}}},
		{`sed -i "s|a/b|c\|d|g" x.py y.py`, []model.Change{{File: "x.py", Old: "a/b", New: "c|d"}, {File: "y.py", Old: "a/b", New: "c|d"}}},
		{`sed -i -e 's/\[x\]/y\n/' z.py`, []model.Change{{File: "z.py", Old: "[x]", New: "y\n"}}},
		{`sed -i 's/a.*b/c/' x.py`, nil},      // a pattern
		{`sed -i 's/^a/b/' x.py`, nil},        // anchored
		{`sed -i 's/a/&&/' x.py`, nil},        // names the match
		{`sed -i 's/\(a\)/\1/' x.py`, nil},    // groups
		{`sed -i '12s/a/b/' x.py`, nil},       // an address
		{`sed -i 's/a/b/; s/c/d/' x.py`, nil}, // two commands
		{`sed -i 's/a/b/I' x.py`, nil},        // a flag other than g
		{`sed -i '/a/d' x.py`, nil},
		{`sed -n '1,5p' x.py`, nil},
	} {
		got := Analyze(c.cmd).Changes
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.cmd, got, c.want)
		}
	}
}
