package pack_test

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/trajscope/trajscope/internal/textstore"
	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/internal/pack"
	"github.com/trajscope/trajscope/parsers/miniswe"
)

// full is a run with every field that holds text or a list set, each text
// a piece of buf, as a parser that decodes in place leaves them.
func full(buf []byte) *model.Run {
	next := 0
	s := func(n int) string { // the next n bytes of buf, as a string sharing them
		p := unsafe.String(&buf[next], n)
		next += n
		return p
	}
	step := func() model.Step {
		return model.Step{Files: []string{s(3), s(4)},
			Spans:   []model.FileSpans{{File: s(3), Spans: []model.Interval{{Start: 1, End: 2}, {Start: 5, End: 9}}}},
			Symbols: []model.FileSymbols{{File: s(3), Symbols: []string{s(2), s(5)}}}}
	}
	r := &model.Run{InstanceID: s(8), Format: s(5), Agent: s(4), Model: s(6), Path: s(9), CostUSD: 1.5, ExitStatus: s(9)}
	var obs, thoughts model.TextList
	for i := range 5 {
		r.Actions = append(r.Actions, model.Action{Tool: s(4), Command: s(20), Failure: s(7),
			Reads:     []model.ObservedRead{{File: s(6), Kind: model.ReadRange, Start: 1, End: 3}, {File: s(6), Kind: model.ReadWhole}},
			Searches:  []model.SearchHit{{File: s(5), Line: 3}},
			Edits:     []string{s(4)},
			Steps:     []int{i},
			Timestamp: 1, Usage: model.NewUsage(1, 2, 3, 4), Index: int32(i), ExitCode: 1, Category: model.CategoryRead, ExitKnown: true, Sidechain: true})
		obs, thoughts = append(obs, s(40)), append(thoughts, s(15))
		r.Prediction.Steps = append(r.Prediction.Steps, step())
	}
	r.Observations, r.Thoughts = obs, thoughts
	r.Prediction.InstanceID, r.Prediction.OriginalInstID = s(8), s(8)
	r.Prediction.Final = step()
	r.Prediction.ModelPatch, r.Prediction.RepoURL, r.Prediction.Commit = s(30), s(20), s(12)
	r.Prediction.Extra = []model.RawField{{Key: s(3), Value: buf[next : next+4 : next+4]}}
	return r
}

// walk calls text on every string and byte slice reachable from v, and
// list on every non-empty slice, with its path.
func walk(v reflect.Value, path string, text func(path string, p unsafe.Pointer, n int), list func(path string, v reflect.Value)) {
	switch v.Kind() {
	case reflect.String:
		if v.Len() > 0 {
			text(path, unsafe.Pointer(unsafe.StringData(v.String())), v.Len())
		}
	case reflect.Slice:
		if v.Len() == 0 {
			return
		}
		list(path, v)
		if v.Type().Elem().Kind() == reflect.Uint8 {
			text(path, v.UnsafePointer(), v.Len())
			return
		}
		for i := range v.Len() {
			walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i), text, list)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).Name == "Observations" || v.Type().Field(i).Name == "Thoughts" {
				continue // compared by text below
			}
			walk(v.Field(i), path+"."+v.Type().Field(i).Name, text, list)
		}
	}
}

// TestRunSharesNothing: after packing, no string or byte slice of a run
// points into the buffer it was parsed from, everything else is as it was,
// the texts read back the same, and appending to one short list never
// writes into another. The run sets every field (checked), so a field added
// to the model and not packed fails here.
func TestRunSharesNothing(t *testing.T) {
	buf := []byte(strings.Repeat("abcdefghijklmnopqrstuvwxyz0123456789", 40))
	r := full(buf)
	// Every text and list set: a new one left out of full (and so, maybe,
	// of packing) shows here as empty.
	var zero []string
	var checkSet func(v reflect.Value, path string)
	checkSet = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				checkSet(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			if v.Len() > 0 {
				checkSet(v.Index(0), path+"[0]")
			}
		}
		if (v.Kind() == reflect.String || v.Kind() == reflect.Slice) && v.IsZero() {
			zero = append(zero, path)
		}
	}
	checkSet(reflect.ValueOf(*r), "run")
	if len(zero) > 0 {
		t.Fatalf("full leaves fields unset: %v", zero)
	}
	want := deepCopy(t, r)
	pack.Run(r)
	lo, hi := uintptr(unsafe.Pointer(&buf[0])), uintptr(unsafe.Pointer(&buf[0]))+uintptr(len(buf))
	walk(reflect.ValueOf(*r), "run", func(path string, p unsafe.Pointer, n int) {
		if a := uintptr(p); a < hi && a+uintptr(n) > lo {
			t.Errorf("%s still points into the parsed buffer", path)
		}
	}, func(string, reflect.Value) {})
	got := *r
	got.Observations, got.Thoughts = nil, nil
	w := *want
	w.Observations, w.Thoughts = nil, nil
	if !reflect.DeepEqual(got, w) {
		t.Errorf("packing changed the run:\n got %+v\nwant %+v", got, w)
	}
	if _, ok := r.Observations.(*textstore.Store); !ok {
		t.Errorf("observations are %T, want a textstore", r.Observations)
	}
	for i := range r.Actions {
		if r.Observation(i) != want.Observation(i) || r.Thought(i) != want.Thought(i) {
			t.Errorf("action %d texts %q %q, want %q %q", i, r.Observation(i), r.Thought(i), want.Observation(i), want.Thought(i))
		}
	}
	// Lists cut from one block: appending to each in turn leaves the run
	// as it was.
	before := deepCopy(t, r)
	walk(reflect.ValueOf(r).Elem(), "run", func(string, unsafe.Pointer, int) {}, func(path string, v reflect.Value) {
		if v.Type().Elem().Kind() != reflect.Uint8 {
			reflect.Append(v, v.Index(v.Len()-1))
			if !reflect.DeepEqual(deepCopy(t, r), before) {
				t.Fatalf("appending to %s changed the run", path)
			}
		}
	})
}

