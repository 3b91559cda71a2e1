package predtest

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
)

// Lines splits a file's content into its lines, each ending in "\n".
func Lines(data []byte) []string {
	var out []string
	for _, l := range strings.SplitAfter(string(data), "\n") {
		if l != "" {
			if !strings.HasSuffix(l, "\n") {
				l += "\n"
			}
			out = append(out, l)
		}
	}
	return out
}

// Follow checks a followed reading against a whole one as files are
// written: files (path → lines) are written out in random bursts of whole
// lines, each file's in its order, a file appearing with its first burst
// (first is written first, with one line, so the others have a session to
// belong to). After each burst, tail (the followed reading, kept across
// bursts) must give exactly what whole (a reading of the files as they
// are) gives. Now and then a burst's last line is written in two, and the
// reading with half a line must be that of the lines before it.
func Follow(t *testing.T, rng *rand.Rand, files map[string][]string, first string,
	tail func() ([]model.Run, error), whole func() ([]model.Run, error)) {
	t.Helper()
	left := map[string][]string{}
	var names []string
	for p, ls := range files {
		left[p] = ls
		names = append(names, p)
	}
	slices.Sort(names)
	write := func(p, text string, flag int) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|flag, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
		f.Close()
	}
	for burst := 0; ; burst++ {
		var open []string
		for _, n := range names {
			if len(left[n]) > 0 && (burst > 0 || n == first) {
				open = append(open, n)
			}
		}
		if len(open) == 0 {
			return
		}
		p := open[rng.IntN(len(open))]
		k := min(len(left[p]), 1+rng.IntN(40))
		if burst == 0 {
			k = 1
		}
		chunk := strings.Join(left[p][:k], "")
		left[p] = left[p][k:]
		if rng.IntN(4) == 0 && len(chunk) > 2 {
			cut := len(chunk) - 1 - rng.IntN(min(len(chunk)-1, 50))
			write(p, chunk[:cut], os.O_APPEND)
			withHalf, herr := tail()
			done, _ := os.ReadFile(p)
			write(p, string(done[:strings.LastIndexByte(string(done), '\n')+1]), os.O_TRUNC)
			without, werr := whole()
			write(p, string(done), os.O_TRUNC)
			if (herr == nil) != (werr == nil) {
				t.Fatalf("burst %d: with half a line: %v; without it, whole: %v", burst, herr, werr)
			}
			if herr == nil {
				if d := FirstDifference(withHalf[0], without[0]); d != "" {
					t.Fatalf("burst %d: half a line changed the reading: %s", burst, d)
				}
			}
			write(p, chunk[cut:], os.O_APPEND)
		} else {
			write(p, chunk, os.O_APPEND)
		}
		got, gerr := tail()
		want, werr := whole()
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("burst %d (%s +%d lines): followed: %v; whole: %v", burst, filepath.Base(p), k, gerr, werr)
		}
		if werr != nil {
			continue
		}
		if d := FirstDifference(got[0], want[0]); d != "" {
			t.Fatalf("burst %d (%s +%d lines): the followed reading differs from a whole one: %s", burst, filepath.Base(p), k, d)
		}
	}
}

// FirstDifference names the first field where two runs differ, "" for
// none.
func FirstDifference(got, want model.Run) string {
	if len(got.Actions) != len(want.Actions) {
		return fmt.Sprintf("%d actions, whole %d", len(got.Actions), len(want.Actions))
	}
	for i := range got.Actions {
		if !reflect.DeepEqual(got.Actions[i], want.Actions[i]) {
			return fmt.Sprintf("action %d: %+v\nwhole: %+v", i, got.Actions[i], want.Actions[i])
		}
	}
	gv, wv := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range gv.NumField() {
		if !reflect.DeepEqual(gv.Field(i).Interface(), wv.Field(i).Interface()) {
			return fmt.Sprintf("%s: %+v\nwhole: %+v", gv.Type().Field(i).Name, gv.Field(i).Interface(), wv.Field(i).Interface())
		}
	}
	return ""
}

// BenchAppended times read after each line appended to the file at path:
// lines[:held] are written first, and each round appends the next line (the
// rounds past the last line read the file as it is).
func BenchAppended(b *testing.B, path string, lines []string, held int, read func() ([]model.Run, error)) {
	if err := os.WriteFile(path, []byte(strings.Join(lines[:held], "")), 0o644); err != nil {
		b.Fatal(err)
	}
	read()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.ReportAllocs()
	for b.Loop() {
		if held < len(lines) {
			f.WriteString(lines[held])
			held++
		}
		if runs, err := read(); err != nil || len(runs) == 0 || len(runs[0].Actions) == 0 {
			b.Fatalf("no run: %v", err)
		}
	}
}

// WholeReading is a format's whole reading of the file at path, as a
// followed one's is called.
func WholeReading(path string, parse func(string, []byte) ([]model.Run, error)) func() ([]model.Run, error) {
	return func() ([]model.Run, error) {
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return parse(path, data)
	}
}

// SameReading fails the test unless the followed reading (tail) and the
// whole one both read the files, to the same run.
func SameReading(t *testing.T, tail, whole func() ([]model.Run, error)) {
	t.Helper()
	got, gerr := tail()
	want, werr := whole()
	if gerr != nil || werr != nil {
		t.Fatalf("followed: %v; whole: %v", gerr, werr)
	}
	if d := FirstDifference(got[0], want[0]); d != "" {
		t.Errorf("the followed reading differs from a whole one: %s", d)
	}
}

// Bounded writes files whole, then reads them with reads of about most
// bytes each (bound), as a long session is opened to follow it: read
// until behind says nothing is left. Each reading holds no fewer actions
// than the one before, files larger than a few bounds take several, and
// the last is the whole reading.
func Bounded(t *testing.T, files map[string][]string, most int64, bound func(int64),
	behind func() bool, tail func() ([]model.Run, error), whole func() ([]model.Run, error)) {
	t.Helper()
	size := 0
	for p, ls := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		text := strings.Join(ls, "")
		size += len(text)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bound(most)
	var got []model.Run
	reads, was := 0, -1
	for reads == 0 || behind() {
		runs, err := tail()
		if err != nil {
			t.Fatalf("read %d: %v", reads+1, err)
		}
		if reads++; reads > size {
			t.Fatalf("%d reads of %d bytes, and still behind", reads, size)
		}
		if n := len(runs[0].Actions); n < was {
			t.Fatalf("read %d: %d actions, the read before %d", reads, n, was)
		} else {
			was = n
		}
		got = runs
	}
	if size > 2*(int(most)+4096) && reads < 2 { // a line past most is sought 4 KiB at a time
		t.Errorf("%d bytes read in one read of at most %d", size, most)
	}
	want, err := whole()
	if err != nil {
		t.Fatal(err)
	}
	if d := FirstDifference(got[0], want[0]); d != "" {
		t.Fatalf("after %d bounded reads the reading differs from a whole one: %s", reads, d)
	}
}
