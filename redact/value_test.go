package redact

import (
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

const (
	ghp  = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	akia = "AKIAIOSFODNN7EXAMPLE"
)

type inner struct {
	Name  string
	Count int
}

type outer struct {
	Path    string
	Names   []string
	Ptr     *inner
	Again   *inner // the same pointer as Ptr
	Any     any
	Texts   model.Texts
	Kinds   map[string]int
	Numbers []int32
	Arr     [2]string
	hidden  string
}

// Copy redacts every string it can reach, leaves what it was given as it
// was, copies only what changed, and keeps one copy of a shared pointer.
func TestCopy(t *testing.T) {
	shared := &inner{Name: "agent " + ghp, Count: 3}
	clean := &inner{Name: "plain"}
	names := []string{"src/a.py", "/home/ann/" + akia + "/creds"}
	in := &outer{
		Path: "x/" + akia + "/y.py", Names: names, Ptr: shared, Again: shared,
		Any:     &inner{Name: "mail ann@example.org"},
		Texts:   model.TextList{"ok", "token " + ghp},
		Kinds:   map[string]int{"tool:" + ghp: 2, "tool:" + "ghp_26C7e42F292c6912E7710c838347Ae178B4a": 1, "x": 1},
		Numbers: []int32{1, 2}, Arr: [2]string{"a", akia}, hidden: akia,
	}
	var r Redactor
	out := r.Copy(in).(*outer)
	if out == in {
		t.Fatal("nothing was copied")
	}
	dump := strings.Join([]string{out.Path, strings.Join(out.Names, " "), out.Ptr.Name, out.Again.Name,
		out.Any.(*inner).Name, out.Texts.Text(1), out.Arr[1]}, " ")
	for k := range out.Kinds {
		dump += " " + k
	}
	for _, secret := range []string{ghp, akia, "ann@example.org", "/home/ann/"} {
		if strings.Contains(dump, secret) {
			t.Errorf("%q survives: %s", secret, dump)
		}
	}
	if out.Kinds["tool:"+KeyMark] != 3 || out.Kinds["x"] != 1 {
		t.Errorf("kinds %v: two keys that became one should add up", out.Kinds)
	}
	if out.Ptr != out.Again {
		t.Error("one pointer became two copies")
	}
	if out.Ptr.Count != 3 || out.hidden != akia {
		t.Error("what holds no text was not kept as it was")
	}
	// The original is untouched: a reader's cache shares it.
	if in.Path != "x/"+akia+"/y.py" || names[1] != "/home/ann/"+akia+"/creds" || shared.Name != "agent "+ghp || in.Texts.Text(1) != "token "+ghp {
		t.Error("Copy changed what it was given")
	}
	// What did not change is shared, not copied.
	in2 := &outer{Ptr: clean, Names: []string{"a"}}
	out2 := r.Copy(in2).(*outer)
	if out2 != in2 {
		t.Error("a value with nothing to redact was copied")
	}
	// A shown name maps back to the one files are read by, and a name met
	// again is redacted the same way.
	if got := r.Original(out.Path); got != in.Path {
		t.Errorf("Original(%q) = %q", out.Path, got)
	}
	if r.Name(in.Path) != out.Path || r.Original("src/a.py") != "src/a.py" {
		t.Error("Name and Original disagree with Copy")
	}
	if got := r.Summary(); !strings.Contains(got, "e-mail address") || strings.HasPrefix(got, "--redact: replaced 0 ") {
		t.Errorf("Summary() = %q", got)
	}
}

// A run's compressed texts (anything with Text and Len) become a plain list.
func TestCopyTexts(t *testing.T) {
	type run struct{ Obs model.Texts }
	in := &run{Obs: lenTexts{"a", "b " + ghp}}
	var r Redactor
	out := r.Copy(in).(*run)
	if l, ok := out.Obs.(model.TextList); !ok || len(l) != 2 || l[1] != "b "+KeyMark {
		t.Errorf("texts = %#v", out.Obs)
	}
}

type lenTexts []string

func (l lenTexts) Text(i int) string { return l[i] }
func (l lenTexts) Len() int          { return len(l) }
