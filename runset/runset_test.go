package runset

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trajscope/trajscope/model"
	"github.com/trajscope/trajscope/parsers"
	"github.com/trajscope/trajscope/parsers/gold"
	"github.com/trajscope/trajscope/scoring"
	"github.com/trajscope/trajscope/source"
)

const demoTask = "../demo/task"

var demoTraj = filepath.Join(demoTask, "pricebook__pricebook-42.traj.json")

// folder writes the demo run under each name (its instance id is the
// name) and the given extra files into a new directory.
func folder(t testing.TB, names []string, extra map[string]string) string {
	t.Helper()
	data, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, n := range names {
		// The run records its name as its id too.
		run := strings.Replace(string(data), `"instance_id": "pricebook__pricebook-42"`, `"instance_id": "`+n+`"`, 1)
		if err := os.WriteFile(filepath.Join(dir, n+".traj.json"), []byte(run), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for n, c := range extra {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// record is a unified prediction record naming one file.
func record(id string) string {
	return `{"instance_id":"` + id + `","traj_data":{"pred_steps":[{"files":["pricebook/cart.py"],"spans":{}}],"pred_files":["pricebook/cart.py"],"pred_spans":{}},"model_patch":""}` + "\n"
}

// prepared is the demo's gold and repository for every run.
func prepared(t testing.TB) Options {
	t.Helper()
	g, err := gold.Load(filepath.Join(demoTask, "gold.json"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := source.OpenDir(filepath.Join(demoTask, "repo"))
	if err != nil {
		t.Fatal(err)
	}
	return Options{Gold: g, Sem: model.ContextBench, Checkouts: scoring.OneTree{Tree: tree}}
}

// Rows come in three passes: a row per file named by the file, then the
// file's runs, then each run's analysis; positions follow list order.
func TestLazyLoading(t *testing.T) {
	dir := folder(t, []string{"a__b-2", "pricebook__pricebook-42"}, map[string]string{"zz.jsonl": record("x__y-1") + record("x__y-2")})
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.Prepare(prepared(t))
	rows := s.Rows()
	if len(rows) != 3 || rows[0].ID != "a__b-2.traj.json" || rows[0].Loaded || rows[2].ID != "zz.jsonl" {
		t.Fatalf("first pass: %+v", rows)
	}
	if r, f, a, n := s.Progress(); r != 0 || f != 3 || a != 0 || n != 3 {
		t.Errorf("progress before loading: %d/%d files, %d/%d analysed", r, f, a, n)
	}
	steps := 0
	for s.Step() {
		steps++
		rows := s.Rows()
		if steps == 3 {
			// Every file read, nothing analysed yet.
			if len(rows) != 4 || rows[3].ID != "x__y-2" || rows[3].Pos != 4 || rows[0].Analysed {
				t.Fatalf("after reading: %+v", rows)
			}
		}
	}
	if steps != 3+4 {
		t.Errorf("%d steps, want 3 files + 4 runs", steps)
	}
	rows = s.Rows()
	for i, r := range rows {
		if !r.Analysed || r.Pos != i+1 {
			t.Errorf("row %d: %+v", i, r)
		}
	}
	// The demo run, scored with its gold and repository: the figures the
	// explorer shows for it.
	demo := rows[1].Lenses[model.LensContextBench]
	got := fmt.Sprintf("%.2f %.2f %.2f %d/%d/%d/%d/%d", demo.Coverage, demo.AUC, demo.Redundancy,
		demo.Found(), demo.Dropped(), demo.NearMiss(), demo.Searched(), demo.Never())
	if want := "0.15 0.43 0.04 1/2/1/2/1"; got != want {
		t.Errorf("demo row: %s, want %s", got, want)
	}
	if rows[1].Note != "" || rows[1].Actions != 20 || rows[1].Agent != "mini-swe-agent 1.17.3" {
		t.Errorf("demo row: %+v", rows[1])
	}
	if !strings.Contains(rows[0].Note, `no gold for instance "a__b-2"`) {
		t.Errorf("a run without gold says so: %q", rows[0].Note)
	}
	if rows[2].Actions != 1 {
		t.Errorf("a prediction record shows one action per step: %d", rows[2].Actions)
	}
	if s.Step() {
		t.Error("Step after the end did work")
	}
}

// Opening a run analyses it in full, ahead of the background work, and
// reads a file not read yet.
func TestOpen(t *testing.T) {
	dir := folder(t, []string{"a__b-1", "pricebook__pricebook-42"}, nil)
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.Prepare(prepared(t))
	st, _, err := s.Open(2)
	if err != nil || st.A.Run.InstanceID != "pricebook__pricebook-42" || len(st.A.Run.Actions) != 20 {
		t.Fatalf("Open(2): %v, %v", st, err)
	}
	if rows := s.Rows(); !rows[1].Analysed || rows[0].Analysed {
		t.Errorf("after Open(2): analysed %v %v", rows[0].Analysed, rows[1].Analysed)
	}
	_, _, err = s.Open(1)
	var ge *GoldError
	if !errors.As(err, &ge) {
		t.Errorf("a run without gold opens with a GoldError, got %v", err)
	}
	if _, _, err := s.Open(3); err == nil {
		t.Error("Open past the end")
	}
}

func TestFind(t *testing.T) {
	dir := folder(t, []string{"a__b-1", "c__d-2"}, map[string]string{"z.jsonl": record("a__b-1")})
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id, warning, err string
		pos              int
	}{
		{"c__d-2", "", "", 2},
		{"a__b-1", `2 runs are instance "a__b-1": showing #1`, "", 1},
		{"3", "", "", 3},
		{"#2", "", "", 2},
		{"4", "", `no instance "4" among 3 runs`, 0},
		{"nope", "", `no instance "nope"`, 0},
	} {
		pos, warning, err := s.Find(c.id)
		if pos != c.pos || !strings.Contains(warning, c.warning) || (c.warning == "") != (warning == "") ||
			(c.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("Find(%q) = %d, %q, %v; want %d, %q, %q", c.id, pos, warning, err, c.pos, c.warning, c.err)
		}
	}
	want := []string{
		`instance "a__b-1" appears 2 times: ` + filepath.Join(dir, "a__b-1.traj.json") + ` #1; ` + filepath.Join(dir, "z.jsonl") + ` #3 (--instance N picks one by position)`,
	}
	if got := s.Warnings(); len(got) != len(want) || got[0] != want[0] {
		t.Errorf("warnings %q, want %q", got, want)
	}
}

func TestNewErrors(t *testing.T) {
	empty := t.TempDir()
	os.WriteFile(filepath.Join(empty, "notes.txt"), []byte("hello"), 0o644)
	if _, err := New([]string{empty}, Reading{}); err == nil || !strings.Contains(err.Error(), "no run files found") {
		t.Errorf("a folder without runs: %v", err)
	}
	if _, err := New([]string{"no/such/file"}, Reading{}); err == nil {
		t.Error("a missing path")
	}
	if _, err := New([]string{demoTraj}, Reading{Format: "nope"}); !errors.Is(err, parsers.ErrUnknownFormat) {
		t.Errorf("an unknown format: %v", err)
	}
}

// A file that cannot be read is a row of its own with the error, and
// opening it gives the error; the other runs load.
func TestBadFile(t *testing.T) {
	dir := folder(t, []string{"a__b-1"}, map[string]string{"b__c-1.traj.json": `{"messages": [`})
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.LoadAll()
	rows := s.Rows()
	if len(rows) != 2 || rows[1].Note == "" || !rows[1].Loaded {
		t.Fatalf("rows %+v", rows)
	}
	if _, _, err := s.Open(2); err == nil || !strings.Contains(err.Error(), "invalid JSON") {
		t.Errorf("Open of the bad file: %v", err)
	}
}

// A folder of 500 runs opens its list at once: what the first frame needs
// (the list of files) comes before any file is read.
func BenchmarkOpen500(b *testing.B) {
	names := make([]string, 500)
	for i := range names {
		names[i] = fmt.Sprintf("org__repo-%d", i)
	}
	dir := folder(b, names, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, err := New([]string{dir}, Reading{})
		if err != nil || len(s.Rows()) != 500 {
			b.Fatal(err)
		}
	}
}

// Reading every file of the folder: how long until every row names its run.
func BenchmarkLoad500(b *testing.B) { benchLoad(b, 500) }

func benchLoad(b *testing.B, n int) {
	names := make([]string, n)
	for i := range names {
		names[i] = fmt.Sprintf("org__repo-%d", i)
	}
	dir := folder(b, names, nil)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s, _ := New([]string{dir}, Reading{})
		s.LoadAll()
	}
}

// A file of several runs in the middle of a folder puts its runs in its
// row's place: the rows after it shift, positions follow.
func TestManyRunsMidFolder(t *testing.T) {
	dir := folder(t, []string{"a__b-1", "z__z-9"}, map[string]string{"m.jsonl": record("x__y-1") + record("x__y-2") + record("x__y-3")})
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.LoadAll()
	var got []string
	for i, r := range s.Rows() {
		got = append(got, fmt.Sprintf("%d:%s", r.Pos, r.ID))
		if r.Pos != i+1 {
			t.Errorf("row %d at position %d", i, r.Pos)
		}
	}
	if want := "1:a__b-1 2:x__y-1 3:x__y-2 4:x__y-3 5:z__z-9"; strings.Join(got, " ") != want {
		t.Errorf("rows %s, want %s", strings.Join(got, " "), want)
	}
}

// Reading a folder costs the same per file at 500 files and at 4,000 (it
// was quadratic: 63 s for 20,000 small runs on 2026-11-26).
func BenchmarkLoad4000(b *testing.B) { benchLoad(b, 4000) }

// Grep finds the rows whose runs hold a text inside them (a command, an
// output, the task), ignoring case, across files and the runs of one file.
func TestGrep(t *testing.T) {
	dir := folder(t, []string{"a__a-1", "b__b-2"}, map[string]string{"preds.jsonl": record("c__c-3") + record("d__d-4")})
	demo, _ := os.ReadFile(demoTraj)
	// b's run says something the others do not.
	b := strings.Replace(string(demo), "Let me start by getting an overview", "Let me start with the ZEBRA overview", 1)
	os.WriteFile(filepath.Join(dir, "b__b-2.traj.json"), []byte(b), 0o644)
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	s.LoadAll()
	ids := func(rows map[int]bool) []string {
		var out []string
		for i, r := range s.Rows() {
			if rows[i] {
				out = append(out, r.ID)
			}
		}
		return out
	}
	for _, c := range []struct {
		q    string
		want string
	}{
		{"zebra", "b__b-2"},
		{"bulk discount is not applied", "a__a-1 b__b-2"},
		{"nothing holds this", ""},
	} {
		if got := strings.Join(ids(s.Grep(c.q)), " "); got != c.want {
			t.Errorf("Grep(%q) = %q, want %q", c.q, got, c.want)
		}
	}
}

// Loaded gives the run as read before it is analysed, and nothing for a
// file not read yet or a position out of range.
func TestLoaded(t *testing.T) {
	dir := folder(t, []string{"a__b-1", "c__d-2"}, nil)
	s, err := New([]string{dir}, Reading{})
	if err != nil {
		t.Fatal(err)
	}
	if r := s.Loaded(1); r != nil {
		t.Errorf("before any file is read: %v", r.InstanceID)
	}
	s.LoadAll()
	for pos, id := range map[int]string{1: "a__b-1", 2: "c__d-2"} {
		r := s.Loaded(pos)
		if r == nil || r.InstanceID != id || len(r.Actions) != 20 {
			t.Fatalf("Loaded(%d) = %v, want the run of %s", pos, r, id)
		}
	}
	for _, pos := range []int{0, 3, -1} {
		if r := s.Loaded(pos); r != nil {
			t.Errorf("Loaded(%d) = %v", pos, r.InstanceID)
		}
	}
}