// deepCopy copies a run through its fields, texts and lists included.
func deepCopy(t *testing.T, r *model.Run) *model.Run {
	t.Helper()
	c := *r
	c.Actions = nil
	for _, a := range r.Actions {
		a.Reads = append([]model.ObservedRead(nil), a.Reads...)
		a.Searches = append([]model.SearchHit(nil), a.Searches...)
		a.Edits = append([]string(nil), a.Edits...)
		a.Steps = append([]int(nil), a.Steps...)
		c.Actions = append(c.Actions, a)
	}
	var obs, thoughts model.TextList
	for i := range r.Actions {
		obs, thoughts = append(obs, strings.Clone(r.Observation(i))), append(thoughts, strings.Clone(r.Thought(i)))
	}
	c.Observations, c.Thoughts = obs, thoughts
	cp := func(s model.Step) model.Step {
		out := model.Step{Files: append([]string(nil), s.Files...)}
		for _, fs := range s.Spans {
			out.Spans = append(out.Spans, model.FileSpans{File: fs.File, Spans: append([]model.Interval(nil), fs.Spans...)})
		}
		for _, fs := range s.Symbols {
			out.Symbols = append(out.Symbols, model.FileSymbols{File: fs.File, Symbols: append([]string(nil), fs.Symbols...)})
		}
		return out
	}
	c.Prediction.Steps = nil
	for _, s := range r.Prediction.Steps {
		c.Prediction.Steps = append(c.Prediction.Steps, cp(s))
	}
	c.Prediction.Final = cp(r.Prediction.Final)
	c.Prediction.Extra = nil
	for _, f := range r.Prediction.Extra {
		c.Prediction.Extra = append(c.Prediction.Extra, model.RawField{Key: f.Key, Value: append([]byte(nil), f.Value...)})
	}
	return &c
}

// TestParsedRunIsPacked: a mini-swe-agent run parsed in place and packed
// is the run the parser gave, texts included.
func TestParsedRunIsPacked(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "miniswe", "testdata", "org__proj-1.traj.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := miniswe.ParseOwned("org__proj-1.traj.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want := deepCopy(t, r)
	pack.Run(r)
	if len(r.Actions) == 0 || !reflect.DeepEqual(deepCopy(t, r), want) {
		t.Errorf("packed run differs from the parsed one:\n got %+v\nwant %+v", deepCopy(t, r), want)
	}
}

// TestLoadedRunDropsItsFile: a loaded run keeps a fraction of its file, not
// the file: its outputs are compressed and nothing else holds the buffer
// the file was read into.
func TestLoadedRunDropsItsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o__r-1.traj.json")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, `{"info": {"exit_status": "Submitted", "submission": ""}, "messages": [{"role": "system", "content": "sys"}, {"role": "user", "content": "task"}`)
	body := strings.Repeat(`    12\tdef handler(request):\n`, 200)
	for i := range 1000 {
		fmt.Fprintf(f, `, {"role": "assistant", "content": "THOUGHT: look %d\n\n`+"```bash\\nnl -ba pkg/mod%d.py | sed -n '1,200p'\\n```"+`"}`, i, i%7)
		fmt.Fprintf(f, `, {"role": "user", "content": "<returncode>0</returncode>\n<output>\n%s</output>"}`, body)
	}
	fmt.Fprint(f, "]}")
	f.Close()
	st, _ := os.Stat(path)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	runs, err := parsers.Load(path, "")
	if err != nil || len(runs) != 1 || len(runs[0].Actions) != 1000 {
		t.Fatalf("Load: %d runs, %v", len(runs), err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	held := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("file %d KB, run holds %d KB", st.Size()>>10, held>>10)
	if held > st.Size()/4 {
		t.Errorf("the loaded run holds %d KB of a %d KB file, want under a quarter", held>>10, st.Size()>>10)
	}
	if got := runs[0].Observation(999); !strings.HasSuffix(got, "def handler(request):\n</output>") {
		t.Errorf("last observation ends %q", got[max(0, len(got)-40):])
	}
	runtime.KeepAlive(runs)
}
