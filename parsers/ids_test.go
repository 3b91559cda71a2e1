package parsers

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestIDWarnings(t *testing.T) {
	for _, c := range []struct {
		name string
		refs []RunRef
		want []Warning
	}{
		{"distinct", []RunRef{{"a", 1, "x"}, {"b", 2, "y"}}, nil},
		{"a .traj and its checkpoints",
			[]RunRef{{"f.traj", 1, "pallets__flask-5014"}, {"f.checkpoints.jsonl", 2, "pallets__flask-5014"}, {"g", 3, "z"}},
			[]Warning{`instance "pallets__flask-5014" appears 2 times: f.traj #1; f.checkpoints.jsonl #2`}},
		{"no ids, one file", []RunRef{{"out.jsonl", 1, ""}, {"out.jsonl", 2, "a"}, {"out.jsonl", 3, ""}},
			[]Warning{`2 runs have no instance id: out.jsonl #1, #3`}},
		{"both, in list order", []RunRef{{"a", 1, "d"}, {"b", 2, ""}, {"a", 3, "d"}, {"a", 4, "d"}},
			[]Warning{`instance "d" appears 3 times: a #1, #3, #4`, `1 run has no instance id: b #2`}},
		{"ids made inert", []RunRef{{"a", 1, "x\x1b[2J"}, {"a", 2, "x\x1b[2J"}},
			[]Warning{`instance "x\\e[2J" appears 2 times: a #1, #2`}},
	} {
		if got := IDWarnings(c.refs); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// convert warns about records it writes without an id or twice, and still
// writes them.
func TestConvertWarnsOnIDs(t *testing.T) {
	dir := t.TempDir()
	rec := func(id string) string {
		return `{"instance_id":"` + id + `","traj_data":{"pred_steps":[],"pred_files":["a.py"],"pred_spans":{}},"model_patch":""}` + "\n"
	}
	os.WriteFile(filepath.Join(dir, "a.jsonl"), []byte(rec("x__y-1")+rec("x__y-2")), 0o644)
	os.WriteFile(filepath.Join(dir, "b.jsonl"), []byte(rec("x__y-1")), 0o644)
	var out bytes.Buffer
	n, errs := Convert([]string{dir}, ConvertOptions{}, &out)
	if n != 3 {
		t.Fatalf("%d records written, errs %v", n, errs)
	}
	want := Warning(`instance "x__y-1" appears 2 times: ` + filepath.Join(dir, "a.jsonl") + ` #1; ` + filepath.Join(dir, "b.jsonl") + ` #3`)
	if len(errs) != 1 || errs[0] != want {
		t.Errorf("errs %q, want %q", errs, want)
	}
}

// Walk takes a file a format's name rule claims without reading its
// content, except to leave out a Git LFS pointer; other files are
// detected by content.
func TestWalkByName(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a__b-1.traj.json"), []byte("not even JSON"), 0o644)
	os.WriteFile(filepath.Join(dir, "c__d-1.traj.json"), []byte("version https://git-lfs.github.com/spec/v1\noid sha256:0\nsize 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(dir, "preds.json"), []byte(`{"instance_id":"x","traj_data":{"pred_steps":[]},"model_patch":""}`), 0o644)
	got, errs := Walk(dir, false)
	want := []string{filepath.Join(dir, "a__b-1.traj.json"), filepath.Join(dir, "preds.json")}
	if !reflect.DeepEqual(got, want) || len(errs) > 0 {
		t.Errorf("Walk = %v, %v; want %v", got, errs, want)
	}
}
