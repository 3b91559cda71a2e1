package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostileText is what an agent's output or a crafted file can hold to act
// on a terminal: an OSC 52 clipboard write, a title change, CSI clear
// screen and colour, carriage return and backspace overprinting, a bell,
// NUL, DEL, a C1 CSI both as UTF-8 (U+009B) and as a raw byte, and a
// right-to-left override.
const hostileText = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;pwned\x1b\\\x1b[2J\x1b[31mred\rover\bX\x07\x00\x7f\u009b1m\x9b1m\u202etxt"

// controlIn reports the first byte sequence in out that a terminal could act
// on, or "" when out is inert: C0 controls other than newline and tab, DEL,
// C1 controls (as UTF-8), bidirectional overrides, and invalid UTF-8 (a raw
// 0x9b is CSI to an 8-bit terminal).
func controlIn(out string) string {
	for i := 0; i < len(out); {
		r, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return fmt.Sprintf("invalid UTF-8 byte %#x at %d", out[i], i)
		case r < 0x20 && r != '\n' && r != '\t', r == 0x7f, r >= 0x80 && r < 0xa0,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U at byte %d: %q", r, i, out[max(0, i-40):min(len(out), i+40)])
		}
		i += size
	}
	return ""
}

// TestNoControlBytesReachOutput: ids, file paths, commands, observations,
// model names and bad values carrying terminal escapes go through every
// command; no control byte from them reaches stdout or stderr, and the text
// is still there, made visible.
func TestNoControlBytesReachOutput(t *testing.T) {
	repo, _ := hostileRepo(t)
	dir := t.TempDir()
	id := "o__r-1" + hostileText
	badFile := "pkg/" + hostileText + ".py"
	gold := write(t, filepath.Join(dir, "gold.jsonl"), strings.Join([]string{
		goldRow(id, "pkg/mod.py", 2, 5, badFile, 1, 2),
		goldRow("o__r-1", "pkg/mod.py", 2, 5, badFile, 1, 2),
		goldRow("o__r-2", "pkg/mod.py", 2, 5),
		// A row upstream would crash on: a warning quoting its id.
		`{"inst_id": ` + jsonString(hostileText) + `, "gold_ctx": [{"file": "a", "start_line": ` + jsonString(hostileText) + `}]}`,
	}, "\n")+"\n")
	preds := write(t, filepath.Join(dir, "preds.jsonl"), strings.Join([]string{
		predRow(id, "pkg/mod.py", 1, 5, badFile, 1, 2),
		// A bad value: the error line quotes it.
		`{"instance_id": "o__r-2", "traj_data": {"pred_steps": [], "pred_files": ["pkg/mod.py"], "pred_spans": {"pkg/mod.py": [{"type": "line", "start": ` + jsonString(hostileText) + `, "end": 2}]}}}`,
		// No gold: a missing_gold line naming the id.
		predRow(hostileText, "pkg/mod.py", 1, 2),
	}, "\n")+"\n")

	// A run whose commands, observations and model name are hostile; its
	// instance id comes from the file name, plain here, hostile in a copy.
	traj := miniTraj(
		[]string{"cat pkg/mod.py # " + hostileText, "echo '" + hostileText + "'", "grep -n x " + badFile, exploreEcho("pkg/mod.py", 2, 5)},
		[]string{"     1\tdef f1():\n" + hostileText, hostileText, "pkg/" + hostileText + ".py:1:" + hostileText, "ok"},
		"File: pkg/mod.py\nLines: 2-5\nFile: "+badFile+"\nLines: 1-2")
	var doc map[string]any
	json.Unmarshal([]byte(traj), &doc)
	doc["instance_id"] = id
	doc["info"].(map[string]any)["config"] = map[string]any{"model": map[string]any{"model_name": hostileText}}
	b, _ := json.Marshal(doc)
	run := write(t, filepath.Join(dir, "o__r-1.traj.json"), string(b))
	hostileRun := write(t, filepath.Join(dir, fileName(hostileText)+".traj.json"), string(b))

	// A directory for convert holding a broken run whose file name is
	// hostile: the error line names it.
	convDir := filepath.Join(dir, "runs")
	write(t, filepath.Join(convDir, "x"+fileName(hostileText)+".traj.json"), `{"messages": [`)
	write(t, filepath.Join(convDir, "o__r-1.traj.json"), string(b))

	results := filepath.Join(dir, "results.jsonl")
	docPath := filepath.Join(dir, "doc.json")
	// shows: the hostile text is expected in the output, made visible.
	commands := []struct {
		args  []string
		shows bool
	}{
		{[]string{"score", "--gold", gold, "--pred", preds, "--repo", repo, "--out", results}, true},
		{[]string{"score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "text"}, true},
		{[]string{"score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "json"}, true},
		{[]string{"score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "csv"}, true},
		{[]string{"score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "jsonl"}, true},
		{[]string{"score", "--gold", gold, "--pred", run, "--repo", repo, "--format", "text"}, true},
		{[]string{"view", run, "--gold", gold, "--repo", repo}, true},
		{[]string{"view", run, "--gold", gold, "--repo", repo, "--lens", "observed"}, true},
		{[]string{"view", run, "--gold", gold, "--repo", repo, "--json"}, true},
		{[]string{"view", hostileRun}, true},
		{[]string{"view", preds, "--instance", hostileText}, true}, // error quoting the id
		{[]string{"view", hostileRun, "--gold", gold}, true},       // error: no gold for the id
		{[]string{"view", hostileRun, "--instance", "x"}, true},    // error naming the file
		{[]string{"convert", convDir}, true},
		// The run list: a hostile file name (an unreadable run), a hostile
		// model name, and the same run twice (the duplicate warning).
		{[]string{"view", convDir, dir, "--gold", gold, "--repo", repo}, true},
		{[]string{"view", convDir, "--json"}, true},
		{[]string{"report", results}, false}, // aggregates only
		{[]string{"report", "--format", "csv", "--per-instance", results}, true},
		{[]string{"report", "--format", "json", "--per-instance", results}, true},
		{[]string{"report", "--per-instance", docPath}, true},
		{[]string{"report", "--per-instance", "--format", "csv", "--lens", "observed", docPath}, true},
	}
	for _, c := range commands {
		args := c.args
		if args[0] == "report" && args[len(args)-1] == docPath {
			// The score document carries the analysis (diagnosis, IR).
			_, out, _ := exec(t, "score", "--gold", gold, "--pred", preds, "--repo", repo, "--format", "json")
			write(t, docPath, out)
		}
		code, out, errs := exec(t, args...)
		if code == exitUsage || strings.Contains(errs, "internal error") {
			t.Errorf("%q: exit %d: %s", args, code, errs)
		}
		if c := controlIn(out); c != "" {
			t.Errorf("%q: stdout carries %s", args, c)
		}
		if c := controlIn(errs); c != "" {
			t.Errorf("%q: stderr carries %s", args, c)
		}
		// The hostile text is shown, not dropped: its visible escape (or
		// its JSON escape) is in the output.
		shown := strings.Contains(out+errs, `\e]52;c;cm0gLXJmIH4=`) || strings.Contains(out+errs, `\u001b]52;c;cm0gLXJmIH4=`)
		if c.shows && !shown {
			t.Errorf("%q: the hostile text is not shown:\n%s\n%s", args, out, errs)
		}
	}
	// --out is a file, not the terminal, but report reads it back.
	data, _ := os.ReadFile(results)
	if c := controlIn(string(data)); c != "" {
		t.Errorf("--out carries %s", c)
	}
}

// fileName is s without the bytes no file name can hold.
func fileName(s string) string {
	return strings.NewReplacer("/", "", "\x00", "").Replace(s)
}
