package gold

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// FuzzGoldJSONL: no panic; every non-blank line is either a loaded row or a
// skipped-row problem; loaded rows have an id and can be found by it.
func FuzzGoldJSONL(f *testing.F) {
	if b, err := os.ReadFile("testdata/rows.jsonl"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"inst_id": "a", "gold_ctx": "context0：\nfile: a\nstart_line: 1\nend_line: 2\n"}`))
	f.Add([]byte(`{"original_inst_id": "x__y-1__AbCdEf1", "init_ctx": [{"file": "a", "start_line": 99999999999999999999}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		set := newSet()
		loadLines(set, data, "f.jsonl")
		lines := 0
		for _, l := range bytes.Split(data, []byte{'\n'}) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		skipped := 0
		for _, e := range set.Problems() {
			p := e.(*Problem)
			if p.Line < 1 || p.File != "f.jsonl" || p.Msg == "" {
				t.Fatalf("bad problem %+v", p)
			}
			if p.Skipped {
				skipped++
			}
		}
		if set.Len()+skipped != lines {
			t.Fatalf("%d rows + %d skipped != %d lines", set.Len(), skipped, lines)
		}
		for _, g := range set.All() {
			if g.ID == "" || (g.ID != g.OriginalInstID && g.ID != g.InstID) {
				t.Fatalf("bad id %+v", g)
			}
			for _, key := range []string{g.InstID, g.OriginalInstID} {
				if key == "" {
					continue
				}
				h, ok := set.Get(key)
				if !ok || (h.InstID != key && h.OriginalInstID != key) {
					t.Fatalf("Get(%q) = %v", key, h)
				}
				if m, ok := set.Match(key); !ok || m != h {
					t.Fatalf("Match(%q) differs from Get", key)
				}
			}
			for _, s := range append(g.Init, g.Add...) {
				if s.File == "" {
					t.Fatal("span without a file kept")
				}
			}
		}
	})
}

// FuzzTextForm: parsing arbitrary text never panics, and a text built the way
// the exporter builds it parses back to its headers.
func FuzzTextForm(f *testing.F) {
	f.Add("a.py", 1, 3, "x = 1\n", "context0：\nfile: a\nstart_line: 1\nend_line: 2\n")
	f.Add("/workspace/x y/b.go", -2, 0, "\n\ncontext1：\nfile: fake\n", "context0：\n")
	f.Add("f", 5, 5, "", "context0：\nfile: a\nstart_line: 1\nend_line: 2\n\n\ncontext1：\nfile: b\nstart_line: 3\nend_line: 4\n")
	f.Fuzz(func(t *testing.T, file string, start, end int, content, raw string) {
		defer testkit.FuzzBudget(t)()
		if entries, err := parseTextForm(raw); err == nil {
			if len(entries) == 0 {
				t.Fatal("no entries and no error")
			}
			for i := 1; i < len(entries); i++ {
				if entries[i].Offset <= entries[i-1].Offset {
					t.Fatal("entries out of order")
				}
			}
		}
		if strings.Contains(file, "\n") || strings.Contains(content, "context1"+textSep) || strings.Contains(content, "context2"+textSep) {
			return
		}
		hdr := func(i int, f string, s, e int) string {
			return "context" + strconv.Itoa(i) + textSep + "file: " + f + "\nstart_line: " + strconv.Itoa(s) + "\nend_line: " + strconv.Itoa(e) + "\n"
		}
		text := hdr(0, file, start, end) + content + "\n\n" + hdr(1, "second.py", end, start) + content
		entries, err := parseTextForm(text)
		if err != nil {
			t.Fatalf("parse %q: %v", text, err)
		}
		if len(entries) != 2 || entries[0].File != file || entries[0].Start != start || entries[0].End != end ||
			entries[1].File != "second.py" || entries[1].Start != end || entries[1].End != start {
			t.Fatalf("got %+v from %q", entries, text)
		}
	})
}
