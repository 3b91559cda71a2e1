package cli

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// score --pred takes a folder of run files, a .tar.gz and a .zip of it, and
// scores them as converting then scoring does, byte for byte; view and
// convert read the archives too; a member climbing out of the archive is
// skipped and said so.
func TestScoreFoldersAndArchives(t *testing.T) {
	dir := t.TempDir()
	demo, err := os.ReadFile(demoTraj)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"runs/pricebook__pricebook-42.traj.json": string(demo),
		"runs/more/other__task-7.traj.json":      string(demo),
		"runs/notes.txt":                         "not a run",
	}
	for name, body := range files {
		write(t, filepath.Join(dir, name), body)
	}
	// The archives, written as tar and zip write them, with a hostile
	// member each.
	var tb, zb bytes.Buffer
	gz := gzip.NewWriter(&tb)
	tw := tar.NewWriter(gz)
	zw := zip.NewWriter(&zb)
	for name, body := range map[string]string{"runs/pricebook__pricebook-42.traj.json": string(demo), "runs/more/other__task-7.traj.json": string(demo), "../../evil.traj.json": string(demo)} {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write([]byte(body))
		w, _ := zw.Create(name)
		w.Write([]byte(body))
	}
	tw.Close()
	gz.Close()
	zw.Close()
	os.WriteFile(filepath.Join(dir, "runs.tar.gz"), tb.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "runs.zip"), zb.Bytes(), 0o644)

	conv := filepath.Join(dir, "conv.jsonl")
	if code, _, errs := exec(t, "convert", filepath.Join(dir, "runs"), "-o", conv); code != 0 {
		t.Fatalf("convert: exit %d %s", code, errs)
	}
	score := func(pred string) (string, string) {
		out := filepath.Join(dir, filepath.Base(pred)+".out")
		code, _, errs := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", pred, "--out", out)
		b, _ := os.ReadFile(out)
		if code != 0 {
			t.Fatalf("score --pred %s: exit %d %s", pred, code, errs)
		}
		return string(b), errs
	}
	want, _ := score(conv)
	if strings.Count(want, "\n") != 2 || !strings.Contains(want, `"instance_id": "other__task-7"`) {
		t.Fatalf("convert then score:\n%s", want)
	}
	for _, p := range []string{"runs", "runs.tar.gz", "runs.zip"} {
		got, errs := score(filepath.Join(dir, p))
		if got != want {
			t.Errorf("score --pred %s:\n%s\nwant\n%s", p, got, want)
		}
		if p != "runs" && !strings.Contains(errs, `member "../../evil.traj.json" climbs out of the archive, skipped`) {
			t.Errorf("%s: the hostile member is not reported: %s", p, errs)
		}
	}
	// The folder is read a file at a time (streamed) unless each instance
	// is explained; both give the same rows.
	whole := filepath.Join(dir, "whole.out")
	if code, _, errs := exec(t, "score", "--gold", demoGold, "--repo", "../demo/task/repo", "--pred", filepath.Join(dir, "runs"), "--out", whole, "--format", "text"); code != 0 {
		t.Fatal(errs)
	}
	if b, _ := os.ReadFile(whole); string(b) != want {
		t.Errorf("the explained (whole-file) path wrote other rows:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "..", "evil.traj.json")); err == nil {
		t.Error("a member was written outside")
	}
	code, out, _ := exec(t, "view", filepath.Join(dir, "runs.zip"), "--gold", demoGold, "--repo", "../demo/task/repo")
	if code != 0 || !strings.Contains(out, "2 runs (contextbench lens)") || !strings.Contains(out, "other__task-7") {
		t.Errorf("view runs.zip: exit %d\n%s", code, out)
	}
	code, out, _ = exec(t, "convert", filepath.Join(dir, "runs.tar.gz"), "-o", "-")
	if conv, _ := os.ReadFile(conv); code != 0 || out != string(conv) {
		t.Errorf("convert runs.tar.gz: exit %d\n%s", code, out)
	}
}

// A trajectory and its continuation inside an archive are one run, as in
// their folder: the continuation is read from memory and joined.
func TestArchiveJoinsContinuations(t *testing.T) {
	folder := "../parsers/atif/testdata/terminus"
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	for _, name := range []string{"trajectory.json", "trajectory.cont-1.json"} {
		body, err := os.ReadFile(filepath.Join(folder, name))
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: "t/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg})
		tw.Write(body)
	}
	tw.Close()
	gz.Close()
	arc := write(t, filepath.Join(t.TempDir(), "t.tar.gz"), b.String())
	actions := func(path string) []any {
		_, out, errs := exec(t, "view", path, "--json")
		var rows []map[string]any
		if err := json.Unmarshal([]byte(out), &rows); err != nil {
			t.Fatalf("%s: %v %s", path, err, errs)
		}
		var n []any
		for _, r := range rows {
			n = append(n, r["actions"])
		}
		return n
	}
	if a, f := actions(arc), actions(folder); len(a) != 1 || fmt.Sprint(a) != fmt.Sprint(f) {
		t.Errorf("archive runs %v, folder runs %v", a, f)
	}
}
