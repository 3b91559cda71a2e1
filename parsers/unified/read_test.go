package unified

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// EachLine gives exactly the records ReadFile gives for a JSONL file, in
// order, blank lines, a BOM, CRLF, a bad line and a last line without a
// newline included.
func TestEachLineIsReadFile(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"plain.jsonl": "{\"instance_id\": \"a\", \"traj_data\": {\"pred_steps\": []}}\n\n{\"instance_id\": \"b\"}\n",
		"bom.jsonl":   "\xef\xbb\xbf{\"instance_id\": \"a\"}\r\n{not json}\n[1]\n  \n{\"instance_id\": \"c\", \"model_patch\": \"x\"}",
		"noid.jsonl":  "{\"traj_data\": {}}\n{\"instance_id\": 7}\n",
	} {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		want, err := ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var got []Record
		if err := EachLineIn(p, 1, 0, func(r Record) error { got = append(got, r); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d records, ReadFile %d", name, len(got), len(want))
		}
		for i := range got {
			if !reflect.DeepEqual(got[i].Pred, want[i].Pred) || got[i].Line != want[i].Line || got[i].Skip != want[i].Skip ||
				fmt.Sprint(got[i].Err) != fmt.Sprint(want[i].Err) {
				t.Errorf("%s record %d: %+v\nwant %+v", name, i, got[i], want[i])
			}
		}
		if !IsJSONL(p) {
			t.Errorf("%s: not seen as JSONL", name)
		}
	}
}
