package gold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// bombRow is a hub row whose id and gold are dictionary-encoded: a million
// equal values are one dictionary entry and a run of zero indexes.
type bombRow struct {
	InstanceID  *string `parquet:"instance_id,optional,dict"`
	GoldContext *string `parquet:"gold_context,optional,dict"`
}

// writeBomb writes rows rows that all share one gold_context of size bytes.
func writeBomb(t testing.TB, path string, rows, size int) {
	t.Helper()
	id := "bomb__bomb-1"
	span := `{"file": "a.py", "start_line": 1, "end_line": 2}, `
	ctx := "[" + strings.Repeat(span, size/len(span)) + `{"file": "a.py", "start_line": 1, "end_line": 2}]`
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[bombRow](f, parquet.PageBufferSize(64<<20))
	batch := make([]bombRow, 4096)
	for i := range batch {
		batch[i] = bombRow{InstanceID: &id, GoldContext: &ctx}
	}
	for n := 0; n < rows; n += len(batch) {
		if _, err := w.Write(batch[:min(len(batch), rows-n)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestParquetDictionaryBomb: a small file whose rows share one
// dictionary-encoded gold_context is refused with an error naming the file,
// at once, instead of decoding gigabytes (the attack's million rows by the
// row bound, as many as allowed by the decoded-bytes bound); the same value
// on a few rows still loads.
func TestParquetDictionaryBomb(t *testing.T) {
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.parquet")
	writeBomb(t, bomb, 1<<20, 10<<10)
	if _, err := Load(bomb); err == nil || err.Error() != bomb+": the file claims 1048576 rows; a gold file holds at most 262144" {
		t.Fatalf("a million rows: %v", err)
	}
	writeBomb(t, bomb, maxParquetRows, 10<<10)
	if st, _ := os.Stat(bomb); st.Size() > 128<<10 {
		t.Fatalf("the bomb is %d bytes; want a small file", st.Size())
	}
	_, err := Load(bomb)
	if err == nil || !strings.HasPrefix(err.Error(), bomb+": the gold columns decode to more than 256 MiB") {
		t.Fatalf("err = %v", err)
	}

	few := filepath.Join(dir, "few.parquet")
	writeBomb(t, few, 100, 10<<10)
	set, err := Load(few)
	if err != nil || set.Len() != 100 {
		t.Fatalf("100 rows: %v, %d rows", err, set.Len())
	}
	if g := set.All(); len(g[0].Init) != len(g[99].Init) || len(g[0].Init) < 100 {
		t.Errorf("spans: %d and %d", len(g[0].Init), len(g[99].Init))
	}
}

// TestParquetManyRowsOneIDProblems: many rows under one instance id load,
// and the "id already named" warnings come out as maxProblems lines and a
// count, not one a row (scripts/promises runs the file the row bound
// allows through the binary, under a memory cap).
func TestParquetManyRowsOneIDProblems(t *testing.T) {
	many := filepath.Join(t.TempDir(), "many.parquet")
	rows := maxProblems + 250
	writeBomb(t, many, rows, 60)
	set, err := Load(many)
	if err != nil {
		t.Fatal(err)
	}
	probs := set.Problems()
	if len(probs) != maxProblems+1 || !strings.Contains(probs[len(probs)-1].Error(), fmt.Sprintf("%d more problems not listed (0 of those rows skipped)", rows-1-maxProblems)) {
		t.Errorf("%d problems, the last %v", len(probs), probs[len(probs)-1])
	}
}
