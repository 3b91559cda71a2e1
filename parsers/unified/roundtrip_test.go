package unified

import (
	"bufio"
	"bytes"
	"os"
	"testing"
)

const sharedPreds = "../../../shared/data/contextbench/sample_trajectories_miniswe_qwen25_32b/preds_Verified.jsonl"

// TestRoundTripUpstreamConverter reads every record the upstream converter
// wrote and writes it back: each line must come out byte for byte.
func TestRoundTripUpstreamConverter(t *testing.T) {
	data, err := os.ReadFile(sharedPreds)
	if os.IsNotExist(err) {
		t.Skip("shared data not present")
	}
	if err != nil {
		t.Fatal(err)
	}
	recs, err := Parse(data, "preds_Verified.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 174 {
		t.Fatalf("got %d records, want 174", len(recs))
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	i := 0
	for sc.Scan() {
		rec := recs[i]
		if rec.Err != nil {
			t.Fatalf("record %d: %v", i, rec.Err)
		}
		if rec.Line != i+1 {
			t.Errorf("record %d: Line %d", i, rec.Line)
		}
		got, err := Append(nil, &rec.Pred)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, sc.Bytes()) {
			want := sc.Bytes()
			k := 0
			for k < len(got) && k < len(want) && got[k] == want[k] {
				k++
			}
			t.Fatalf("line %d differs at byte %d:\n got %q\nwant %q", i+1, k, got[max(0, k-60):min(len(got), k+60)], want[max(0, k-60):min(len(want), k+60)])
		}
		i++
	}
	if i != len(recs) {
		t.Fatalf("%d lines, %d records", i, len(recs))
	}
}
