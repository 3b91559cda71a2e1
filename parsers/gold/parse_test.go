package gold

import "testing"

func TestParseBytes(t *testing.T) {
	row := `{"inst_id": "a", "original_inst_id": "b", "gold_ctx": [{"file": "x.py", "start_line": 3, "end_line": 5}]}`
	for _, c := range []struct {
		name, data string
		ok         bool
	}{
		{"object", row, true},
		{"object with BOM", "\xef\xbb\xbf" + row, true},
		{"jsonl", row + "\n" + `{"inst_id": "c", "gold_ctx": []}` + "\n", true},
		{"empty", "", false},
		{"garbage", "not json", false},
	} {
		set, err := Parse("gold.json", []byte(c.data))
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v", c.name, err)
			continue
		}
		if !c.ok {
			continue
		}
		g, found := set.Get("b")
		if !found || len(g.Init) != 1 || g.Init[0].Start != 3 || g.Init[0].End != 5 {
			t.Errorf("%s: Get(b) = %+v, %v", c.name, g, found)
		}
	}
}
