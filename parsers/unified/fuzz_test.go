package unified

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/trajscope/trajscope/testkit"
)

// FuzzUnifiedRead: any input reads without panicking; records are in line
// order; a record read without error writes, and writing is a fixed point
// of read∘write (the second write equals the first).
func FuzzUnifiedRead(f *testing.F) {
	for _, p := range []string{"testdata/preds.jsonl", "testdata/preds.json", "testdata/single.json"} {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile(sharedPreds); err == nil {
		f.Add(b[:bytes.IndexByte(b, '\n')+1])
	}
	f.Add([]byte(`{"instance_id": "a", "traj_data": {"pred_steps": [{"files": ["x"], "spans": {"x": [{"start": 1, "end": 2}]}, "symbols": {"x": ["f"]}}]}, "z": [1e400, -0, 0.1]}`))
	f.Add([]byte("[{\"original_inst_id\": \"o\"}, {}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer testkit.FuzzBudget(t)()
		for _, name := range []string{"f.jsonl", "f.json"} {
			recs, err := Parse(data, name)
			if name == "f.jsonl" && err != nil {
				t.Fatalf("JSONL read failed as a whole: %v", err)
			}
			last := 0
			for _, r := range recs {
				if r.Line < last || r.Line < 1 {
					t.Fatalf("line %d after %d", r.Line, last)
				}
				last = r.Line
				if r.Skip && !errors.Is(r.Err, ErrNoInstanceID) {
					t.Fatalf("skip without ErrNoInstanceID: %v", r.Err)
				}
				if r.Err != nil {
					continue
				}
				if r.Pred.InstanceID == "" {
					t.Fatal("record without error has no instance id")
				}
				out1, err := Append(nil, &r.Pred)
				if err != nil {
					t.Fatalf("Append: %v", err)
				}
				if bytes.Contains(out1, []byte("Infinity")) || bytes.Contains(out1, []byte("NaN")) {
					continue // Python-only JSON that Go's decoder refuses
				}
				again, err := Parse(out1, "r.jsonl")
				if err != nil || len(again) != 1 || again[0].Err != nil {
					t.Fatalf("written record does not read back: %v %v\n%s", err, again, out1)
				}
				out2, _ := Append(nil, &again[0].Pred)
				if !bytes.Equal(out1, out2) {
					t.Fatalf("write is not stable:\n%s\n%s", out1, out2)
				}
			}
		}
	})
}
