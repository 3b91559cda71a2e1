package parsers

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copyTree copies a fixture folder into dir.
func copyTree(t *testing.T, src, dir string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The files a run refers to (a Claude Code sub-agent's meta, Gemini CLI
// sub-agents' chats, the rollouts of threads Codex spawned, an OpenHands
// conversation's events) are never read through a link: links placed
// beside the real files are refused with a warning naming them, and the
// run reads as it does without them (issue 48: 256 links to one 8 MB
// chat read 2.4 GB). Each reader reads them under one budget
// (inputfile.Refs, tested there).
func TestReferencedFilesNotThroughLinks(t *testing.T) {
	cases := []struct {
		name    string
		fixture string // copied into a temporary folder
		run     string // the run's file in it
		target  string // a referenced file links are made to
		links   []string
		// quiet: a link is known as a file read already (a Codex thread
		// by its id) and passed over without a word.
		quiet bool
	}{
		{"claude code meta", "claudecode/testdata/team", "sess-t.jsonl", "sess-t/subagents/agent-f1.meta.json",
			[]string{"sess-t/subagents/agent-f2.meta.json"}, false},
		{"gemini cli chats", "gemini/testdata/chats", "session-2026-04-01T00-00-s-main.jsonl", "s-main/sub-1.jsonl",
			[]string{"s-main/sub-3.jsonl", "s-main/sub-4.jsonl", "s-main/sub-5.json"}, false},
		{"codex rollouts", "codex/testdata/sessions", "2026/07/01/rollout-2026-07-01T23-59-00-11111111-1111-4111-8111-111111111111.jsonl",
			"2026/07/01/rollout-2026-07-01T23-59-09-22222222-2222-4222-8222-222222222222.jsonl",
			[]string{"2026/07/01/rollout-2026-07-01T23-59-30-55555555-5555-4555-8555-555555555555.jsonl"}, true},
		{"openhands events", "openhands/testdata/conv", "c0ffee", "c0ffee/events/event-00003-o1.json",
			[]string{"c0ffee/events/event-00100-l1.json", "c0ffee/events/event-00101-l2.json"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			clean, linked := t.TempDir(), t.TempDir()
			copyTree(t, c.fixture, clean)
			copyTree(t, c.fixture, linked)
			for _, l := range c.links {
				if err := os.Symlink(filepath.Join(linked, c.target), filepath.Join(linked, l)); err != nil {
					t.Skip(err)
				}
			}
			want, err := Load(filepath.Join(clean, c.run), "")
			if err != nil || len(want) != 1 {
				t.Fatalf("without links: %d runs, %v", len(want), err)
			}
			got, err := Load(filepath.Join(linked, c.run), "")
			if err != nil || len(got) != 1 {
				t.Fatalf("with links: %d runs, %v", len(got), err)
			}
			if len(got[0].Actions) != len(want[0].Actions) || len(got[0].Agents) != len(want[0].Agents) {
				t.Errorf("with links: %d actions, %d agents; without: %d, %d", len(got[0].Actions), len(got[0].Agents), len(want[0].Actions), len(want[0].Agents))
			}
			warned := strings.Join(got[0].Warnings, "\n")
			for _, l := range c.links {
				if c.quiet {
					break
				}
				if !strings.Contains(warned, filepath.Base(l)) {
					t.Errorf("no warning names the link %s:\n%s", l, warned)
				}
			}
		})
	}
}

// A Claude Code session kept under another name (a checkpoint's
// ckpt.full.jsonl) still reads its sub-agents' transcripts, and a folder
// of it lists one run: the transcripts are not runs of their own
// (issue 48: convert wrote 2 records for 1 session).
func TestSubagentFolderOfARenamedSession(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, "claudecode/testdata/withsub", dir)
	if err := os.Rename(filepath.Join(dir, "sess-9.jsonl"), filepath.Join(dir, "ckpt.full.jsonl")); err != nil {
		t.Fatal(err)
	}
	found, errs := Walk(dir, true)
	if len(found) != 1 || filepath.Base(found[0]) != "ckpt.full.jsonl" || len(errs) != 0 {
		t.Fatalf("walk found %v (%v), want the session alone", found, errs)
	}
	runs, err := Load(found[0], "")
	if err != nil || len(runs) != 1 || len(runs[0].Agents) != 2 {
		t.Fatalf("%d runs, %v; agents %v", len(runs), err, runs)
	}
}
