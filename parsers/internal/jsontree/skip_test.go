package jsontree

import (
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// without is v with the members not in keep removed from every object, as
// ParseKeeping should give it.
func without(v *Value, keep []string) string {
	if v == nil {
		return "<nil>"
	}
	c := *v
	switch v.Kind {
	case Object:
		c.Obj = nil
		for _, m := range v.Obj {
			for _, k := range keep {
				if m.Key == k {
					c.Obj = append(c.Obj, m)
				}
			}
		}
	}
	var b strings.Builder
	switch c.Kind {
	case Object:
		b.WriteString("{")
		for i, m := range c.Obj {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(NewString(m.Key).Compact() + ":" + without(m.Val, keep))
		}
		b.WriteString("}")
	case Array:
		b.WriteString("[")
		for i, e := range c.Arr {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(without(e, keep))
		}
		b.WriteString("]")
	default:
		b.WriteString(c.Compact())
	}
	return b.String()
}

// keepTestKeys are what the gold loader keeps.
var keepTestKeys = []string{"file", "start_line", "end_line"}

// checkKeeping: ParseKeeping fails exactly when Parse does, and otherwise
// gives Parse's tree without the members it leaves out.
func checkKeeping(t *testing.T, src []byte) {
	t.Helper()
	full, ferr := Parse(src)
	kept, kerr := ParseKeeping(src, keepTestKeys...)
	if (ferr == nil) != (kerr == nil) {
		t.Fatalf("%.80q: Parse error %v, ParseKeeping error %v", src, ferr, kerr)
	}
	if ferr != nil {
		return
	}
	if got, want := without(kept, keepTestKeys), without(full, keepTestKeys); got != want {
		t.Fatalf("%.80q: ParseKeeping %s, want %s", src, got, want)
	}
}

var keepingCases = []string{
	`[{"file": "a.py", "start_line": 3, "end_line": 9, "content": "x = \"1\"\n\u00e9\ud83d\ude00"}]`,
	`[{"content": {"nested": [1, 2.5e3, null, true, false, NaN, -Infinity, {"k": "v"}]}, "file": "b.go"}]`,
	`[{"file": "c", "content": "bad \x escape"}]`,
	`[{"file": "c", "content": "raw ` + "\x01" + ` control"}]`,
	`[{"file": "c", "content": "truncated \u12"}]`,
	`[{"file": "c", "content": "unterminated}]`,
	`[{"file": "c", "content": [1, 2,]}]`,
	`[{"file": "c", "content": {"a" 1}}]`,
	`[{"file": "c", "content": {"a": 1,}}]`,
	`[{"file": "c", "content": tru}]`,
	`[{"file": "c", "content": 1.}]`,
	`[{"file": "c", "content": -}]`,
	`[{"file": "c", "content": "` + "\xff\xfe" + ` not utf-8"}]`,
	`[{"file": "c", "content": ` + strings.Repeat("[", 600) + strings.Repeat("]", 600) + `}]`,
	`[{"file": "c", "content": ` + strings.Repeat("[", 2000) + strings.Repeat("]", 2000) + `}]`,
	`[{"file": "a", "file": "b", "content": "x", "content": 1}]`,
	`{"content": "top"} trailing`,
	`[]`, `{}`, `"just a string"`, `[{"file": "c", "content": ""}]`,
	`[{"file": "c", "content": "\"\\\/\b\f\n\r\t"}]`,
}

func TestParseKeeping(t *testing.T) {
	for _, c := range keepingCases {
		checkKeeping(t, []byte(c))
	}
	// The members left out are not in the tree.
	v, err := ParseKeeping([]byte(keepingCases[0]), keepTestKeys...)
	if err != nil {
		t.Fatal(err)
	}
	item := v.Items()[0]
	if _, ok := item.Lookup("content"); ok || item.Get("file").Text() != "a.py" || len(item.Members()) != 3 {
		t.Errorf("kept members %v", item.Members())
	}
}

func FuzzParseKeeping(f *testing.F) {
	for _, c := range keepingCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		defer testkit.FuzzBudget(t)()
		checkKeeping(t, b)
	})
}

func BenchmarkParseKeeping(b *testing.B) {
	item := `{"file": "pkg/mod.py", "start_line": 10, "end_line": 60, "content": "` +
		strings.Repeat(`    def method(self, x):\n        return \"value\" + str(x)  # \u00e9\n`, 40) + `"}`
	doc := []byte("[" + strings.Repeat(item+",", 20) + item + "]")
	b.SetBytes(int64(len(doc)))
	b.Run("Parse", func(b *testing.B) {
		for b.Loop() {
			Parse(doc)
		}
	})
	b.Run("ParseKeeping", func(b *testing.B) {
		for b.Loop() {
			ParseKeeping(doc, keepTestKeys...)
		}
	})
}
