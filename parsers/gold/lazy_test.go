package gold

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// lazyRowsFixture is a parquet gold with every case the set's rules treat
// differently: ids repeated across rows (later rows replace earlier ones,
// a skipped row does not), an id in either column, rows without an id,
// unreadable and past-the-bound gold_context, text form.
func lazyRowsFixture(t *testing.T) string {
	t.Helper()
	span := `{"file": "a.py", "start_line": 1, "end_line": 2}`
	ok := `[` + span + `]`
	tooMany := "[" + strings.Repeat(span+",", 100_000) + span + "]"
	rows := []hubRow{
		{InstanceID: ptr("dup"), GoldContext: ptr(ok), Patch: ptr("first")},
		{InstanceID: ptr("dup"), GoldContext: ptr(`[{"file": "b.py", "start_line": "x"}]`)}, // fatal: skipped
		{InstanceID: ptr("dup"), GoldContext: ptr(tooMany)},                                 // past the bound: skipped
		{InstanceID: ptr("late"), GoldContext: ptr(ok), Patch: ptr("replaced")},
		{InstanceID: ptr("x1"), OriginalInstID: ptr("late"), GoldContext: ptr(ok), Patch: ptr("winner")},
		{GoldContext: ptr(ok)}, // no id
		{InstanceID: ptr("same"), OriginalInstID: ptr("same"), GoldContext: ptr("garbage")},
		{InstanceID: ptr("text"), GoldContext: ptr("context0：\nfile: c.py\nstart_line: 1\nend_line: 2\nbody\n")},
		{InstanceID: ptr("gone"), GoldContext: ptr(`[1]`)}, // fatal, and its only row
	}
	p := filepath.Join(t.TempDir(), "lazy.parquet")
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	return p
}

// A look-up before the set is built answers as the built set does, with the
// same gold, and reads only the rows holding its id.
func TestParquetLazyIsEager(t *testing.T) {
	paths := []string{lazyRowsFixture(t)}
	for _, p := range []string{jsonParquet, textParquet} {
		if _, err := filepath.Glob(p); err == nil {
			if s, err := Load(p); err == nil && s.lazy != nil {
				paths = append(paths, p)
			}
		}
	}
	for _, path := range paths {
		s, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if s.lazy == nil || s.lazy.built.Load() {
			t.Fatalf("%s: the set was built at load", path)
		}
		ids := []string{"unknown", ""}
		for id := range s.lazy.byKey {
			ids = append(ids, id)
		}
		type answer struct {
			g  any
			ok bool
		}
		before := map[string]answer{}
		for _, id := range ids {
			g, ok := s.Get(id)
			before[id] = answer{g, ok}
		}
		if s.lazy.built.Load() {
			t.Fatalf("%s: look-ups built the set", path)
		}
		s.Problems()
		if !s.lazy.built.Load() {
			t.Fatalf("%s: Problems did not build the set", path)
		}
		for _, id := range ids {
			g, ok := s.Get(id)
			if b := before[id]; b.ok != ok || ok && b.g != any(g) {
				t.Errorf("%s: Get(%q) before the set was built %v %v, after %v %v", path, id, b.g, b.ok, g, ok)
			}
		}
	}

	// The fixture's answers, by the rules.
	s, err := Load(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]string{"dup": "first", "late": "winner", "x1": "winner"} {
		if g, ok := s.Get(id); !ok || g.Patch != want {
			t.Errorf("Get(%q) = %v %v, want the row with patch %q", id, g, ok, want)
		}
	}
	if _, ok := s.Get("gone"); ok {
		t.Errorf("a row whose gold_context cannot be read was found")
	}
	// Only the rows a look-up needed were read: from its id's last row back
	// to the first one kept ("late" stops at row 5, which replaces row 4);
	// neither "text" nor the id-less row.
	for i := range s.lazy.rows {
		read := s.lazy.golds[i] != nil
		want := map[int]bool{0: true, 1: true, 2: true, 4: true, 8: true}[i]
		if i == 5 || i == 8 {
			read = s.lazy.once[i] != (sync.Once{}) // no gold to make: was it read at all
		}
		if read != want {
			t.Errorf("row %d read %v, want %v", i+1, read, want)
		}
	}
	want := []string{
		paths[0] + `: row 2 (dup): gold_context[0].start_line: expected an integer, found a string (row skipped)`,
		paths[0] + `: row 3 (dup): 100001 gold spans and files; trajscope reads at most 100000 per instance (row skipped)`,
		paths[0] + `: row 5 (late): id "late" already named an earlier row; this row replaces it`,
		paths[0] + `: row 6: no instance_id or original_inst_id (row skipped)`,
		paths[0] + `: row 7 (same): gold_context: neither JSON nor the text form ("context0：\nfile: …"); read as empty gold (as upstream)`,
		paths[0] + `: row 9 (gone): gold_context[0]: expected an object, found a number (row skipped)`,
	}
	if got := problemTexts(s); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Len() != 5 {
		t.Errorf("Len = %d, want 5", s.Len())
	}
}

// Look-ups from many goroutines while the set is built (the run list reads
// golds in the background) give the built set's answers.
func TestParquetLazyConcurrent(t *testing.T) {
	path := lazyRowsFixture(t)
	for range 20 {
		s, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for w := range 4 {
			wg.Go(func() {
				for _, id := range []string{"dup", "late", "x1", "text", "gone", "same"} {
					if g, ok := s.Get(id); ok != (id != "gone") || ok && g.ID == "" {
						t.Errorf("worker %d: Get(%q) = %v %v", w, id, g, ok)
					}
				}
			})
		}
		wg.Go(func() { s.Problems() })
		wg.Wait()
	}
}
