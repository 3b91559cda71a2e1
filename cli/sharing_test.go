package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sharing and scale commands on the real runs of ../shared (skipped
// without it): grep finds a real run's words, an archive of the real
// mini-swe-agent runs converts as their folder does, --redact removes the
// home paths of a real Claude Code session, and the summary says what a
// real session spent.
func TestSharingOnRealRuns(t *testing.T) {
	formats := filepath.Join(sharedData, "formats")
	if _, err := os.Stat(formats); err != nil {
		t.Skip("../shared/data not present")
	}
	mini := filepath.Join(formats, "mini-swe-agent-v1")

	code, out, _ := exec(t, "grep", "-l", "weighted mean", mini)
	if code != 0 || out != filepath.Join(mini, "pydata__xarray-4075.traj.json")+":pydata__xarray-4075\n" {
		t.Errorf("grep -l: exit %d %q", code, out)
	}
	code, out, _ = exec(t, "grep", "-i", "SECURE_REFERRER_POLICY", mini)
	if code != 0 || !strings.HasPrefix(out, filepath.Join(mini, "django__django-12419.traj.json")+":django__django-12419:task: ") || strings.Contains(out, "pydata__xarray-4075") {
		t.Errorf("grep: exit %d %.200q", code, out)
	}

	// The folder as a .tar.gz, written here from the real files.
	var b bytes.Buffer
	gz := gzip.NewWriter(&b)
	tw := tar.NewWriter(gz)
	entries, _ := os.ReadDir(mini)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(mini, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		tw.WriteHeader(&tar.Header{Name: "runs/" + e.Name(), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg})
		tw.Write(data)
	}
	tw.Close()
	gz.Close()
	arch := write(t, filepath.Join(t.TempDir(), "runs.tar.gz"), b.String())
	_, fromDir, _ := exec(t, "convert", mini, "-o", "-")
	code, fromArch, errs := exec(t, "convert", arch, "-o", "-")
	if code != 0 || fromArch != fromDir || strings.Count(fromDir, "\n") != len(entries) {
		t.Errorf("convert runs.tar.gz: exit %d %s (%d records, folder %d)", code, errs, strings.Count(fromArch, "\n"), strings.Count(fromDir, "\n"))
	}

	session := filepath.Join(formats, "claude-code-native", "orban-intent-layer__ckpt-401af54bd6a7-1.full.jsonl")
	_, plain, _ := exec(t, "view", session, "--json")
	code, red, errs := exec(t, "view", session, "--json", "--redact")
	if !strings.Contains(plain, "/Users/ryo/") || code != 0 || strings.Contains(red, "/Users/ryo/") || !strings.Contains(red, "/Users/[user]/") ||
		!strings.Contains(errs, "home-directory user names") {
		t.Errorf("view --json --redact: exit %d %s", code, errs)
	}
	if _, out, _ = exec(t, "view", session); !strings.Contains(out, "spent: 4m31s · 2.1M tokens (37 in · 115 out · 1.9M cache read · 172.5k cache write)") {
		t.Errorf("the summary does not say what the session spent:\n%.400s", out)
	}
}
