package shell

import (
	"reflect"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// An in-place substitution of literal text is a recorded change; any
// other sed script is an edit of unknown content.
func TestSedChanges(t *testing.T) {
	unrecorded := []model.Change{{File: "x.py", Kind: model.ChangeReplace, Unrecorded: true}}
	for _, c := range []struct {
		cmd  string
		want []model.Change
	}{
		{`sed -i 's/if quantity > tier.min_qty:/if quantity >= tier.min_qty:/' /testbed/pricebook/discounts.py`,
			[]model.Change{{File: "/testbed/pricebook/discounts.py", Old: "if quantity > tier.min_qty:", New: "if quantity >= tier.min_qty:"}}},
		{`sed -i "s|a/b|c\|d|g" x.py y.py`, []model.Change{{File: "x.py", Old: "a/b", New: "c|d"}, {File: "y.py", Old: "a/b", New: "c|d"}}},
		{`sed -i -e 's/\[x\]/y\n/' z.py`, []model.Change{{File: "z.py", Old: "[x]", New: "y\n"}}},
		{`sed -i 's/a.*b/c/' x.py`, unrecorded},      // a pattern
		{`sed -i 's/^a/b/' x.py`, unrecorded},        // anchored
		{`sed -i 's/a/&&/' x.py`, unrecorded},        // names the match
		{`sed -i 's/\(a\)/\1/' x.py`, unrecorded},    // groups
		{`sed -i '12s/a/b/' x.py`, unrecorded},       // an address
		{`sed -i 's/a/b/; s/c/d/' x.py`, unrecorded}, // two commands
		{`sed -i 's/a/b/I' x.py`, unrecorded},        // a flag other than g
		{`sed -i '/a/d' x.py`, unrecorded},
		{`perl -pi -e 's/a/b/' x.py`, unrecorded},
		{`sed -n '1,5p' x.py`, nil},
	} {
		got := Analyze(c.cmd).Changes
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.cmd, got, c.want)
		}
	}
}

// A file written by a redirection or tee is a change of it: whole (>,
// tee) or at its end (>>, tee -a), with the text written when the command
// holds it (a quoted here-document, echo of literal words) and marked
// unrecorded when it does not. Scratch files are no change (issue 47 #4).
func TestWriteChanges(t *testing.T) {
	whole := func(f, s string) model.Change { return model.Change{File: f, Kind: model.ChangeWhole, New: s} }
	app := func(f, s string) model.Change { return model.Change{File: f, Kind: model.ChangeAppend, New: s} }
	un := func(c model.Change) model.Change { c.Unrecorded = true; return c }
	for _, c := range []struct {
		cmd  string
		want []model.Change
	}{
		{"echo 'x = 1' >> notes.txt", []model.Change{app("notes.txt", "x = 1\n")}},
		{"echo -n done > flag", []model.Change{whole("flag", "done")}},
		{`echo "$HOME" > where`, []model.Change{un(whole("where", ""))}},
		{"printf 'a\\nb\\n' > f", []model.Change{whole("f", "a\nb\n")}},
		{"printf 'a\\x41' > f", []model.Change{un(whole("f", ""))}},
		{"printf '%s\\n' x > f", []model.Change{un(whole("f", ""))}},
		{"printf 'plain' > f", []model.Change{whole("f", "plain")}},
		{"cat > src/d.py <<'EOF'\nprint(1)\nEOF", []model.Change{whole("src/d.py", "print(1)\n")}},
		{"cat <<EOF > d.py\nx = $X\nEOF", []model.Change{un(whole("d.py", ""))}},
		{"cat <<EOF > d.py\nx = 1\nEOF", []model.Change{whole("d.py", "x = 1\n")}},
		{"cat x.py > y.py", []model.Change{un(whole("y.py", ""))}},
		{"printf 'y\\n' | tee src/c.txt", []model.Change{whole("src/c.txt", "y\n")}},
		{"make | tee build.log", []model.Change{un(whole("build.log", ""))}},
		{"echo y | tee -a a.txt b.txt", []model.Change{app("a.txt", "y\n"), app("b.txt", "y\n")}},
		{"make 2> build.err", []model.Change{un(whole("build.err", ""))}},
		{`go test ./... 2>&1 | tee "$TMPDIR/out.log"`, nil},
		{"echo hi >> /tmp/log.txt", nil},
		{"ls > /dev/null", nil},
	} {
		got := Analyze(c.cmd).Changes
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", c.cmd, got, c.want)
		}
	}
}
