package gold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"

	"github.com/trajscope/trajscope/internal/testkit"
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
	start := time.Now()
	_, err := Load(bomb)
	if err == nil || !strings.HasPrefix(err.Error(), bomb+": the gold columns decode to more than 256 MiB") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusing the bomb took %v", d)
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

// TestParquetBombUnderMemoryCap runs the binary on the bomb under a memory
// cap: it must fail with one line naming the file, not take the machine.
func TestParquetBombUnderMemoryCap(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	bomb := filepath.Join(dir, "bomb.parquet")
	writeBomb(t, bomb, maxParquetRows, 10<<10)
	pred := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(pred, []byte(`{"instance_id": "bomb__bomb-1", "traj_data": {"pred_files": ["a.py"]}}`+"\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	r := testkit.RunCapped(t, 2<<30, env, bin, "score", "--gold", bomb, "--pred", pred, "--repo", dir)
	if r.Code != 1 || !strings.HasPrefix(r.Stderr, "trajscope: "+bomb+": the gold columns decode to more than") || strings.Count(r.Stderr, "\n") != 1 {
		t.Errorf("exit %d, stderr %q", r.Code, r.Stderr)
	}
	t.Logf("peak RSS %d MiB", r.PeakRSS>>20)
	if r.PeakRSS > 400<<20 {
		t.Errorf("peak RSS %d MiB", r.PeakRSS>>20)
	}
}

// TestParquetManyRowsOneID: as many small rows as a file may hold under one instance id,
// within every bound, load, and the quarter million "id already named" warnings
// come out as a hundred lines and a count, not a million lines.
func TestParquetManyRowsOneID(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testkit.Binary(t)
	dir := t.TempDir()
	many := filepath.Join(dir, "many.parquet")
	writeBomb(t, many, maxParquetRows, 60)
	pred := filepath.Join(dir, "preds.jsonl")
	os.WriteFile(pred, []byte(`{"instance_id": "bomb__bomb-1", "traj_data": {"pred_files": ["a.py"]}}`+"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "a.py"), []byte("x = 1\ny = 2\n"), 0o644)
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	r := testkit.RunCapped(t, 3<<30, env, bin, "score", "--gold", many, "--pred", pred, "--repo", dir, "--format", "text")
	t.Logf("peak RSS %d MiB", r.PeakRSS>>20)
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	warnings := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "trajscope: warning: "+many) {
			warnings++
		}
	}
	if r.Code != 0 || warnings != maxProblems+1 || !strings.Contains(r.Stderr, fmt.Sprintf("%d more problems not listed (0 of those rows skipped)", maxParquetRows-1-maxProblems)) {
		t.Errorf("exit %d, %d warnings, stderr ends %q", r.Code, warnings, r.Stderr[max(0, len(r.Stderr)-300):])
	}
	if !strings.Contains(r.Stdout, "bomb__bomb-1") {
		t.Errorf("the instance was not scored:\n%s", r.Stdout)
	}
	if r.PeakRSS > 400<<20 {
		t.Errorf("peak RSS %d MiB", r.PeakRSS>>20)
	}
}
